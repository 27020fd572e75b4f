import Foundation
import PostgresStore
import SQLite
import SQLiteStore
import SessionStorage
import Testing

/// The arrows of docs/architecture.md between the service and its stores, read from the
/// sources' imports: SwiftPM lets a file import a module its target builds only through another
/// dependency, so `Package.swift` alone does not keep them.
@Suite("Storage targets")
struct StorageTargetsTests {
    /// The modules the files of `Sources/<target>` import.
    static func imports(of target: String) throws -> Set<String> {
        let folder = repositoryRoot.appendingPathComponent("Sources/\(target)")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
        var modules: Set<String> = []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if let at = words.firstIndex(of: "import"), at + 1 < words.count,
                    words[..<at].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal"].contains(String($0)) })
                {
                    modules.insert(String(words[at + 1]))
                }
            }
        }
        return modules
    }

    @Test func theServiceSeesOnlyTheContract() throws {
        let service = try Self.imports(of: "NavSimService")
        #expect(service.contains("SessionStorage"))
        #expect(
            service.isDisjoint(with: ["SQLite", "PostgreSQL", "CSQLite", "CLibPQ", "SQLiteStore", "PostgresStore"]),
            "\(service.sorted())")
    }

    @Test func theStoresDoNotKnowEachOther() throws {
        let sqlite = try Self.imports(of: "SQLiteStore")
        let postgres = try Self.imports(of: "PostgresStore")
        #expect(sqlite.isSuperset(of: ["SessionStorage", "SQLite"]))
        #expect(postgres.isSuperset(of: ["SessionStorage", "PostgreSQL"]))
        #expect(sqlite.isDisjoint(with: ["PostgreSQL", "CLibPQ", "PostgresStore", "NavSimService"]), "\(sqlite.sorted())")
        #expect(postgres.isDisjoint(with: ["SQLite", "CSQLite", "SQLiteStore", "NavSimService"]), "\(postgres.sorted())")
    }

    @Test func theContractNeedsNoDatabase() throws {
        let storage = try Self.imports(of: "SessionStorage")
        #expect(storage.isSubset(of: ["Dispatch", "Foundation", "Synchronization"]), "\(storage.sorted())")
    }

    /// The stored format is a target of its own that knows nothing of HTTP, and the service holds
    /// none of its types: it writes sessions through `SessionFormat`.
    @Test func theStoredFormatKnowsNoHTTP() throws {
        let format = try Self.imports(of: "SessionFormat")
        #expect(format == ["NavigationCore", "SessionStorage", "JSONValues"], "\(format.sorted())")
        let values = try Self.imports(of: "JSONValues")
        #expect(values.isEmpty, "\(values.sorted())")
        #expect(try Self.imports(of: "NavSimService").isSuperset(of: ["SessionFormat", "JSONValues"]))
        let folder = repositoryRoot.appendingPathComponent("Sources/NavSimService")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
        let declaration = /(struct|enum|class|protocol) (Stored[A-Za-z]*|StoredCodec|Persistence|SessionHistory|TurnRecord|JSON|JSONWriter)\b/
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let declares = text.firstMatch(of: declaration).map { String($0.output.0) }
            #expect(declares == nil, "Sources/NavSimService/\(file) declares a type of the stored format")
        }
    }
}

/// How the service reads each store's errors (`StoreFault`), since its tests inject faults from
/// outside the stores.
@Suite("Store faults")
struct StoreFaultTests {
    @Test func sqliteFullIsStorageFull() {
        let full: any Error = SQLiteError(code: 13, message: "database or disk is full")  // SQLITE_FULL
        #expect(full.storeFault?.isStorageFull == true)
        #expect(full.storeFault?.storeCode == .resultCode(13))
        let constraint: any Error = SQLiteError(code: 1555, message: "UNIQUE constraint failed")
        #expect(constraint.storeFault?.isStorageFull == false)
    }

    @Test func postgresCommitOutcomeAndStaleVersion() {
        let unknown: any Error = PostgresStoreError.commitOutcomeUnknown("server closed the connection")
        #expect(unknown.storeFault?.isCommitOutcomeUnknown == true && unknown.isStoreUnreachable)
        let stale: any Error = PostgresStoreError.staleVersion(session: "s", expected: 1, stored: 2)
        #expect(stale.isStaleVersion && !stale.isStoreUnreachable)
        #expect(!(SQLiteError(code: 13, message: "full") as any Error).isStaleVersion)
    }
}
