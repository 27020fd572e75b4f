import Flows
import Foundation

/// `navsim record --base URL SESSION`: writes on stdout a flow that replays the session's history
/// (docs/flows.md "Recording"). Exits 1 when the session cannot be read, 2 on a usage error.
enum RecordCommand {
    static let usage = "navsim record --base URL [--token TOKEN] SESSION > flow.json"

    static let flags: [Flags.Flag] = [
        .init(name: "base", env: nil, defaultValue: nil, help: "the navsim server that holds the session"),
        .init(name: "token", env: "NAVSIM_TOKEN", defaultValue: nil, help: "send Authorization: Bearer TOKEN"),
    ]

    static func run(_ args: [String]) -> Never {
        let flags = Flags(command: "record", usage: usage, flags, args: args)
        guard let base = flags["base"] else { fail("record: --base URL is required; see navsim record --help") }
        guard base.hasPrefix("http://") else { fail("record: --base is an http:// URL (plain HTTP only), got \(base)") }
        guard flags.positional.count == 1 else { fail("record: name exactly one session id") }
        do {
            let flow = try Recorder(token: flags["token"]).record(session: flags.positional[0], on: HTTPTarget(base: base))
            print(PrettyJSON.text(flow))
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("navsim: record: \(error.message)\n".utf8))
            exit(1)
        }
    }
}
