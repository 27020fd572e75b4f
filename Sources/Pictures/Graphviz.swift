import Foundation
import ProcessSpawning
import Synchronization

/// Renders DOT to SVG with Graphviz's `dot` program, run as a subprocess (docs/pictures.md).
///
/// `dot` is looked for on `PATH` when a request could use it, and only a path found is kept (and
/// checked again before each use), so installing Graphviz on a running server makes SVG
/// available at once, with no restart; without it SVG is not offered and the routes answer 406
/// naming the Debian package (`apt-get install graphviz`). Each run is bounded: the DOT input by
/// ``maxInputBytes``, the wall time by ``timeout`` (the process is killed past it), and the SVG
/// by ``maxOutputBytes``.
public struct Graphviz: Sendable {
    /// Where `dot` is: a path given once, or a search of `PATH`'s folders.
    private let locator: Locator
    /// Longest a run may take, in seconds.
    public var timeout: Double = 10
    /// Largest DOT text passed to `dot`, in bytes.
    public var maxInputBytes = 4 << 20
    /// Largest SVG accepted back, in bytes.
    public var maxOutputBytes = 32 << 20

    /// What a failed run reports.
    public enum Failure: Error, Equatable {
        /// No `dot` executable was found.
        case notInstalled
        /// The DOT text is larger than the bound, in bytes (``maxInputBytes``).
        case inputTooLarge(Int)
        /// `dot` ran longer than the bound, in seconds (``timeout``), and was killed.
        case timedOut(Double)
        /// The SVG is larger than the bound, in bytes (``maxOutputBytes``).
        case outputTooLarge(Int)
        /// `dot` could not be started (status -1) or exited otherwise than 0 (its status, or
        /// 128 plus the signal), with the first line it wrote to standard error.
        case failed(status: Int32, message: String)
    }

    /// A renderer that runs `executable`, or none when it is nil.
    public init(executable: String?) { locator = Locator(fixed: executable) }

