import Foundation
import HTTPServer
import PostgreSQL
import JSONValues
import Testing
import NavSimService
import SessionStorage
import PostgresStore

/// A PostgreSQL database of its own (created here, dropped at the end) that a test can take
/// down and bring back: refusing new connections to it (`ALLOW_CONNECTIONS false`) and ending
/// its backends is, for the instance, the server gone; allowing them again is the server back.
/// Nothing else uses the database, so other cases running meanwhile are not touched.
final class OutageDatabase {
    let name: String
    /// libpq URL of this database: the server's URL with the database name replaced.
    let url: String
    private let admin: PostgreSQL.Connection

    init(server: String) throws {
        name = "navsim_outage_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        admin = try PostgreSQL.Connection(url: server)
        try admin.execute("CREATE DATABASE \(PostgreSQL.Connection.quoteIdentifier(name))")
        let (base, query) = server.firstIndex(of: "?").map { (server[..<$0], server[$0...]) } ?? (server[...], ""[...])
        let authority = try #require(base.range(of: "://")).upperBound
        let path = base[authority...].firstIndex(of: "/") ?? base.endIndex
        url = base[..<path] + "/" + name + query
    }

    deinit {
        let quoted = PostgreSQL.Connection.quoteIdentifier(name)
        try? admin.execute("ALTER DATABASE \(quoted) ALLOW_CONNECTIONS true")
        try? admin.execute("DROP DATABASE IF EXISTS \(quoted) WITH (FORCE)")
    }

    /// Ends every backend connected to the database (as a server restart does); returns how many.
    /// `pg_terminate_backend(pid, 5000)` returns once each has exited (bounded: 5 s).
    @discardableResult
    func dropConnections() throws -> Int {
        Int(
            try admin.query(
                "SELECT count(pg_terminate_backend(pid, 5000)) AS n FROM pg_stat_activity WHERE datname = $1",
                [.text(name)]
            ).first?.int("n") ?? 0)
    }

    /// The database stops answering: no new connection is accepted, and the open ones end.
    func goDown() throws {
        try admin.execute("ALTER DATABASE \(PostgreSQL.Connection.quoteIdentifier(name)) ALLOW_CONNECTIONS false")
        try dropConnections()
    }

    /// The database answers again.
    func comeBack() throws {
        try admin.execute("ALTER DATABASE \(PostgreSQL.Connection.quoteIdentifier(name)) ALLOW_CONNECTIONS true")
    }
}

/// The server `SharedStoreServiceTests` run on (`NAVSIM_TEST_POSTGRES`).
private let outageServerURL: String? = ProcessInfo.processInfo.environment["NAVSIM_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

// The shared store going away and coming back: the first write after a
// restart of PostgreSQL, the 503s during an outage, /healthz (liveness) and /readyz (readiness).
extension SharedStoreServiceTests {
    @Test(
        "the first write after the server dropped every connection succeeds; during an outage reads and writes answer 503 store-unreachable with Retry-After, /healthz stays 200 and /readyz is 503 until the database answers again; the first write then succeeds"
    )
    func outage() throws {
        let db = try OutageDatabase(server: try #require(outageServerURL))
        // Probes as often as /readyz asks (at most one at a time), so the test need not wait.
        let store = try PostgresSessionStore(url: db.url, migrationsDirectory: SharedDatabase.migrations, probeIntervalMillis: 0)
        let service = try NavSimService(store: store, openAPI: [])
        #expect(createSession(service, "s").status == 201)
        #expect(call(service, "GET", "/readyz").status == 200)

        // A restart, as the instance sees it: every connection gone. The write's BEGIN fails on
        // the dead connection before anything reached the server, so it runs on a fresh one.
        #expect(try db.dropConnections() >= 2)
        let first = retitle(service, "s", "after the drop")
        #expect(first.status == 200, "\(first)")
        #expect(first["version"]?.number == 1)
        #expect(call(service, "GET", "/readyz").status == 200)

        try db.goDown()
        let read = call(service, "GET", "/v1/sessions/s")
        StoreUnreachableTests.expectUnreachable(read, "a read")
        let readDetail = read["detail"]?.string ?? ""
        #expect(readDetail.contains("nothing was changed"), "\(read)")
        #expect(!readDetail.contains("stored"), "\(read)")
        StoreUnreachableTests.expectUnreachable(call(service, "GET", "/v1/sessions/s/history?after=-1"), "the history")
        let write = retitle(service, "s", "during the outage")
        StoreUnreachableTests.expectUnreachable(write, "a write")
        #expect(write["detail"]?.string?.contains("nothing was stored") == true, "\(write)")
        StoreUnreachableTests.expectUnreachable(createSession(service, "t"), "a creation")

        #expect(call(service, "GET", "/healthz").status == 200)
        StoreUnreachableTests.expectUnreachable(call(service, "GET", "/readyz"), "/readyz")
        #expect(StoreUnreachableTests.storeUp(service) == "navsim_store_up 0")
        #expect(!store.reachability.isReachable)

        // Back: no probe needed, the first write connects again on its own.
        try db.comeBack()
        let again = retitle(service, "s", "after the outage")
        #expect(again.status == 200, "\(again)")
        // The failed write changed nothing: this one is version 2.
        #expect(again["version"]?.number == 2)
        #expect(call(service, "GET", "/readyz").status == 200)
        #expect(StoreUnreachableTests.storeUp(service) == "navsim_store_up 1")

        // Down again, no request: /readyz's own probe finds it going and coming back.
        try db.goDown()
        var down = false
        for _ in 0..<200 where !down {  // bounded: 10 s
            down = call(service, "GET", "/readyz").status == 503
            if !down { usleep(50_000) }
        }
        #expect(down)
        try db.comeBack()
        var ready = false
        for _ in 0..<200 where !ready {  // bounded: 10 s
            ready = call(service, "GET", "/readyz").status == 200
            if !ready { usleep(50_000) }
        }
        #expect(ready)
    }
}
