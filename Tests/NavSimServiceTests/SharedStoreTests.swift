import Foundation
import HTTPServer
import PostgreSQL
import Synchronization
import JSONValues
import Testing

import NavSimService
import SessionStorage
import PostgresStore

// The service on PostgreSQL: `navsim --store postgres://…`, and several instances on
// one database. These cases run only when NAVSIM_TEST_POSTGRES names a server (a libpq URL;
// scripts/pg-cluster.sh starts a throwaway one), as the store suite's PostgreSQL cases do.

/// The server these cases run on, or nil (they are skipped).
private let sharedStoreURL: String? = ProcessInfo.processInfo.environment["NAVSIM_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

/// One PostgreSQL schema (dropped at the end) and any number of navsim instances on it, each
/// with its own store and its own in-memory sessions: what several processes on one database see.
final class SharedDatabase {
    let url: String
    let schema: String
    private let admin: PostgreSQL.Connection
    static let migrations = ServiceFiles.root.appendingPathComponent("migrations-postgres").path

    init() throws {
        url = try #require(sharedStoreURL)
        schema = "navsim_service_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        admin = try PostgreSQL.Connection(url: url)
    }

    deinit { try? admin.execute("DROP SCHEMA IF EXISTS \(PostgreSQL.Connection.quoteIdentifier(schema)) CASCADE") }

    /// A new instance: a store of its own on the schema (migrated once), and a service on it.
    func instance(loadedSessions: Int = NavSimService.defaultLoadedSessions) throws -> NavSimService {
        let store = try PostgresSessionStore(url: url, migrationsDirectory: Self.migrations, schema: schema)
        return try NavSimService(store: store, openAPI: [], loadedSessions: loadedSessions)
    }

    /// Each history entry of `sid` as stored: its version and request body, ascending.
    func storedEntries(_ sid: String) throws -> [(version: Int, body: String?)] {
        try admin.query(
            "SELECT version, body FROM \(PostgreSQL.Connection.quoteIdentifier(schema)).history WHERE session_id = $1 ORDER BY version",
            [.text(sid)]
        ).map { (Int($0.int("version") ?? -1), $0.text("body")) }
    }

    /// The history versions stored for `sid`, ascending, read straight from the table.
    func storedVersions(_ sid: String) throws -> [Int] {
        try admin.query(
            "SELECT version FROM \(PostgreSQL.Connection.quoteIdentifier(schema)).history WHERE session_id = $1 ORDER BY version",
            [.text(sid)]
        ).map { Int($0.int("version") ?? -1) }
    }
}

/// Sends one request to `service` in process and waits for its reply.
@discardableResult
func call(
    _ service: NavSimService, _ method: String, _ path: String, _ body: String? = nil,
    headers extra: [(String, String)] = []
) -> ServiceReply {
    var headers = HTTPHeaders(extra)
    var query: [String: String] = [:]
    var target = path
    if let q = path.firstIndex(of: "?") {
        target = String(path[..<q])
        for pair in path[path.index(after: q)...].split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            query[String(kv[0])] = kv.count > 1 ? String(kv[1]) : ""
        }
    }
    if body != nil { headers.add("Content-Type", "application/json") }
    let response = service.handle(
        HTTPRequest(
            method: method, path: target, query: query, headers: headers,
            body: body.map { Array($0.utf8) } ?? []))
    return ServiceReply(status: response.status, headers: response.headers, body: response.body)
}

/// A session with a navigation controller `nav` holding `home`.
private let sessionBody =
    #"{"id": "%@", "options": {"transitions": "immediate"}, "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home", "class": "HomeViewController"}]}}"#

func createSession(_ service: NavSimService, _ sid: String) -> ServiceReply {
    call(service, "POST", "/v1/sessions", String(format: sessionBody, sid))
}

