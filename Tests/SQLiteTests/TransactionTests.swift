import SQLite
import Testing

private struct Boom: Error, Equatable {}

@Suite struct TransactionTests {
    private func makeTable(_ db: Connection) throws {
        try db.execute("CREATE TABLE t(x)")
    }

    private func values(_ db: Connection) throws -> [Int64] {
        try db.query("SELECT x FROM t ORDER BY x").compactMap { $0.int(0) }
    }

    @Test func transactionCommitsAndReturnsTheBodysValue() throws {
        try withDatabase { db, _ throws in
            try makeTable(db)
            let result = try db.transaction {
                try db.run("INSERT INTO t VALUES (1)")
                #expect(db.isInTransaction)
                return "done"
            }
            #expect(result == "done")
            #expect(!db.isInTransaction)
            #expect(try values(db) == [1])
        }
    }

    @Test func throwingBodyRollsBackAndPropagatesTheError() throws {
        try withDatabase { db, _ throws in
            try makeTable(db)
            #expect(throws: Boom()) {
                try db.transaction {
                    try db.run("INSERT INTO t VALUES (1)")
                    throw Boom()
                }
            }
            #expect(!db.isInTransaction)
            #expect(try values(db) == [])
        }
    }

    @Test func failingCommitRollsBack() throws {
        try withDatabase { db, _ throws in
            // A deferred foreign key is checked only at COMMIT, so the COMMIT itself fails.
            try db.execute(
                """
                CREATE TABLE parent(id INTEGER PRIMARY KEY);
                CREATE TABLE child(parent_id REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
                """)
            let error = #expect(throws: SQLiteError.self) {
                try db.transaction { try db.run("INSERT INTO child VALUES (9)") }
            }
            #expect(error?.code == 787)
            #expect(error?.sql == "COMMIT")
            #expect(!db.isInTransaction)
            #expect(try db.scalar("SELECT count(*) FROM child") == .integer(0))
        }
    }

    @Test func nestedTransactionIsASavepointThatRollsBackAlone() throws {
        try withDatabase { db, _ throws in
            try makeTable(db)
            try db.transaction {
                try db.run("INSERT INTO t VALUES (1)")
                #expect(throws: Boom()) {
                    try db.transaction {
                        try db.run("INSERT INTO t VALUES (2)")
                        throw Boom()
                    }
                }
                try db.transaction { try db.run("INSERT INTO t VALUES (3)") }
            }
            #expect(try values(db) == [1, 3])
        }
    }

    @Test func outerRollbackUndoesCompletedNestedTransactions() throws {
        try withDatabase { db, _ throws in
            try makeTable(db)
            #expect(throws: Boom()) {
                try db.transaction {
                    try db.transaction { try db.run("INSERT INTO t VALUES (1)") }
                    throw Boom()
                }
            }
            #expect(try values(db) == [])
        }
    }
}
