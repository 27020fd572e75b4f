// store-bench: commit round trips and batched throughput of a SessionStoring, for
// scripts/pg-bench.sh. Not a test: it prints figures and asserts nothing.
//
//   store-bench sqlite DIR MIGRATIONS [COUNT]        a SessionStore in DIR/bench.sqlite
//   store-bench postgres URL MIGRATIONS [COUNT]      a PostgresSessionStore in a schema of its own
//
// Bounded: COUNT (default 1000, at most 20000) sequential commits, then 16 threads × COUNT/16.
import Foundation
import PostgreSQL
import PostgresStore
import SQLiteStore
import SessionStorage

let args = CommandLine.arguments
guard args.count >= 4, ["sqlite", "postgres"].contains(args[1]) else {
    FileHandle.standardError.write(Data("usage: store-bench sqlite DIR MIGRATIONS [COUNT] | postgres URL MIGRATIONS [COUNT]\n".utf8))
    exit(2)
}
let count = min(max(Int(args.count > 4 ? args[4] : "1000") ?? 1000, 16), 20_000)
let schema = "navsim_bench_\(getpid())"
let store: any SessionStoring
if args[1] == "sqlite" {
    store = try SessionStore(path: args[2] + "/bench.sqlite", migrationsDirectory: args[3])
} else {
    store = try PostgresSessionStore(url: args[2], migrationsDirectory: args[3], schema: schema)
}

/// A commit like the service's: the session row, one changed controller, one history entry.
@Sendable func commit(_ id: String, _ version: Int) -> SessionCommit {
    let state = String(repeating: "s", count: 600)
    return SessionCommit(
        session: SessionRow(id: id, version: version, createdAt: "2026-01-01T00:00:00Z", state: state),
        upsertedControllers: [ControllerRow(id: "c\(version % 4)", body: String(repeating: "c", count: 900))],
        history: HistoryRow(
            version: version, at: "2026-01-01T00:00:00Z", method: "POST", path: "/v1/sessions/\(id)/push",
            body: #"{"op":"push"}"#, command: String(repeating: "k", count: 200),
            result: String(repeating: "r", count: 400), changes: String(repeating: "x", count: 300),
            rulesVersion: 1))
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

// One client: each commit waits for the previous one, so this is the durable round trip.
var latencies: [Double] = []
for version in 0..<count {
    let start = now()
    try store.commit(commit("one", version))
    latencies.append(Double(now() - start) / 1_000)
}
let sorted = latencies.sorted()
let p50 = sorted[sorted.count / 2]
let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
print(String(format: "%@ one client: %d commits, p50 %.0f µs, p99 %.0f µs", args[1], count, p50, p99))

// 16 clients on 16 sessions: group commit shares the syncs.
let threads = 16
let perThread = count / threads
let before = store.statistics
let done = DispatchGroup()
let start = now()
let shared = store
for t in 0..<threads {
    done.enter()
    Thread {
        for version in 0..<perThread { try? shared.commit(commit("t\(t)", version)) }
        done.leave()
    }.start()
}
done.wait()
let seconds = Double(now() - start) / 1e9
let after = store.statistics
let commits = after.commits - before.commits
let batches = after.batches - before.batches
print(
    String(
        format: "%@ 16 clients: %d commits in %.2f s, %.0f commits/s, %.1f commits per transaction",
        args[1], commits, seconds, Double(commits) / seconds, Double(commits) / Double(max(batches, 1))))

if args[1] == "postgres" {
    try PostgreSQL.Connection(url: args[2]).execute("DROP SCHEMA \(PostgreSQL.Connection.quoteIdentifier(schema)) CASCADE")
}