/// One write: `home`'s title, a new one each time, so every write is a new version.
func retitle(_ service: NavSimService, _ sid: String, _ title: String, ifMatch: String? = nil) -> ServiceReply {
    call(
        service, "PATCH", "/v1/sessions/\(sid)/controllers/home", #"{"title": "\#(title)"}"#,
        headers: ifMatch.map { [("If-Match", $0)] } ?? [])
}

@Suite("Service on PostgreSQL", .enabled(if: sharedStoreURL != nil, "set NAVSIM_TEST_POSTGRES to a PostgreSQL URL"))
struct SharedStoreServiceTests {
    @Test("creates, mutates, restarts and reads back the same session")
    func restartReadsBack() throws {
        let db = try SharedDatabase()
        var service: NavSimService? = try db.instance()
        #expect(createSession(service!, "s").status == 201)
        for n in 1...5 { #expect(retitle(service!, "s", "t\(n)").status == 200) }
        let before = call(service!, "GET", "/v1/sessions/s")
        let historyBefore = call(service!, "GET", "/v1/sessions/s/history?after=-1")
        #expect(before["version"]?.number == 5)
        service = nil
        let restarted = try db.instance()
        let after = call(restarted, "GET", "/v1/sessions/s")
        #expect(after.status == 200)
        #expect(after.text == before.text)
        #expect(after.headers["etag"] == "\"5\"")
        #expect(call(restarted, "GET", "/v1/sessions/s/history?after=-1").text == historyBefore.text)
        #expect(call(restarted, "GET", "/v1/sessions").text.contains(#""id":"s""#))
        // And writes on after the restart, at the next version.
        #expect(retitle(restarted, "s", "t6")["version"]?.number == 6)
        #expect(try db.storedVersions("s") == Array(0...6))
    }

    @Test("an instance serves a session another instance created after it started")
    func findsSessionsOfOtherInstances() throws {
        let db = try SharedDatabase()
        let a = try db.instance(), b = try db.instance()
        #expect(createSession(a, "made-on-a").status == 201)
        let read = call(b, "GET", "/v1/sessions/made-on-a")
        #expect(read.status == 200, "\(read)")
        #expect(read["version"]?.number == 0)
        // Creating the same id on the other instance is a conflict, not a second session.
        expectProblem(createSession(b, "made-on-a"), 409, "session-exists")
        expectProblem(call(b, "GET", "/v1/sessions/never-made"), 404, "unknown-session")
    }

    // MARK: Stale caches (optimistic concurrency across instances)

    @Test("writes alternating between two instances all succeed, versions 1…N without a gap")
    func alternatingInstances() throws {
        let db = try SharedDatabase()
        let a = try db.instance(), b = try db.instance()
        #expect(createSession(a, "s").status == 201)
        for n in 1...12 {
            // Each instance's copy is stale by the other's previous write (from the second on).
            let reply = retitle(n % 2 == 0 ? a : b, "s", "t\(n)")
            #expect(reply.status == 200, "write \(n): \(reply)")
            #expect(reply["version"]?.number == Double(n), "write \(n): \(reply)")
            #expect(reply.headers["etag"] == "\"\(n)\"")
        }
        #expect(try db.storedVersions("s") == Array(0...12))
        // Both serve the last version once they wrote on it or reloaded it.
        #expect(call(a, "GET", "/v1/sessions/s/controllers/home")["title"]?.string == "t12")
    }

    @Test("a stale If-Match after another instance's write is 412, and nothing is written")
    func staleIfMatchAcrossInstances() throws {
        let db = try SharedDatabase()
        let a = try db.instance(), b = try db.instance()
        #expect(createSession(a, "s").status == 201)
        #expect(retitle(a, "s", "on-a", ifMatch: "\"0\"")["version"]?.number == 1)
        #expect(retitle(b, "s", "on-b", ifMatch: "\"1\"")["version"]?.number == 2)
        // A still holds version 1 and accepts the tag; the database refuses the commit, the
        // rerun on the reloaded version 2 answers as a stale tag does.
        expectProblem(retitle(a, "s", "late", ifMatch: "\"1\""), 412, "version-mismatch")
        #expect(try db.storedVersions("s") == [0, 1, 2])
        // The current tag works on A now that it reloaded.
        let fresh = retitle(a, "s", "fresh", ifMatch: "\"2\"")
        #expect(fresh.status == 200 && fresh["version"]?.number == 3, "\(fresh)")
    }

    @Test("a session deleted on one instance is 404 on the other's next write")
    func deletedElsewhere() throws {
        let db = try SharedDatabase()
        let a = try db.instance(), b = try db.instance()
        #expect(createSession(a, "s").status == 201)
        #expect(call(b, "GET", "/v1/sessions/s").status == 200)
        #expect(call(a, "DELETE", "/v1/sessions/s").status == 204)
        expectProblem(retitle(b, "s", "gone"), 404, "unknown-session")
        #expect(try db.storedVersions("s") == [])
    }

    @Test("64 writers spread over two instances on one session: a gapless history holding every 2xx")
    func concurrentWritersOnTwoInstances() throws {
        let db = try SharedDatabase()
        let instances = [try db.instance(), try db.instance()]
        #expect(createSession(instances[0], "s").status == 201)
        let writers = 64, writesEach = 4
        let replies = Mutex<[(title: String, status: Int, version: Int?, slug: String?)]>([])
        let done = DispatchGroup()
        for w in 0..<writers {
            done.enter()
            Thread {
                for n in 0..<writesEach {
                    let title = "w\(w)-\(n)"
                    let reply = retitle(instances[(w + n) % 2], "s", title)
                    replies.withLock { $0.append((title, reply.status, reply["version"]?.number.map { Int($0) }, reply.slug)) }
                }
                done.leave()
            }.start()
        }
        done.wait()
        let all = replies.withLock { $0 }
        #expect(all.count == writers * writesEach)
        // Every reply is a success or the documented conflict; nothing else (no 5xx).
        for r in all { #expect(r.status == 200 || (r.status == 409 && r.slug == "write-conflict"), "\(r)") }
        let entries = try db.storedEntries("s")
        #expect(entries.map(\.version) == Array(0..<entries.count), "the stored history has a gap")
        let byVersion = Dictionary(uniqueKeysWithValues: entries.map { ($0.version, $0.body ?? "") })
        let acknowledged = all.filter { $0.status == 200 }
        #expect(!acknowledged.isEmpty)
        #expect(Set(acknowledged.compactMap(\.version)).count == acknowledged.count, "two replies name one version")
        for r in acknowledged {
            let stored = r.version.flatMap { byVersion[$0] } ?? "missing"
            #expect(stored.contains("\"\(r.title)\""), "acknowledged \(r.title) at \(r.version ?? -1), stored \(stored)")
        }
        // And only acknowledged writes are stored (entry 0 is the creation).
        #expect(entries.count - 1 == acknowledged.count)
        print("two instances, \(writers) writers: \(acknowledged.count) of \(all.count) writes acknowledged, the rest write-conflict")
    }

    // MARK: Reads on an instance that did not write

    @Test("an instance that cached a session serves the version another instance acknowledged since")
    func readsAreNotStale() throws {
        let db = try SharedDatabase()
        var a: NavSimService? = try db.instance()
        let b = try db.instance()
        #expect(createSession(a!, "s").status == 201)
        #expect(retitle(a!, "s", "one").status == 200)
        // B caches version 1 (the session, a controller, the transitions, the history).
        #expect(call(b, "GET", "/v1/sessions/s")["version"]?.number == 1)
        #expect(call(b, "GET", "/v1/sessions/s/controllers/home")["title"]?.string == "one")
        for n in 2...4 { #expect(retitle(a!, "s", "t\(n)").status == 200) }
        // A leaves (as if killed after acknowledging): B shows what A acknowledged.
        a = nil
        let session = call(b, "GET", "/v1/sessions/s")
        #expect(session["version"]?.number == 4 && session.headers["etag"] == "\"4\"", "\(session)")
        #expect(call(b, "GET", "/v1/sessions/s/controllers/home")["title"]?.string == "t4")
        #expect(call(b, "GET", "/v1/sessions/s/transitions").headers["etag"] == "\"4\"")
        let history = call(b, "GET", "/v1/sessions/s/history")
        #expect(history["entries"]?.array?.count == 4, "\(history)")
        #expect(history.headers["etag"] == "\"4\"")
        #expect(call(b, "GET", "/v1/sessions/s?version=2").status == 200)
        // And B writes on from there.
        #expect(retitle(b, "s", "t5")["version"]?.number == 5)
    }

    @Test("a read on an instance that cached a session deleted elsewhere is 404")
    func readAfterDeletionElsewhere() throws {
        let db = try SharedDatabase()
        let a = try db.instance(), b = try db.instance()
        #expect(createSession(a, "s").status == 201)
        #expect(call(b, "GET", "/v1/sessions/s").status == 200)
        #expect(call(a, "DELETE", "/v1/sessions/s").status == 204)
        expectProblem(call(b, "GET", "/v1/sessions/s"), 404, "unknown-session")
    }

    @Test("an instance that saw a session deleted serves the one created again under its id elsewhere")
    func readOfRecreatedAfterSeenDeleted() throws {
        let db = try SharedDatabase()
        let a = try db.instance(), b = try db.instance()
        #expect(createSession(a, "s").status == 201)
        #expect(call(b, "GET", "/v1/sessions/s").status == 200)
        #expect(call(a, "DELETE", "/v1/sessions/s").status == 204)
        expectProblem(call(b, "GET", "/v1/sessions/s"), 404, "unknown-session")
        #expect(createSession(a, "s").status == 201)
        #expect(retitle(a, "s", "again")["version"]?.number == 1)
        #expect(call(b, "GET", "/v1/sessions/s")["version"]?.number == 1)
        #expect(retitle(b, "s", "from b")["version"]?.number == 2)
    }

    @Test("an instance that cached a session deleted elsewhere can create one under its id")
    func creationAfterDeletionElsewhere() throws {
        let db = try SharedDatabase()
        let a = try db.instance(), b = try db.instance()
        #expect(createSession(a, "s").status == 201)
        #expect(call(b, "GET", "/v1/sessions/s").status == 200)
        #expect(call(a, "DELETE", "/v1/sessions/s").status == 204)
        #expect(createSession(b, "s").status == 201)
        #expect(call(a, "GET", "/v1/sessions/s")["version"]?.number == 0)
        // While the session exists, a second creation is still refused, on either instance.
        expectProblem(createSession(a, "s"), 409, "session-exists")
        expectProblem(createSession(b, "s"), 409, "session-exists")
    }

    @Test("a read on an instance that cached a session deleted and created again elsewhere shows the new one")
    func readAfterRecreationElsewhere() throws {
        let db = try SharedDatabase()
        let a = try db.instance(), b = try db.instance()
        #expect(createSession(a, "s").status == 201)
        for title in ["t1", "t2", "t3"] { _ = retitle(a, "s", title) }
        #expect(call(b, "GET", "/v1/sessions/s")["version"]?.number == 3)
        // B does not look at the session again until A has replaced it with a new one at version 1.
        #expect(call(a, "DELETE", "/v1/sessions/s").status == 204)
        #expect(createSession(a, "s").status == 201)
        #expect(retitle(a, "s", "new")["version"]?.number == 1)
        let read = call(b, "GET", "/v1/sessions/s")
        #expect(read["version"]?.number == 1, "\(read)")
        #expect(read.headers["etag"] == "\"1\"")
    }
}