    /// `dot` from `$NAVSIM_DOT` when set (empty: none, for tests of the 406), else searched for
    /// in `PATH`'s folders (`/usr/bin:/bin` without one) whenever it is needed and not yet found.
    public static let system: Graphviz = {
        let env = ProcessInfo.processInfo.environment
        if let explicit = env["NAVSIM_DOT"] { return Graphviz(executable: explicit.isEmpty ? nil : explicit) }
        let folders = (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        return Graphviz(locator: Locator(searching: folders))
    }()

    private init(locator: Locator) { self.locator = locator }

    /// The `dot` executable, or nil when Graphviz is not installed (now: see ``Locator``).
    public var executable: String? { locator.executable() }

    /// Whether `dot` can be run now (a search of `PATH` when not yet found).
    public var isAvailable: Bool { executable != nil }

    /// Finds `dot`. A search keeps the path it found while that file stays executable, and
    /// searches again otherwise: a miss is never kept, so a `dot` installed later is found by the
    /// next request that wants SVG. A search is a few `access(2)` calls, one per `PATH` folder.
    final class Locator: Sendable {
        private let fixed: String?
        private let folders: [String]?
        private let found = Mutex<String?>(nil)

        init(fixed: String?) {
            self.fixed = fixed
            folders = nil
        }

        init(searching folders: [String]) {
            fixed = nil
            self.folders = folders
        }

        func executable() -> String? {
            guard let folders else { return fixed }
            let fm = FileManager.default
            if let kept = found.withLock({ $0 }), fm.isExecutableFile(atPath: kept) { return kept }
            let path = folders.lazy.map { "\($0.isEmpty ? "." : $0)/dot" }.first { fm.isExecutableFile(atPath: $0) }
            found.withLock { $0 = path }
            return path
        }
    }

    /// Lays out `dot` text as SVG bytes.
    /// - Throws: ``Failure`` when Graphviz is missing, a bound is exceeded, or `dot` fails
    ///   (its exit status and the first line it wrote to standard error).
    public func svg(_ dot: String) throws(Failure) -> [UInt8] {
        guard let executable = locator.executable() else { throw .notInstalled }
        let input = Array(dot.utf8)
        guard input.count <= maxInputBytes else { throw .inputTooLarge(maxInputBytes) }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("navsim-dot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let inURL = dir.appendingPathComponent("in.dot"), outURL = dir.appendingPathComponent("out.svg")
        let errURL = dir.appendingPathComponent("err.txt")
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data(input).write(to: inURL)
        } catch {
            throw .failed(status: -1, message: "temporary files: \(error)")
        }
        // ChildProcess, not Foundation's Process: Process.run() can crash the server on Linux
        // (see ChildProcess's doc comment).
        let process: ChildProcess
        do {
            process = try ChildProcess(
                executable: executable, arguments: ["-Tsvg", "-o", outURL.path, inURL.path],
                standardError: .appending(toFile: errURL.path))
        } catch {
            throw .failed(status: -1, message: error.description)
        }
        guard let termination = process.wait(timeout: timeout) else {
            process.signal(SIGKILL)
            process.wait()
            throw .timedOut(timeout)
        }
        guard termination == .exited(0) else {
            let message = (try? String(contentsOf: errURL, encoding: .utf8))?.split(separator: "\n").first.map(String.init) ?? ""
            let status: Int32 =
                switch termination {
                case .exited(let code): code
                case .signalled(let signal): 128 + signal
                case .reapedElsewhere: -1
                }
            throw .failed(status: status, message: message)
        }
        let size = ((try? FileManager.default.attributesOfItem(atPath: outURL.path))?[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maxOutputBytes else { throw .outputTooLarge(maxOutputBytes) }
        guard let data = try? Data(contentsOf: outURL) else { throw .failed(status: 0, message: "no output") }
        return Array(data)
    }
}

/// Renderings already made, keyed by what they depend on (a session's id, creation time and
/// version; a storyboard's name and the catalogue's upload generation) and the representation.
/// Bounded by entry count and total bytes; the oldest entries go first.
public final class PictureCache: Sendable {
    /// What a rendering depends on.
    public struct Key: Hashable, Sendable {
        /// The resource drawn (`session mail`, `storyboard Main`).
        public var resource: String
        /// What the drawing depends on besides the resource (a version, an upload generation).
        public var version: String
        /// The representation made.
        public var representation: Representation

        /// A key for `representation` of `resource` at `version`.
        public init(resource: String, version: String, representation: Representation) {
            self.resource = resource
            self.version = version
            self.representation = representation
        }
    }

    private struct Contents: Sendable {
        var entries: [Key: [UInt8]] = [:]
        var order: [Key] = []
        var bytes = 0
        var hits = 0
        var misses = 0
    }

    /// Most renderings kept.
    public let maxEntries: Int
    /// Most bytes kept in all; a rendering larger than this is answered, not kept.
    public let maxBytes: Int
    private let contents = Mutex(Contents())

    /// An empty cache holding at most `maxEntries` renderings and `maxBytes` bytes in all.
    public init(maxEntries: Int = 512, maxBytes: Int = 64 << 20) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    /// The cached bytes for `key`, else `make()`'s, stored when they fit. `make` runs outside the
    /// lock (two requests may render the same picture once each; both answers are equal).
    public func value<E: Error>(_ key: Key, _ make: () throws(E) -> [UInt8]) throws(E) -> [UInt8] {
        if let hit = contents.withLock({ c -> [UInt8]? in
            let v = c.entries[key]
            if v != nil { c.hits += 1 } else { c.misses += 1 }
            return v
        }) {
            return hit
        }
        let made = try make()
        guard made.count <= maxBytes else { return made }
        contents.withLock { c in
            guard c.entries[key] == nil else { return }
            c.entries[key] = made
            c.order.append(key)
            c.bytes += made.count
            while c.order.count > maxEntries || c.bytes > maxBytes, !c.order.isEmpty {
                let old = c.order.removeFirst()
                c.bytes -= c.entries.removeValue(forKey: old)?.count ?? 0
            }
        }
        return made
    }

    /// (hits, misses, entries, bytes), for tests and metrics.
    public var statistics: (hits: Int, misses: Int, entries: Int, bytes: Int) {
        contents.withLock { ($0.hits, $0.misses, $0.entries.count, $0.bytes) }
    }
}
