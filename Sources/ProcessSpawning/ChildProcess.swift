#if canImport(Glibc)
public import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif
import Synchronization

/// A program started with `posix_spawn(3)`, in place of Foundation's `Process`.
///
/// Why not `Process`: on Linux, swift-corelibs-foundation's `Process.run()` (Swift 6.3.1 here)
/// copies each `/proc/self/fd` entry's whole 256-byte `d_name` while it looks for the highest
/// open descriptor, and reads past glibc's buffer when an entry sits at the end of a page: an
/// intermittent SIGSEGV in the parent (fixed in swift-corelibs-foundation after 6.3.1). It
/// crashed this project's test run inside `Graphviz.svg`, and the server renders SVG the same
/// way. This type reads no directory.
///
/// The child gets the default disposition for every signal and an empty signal mask (navsim
/// ignores SIGPIPE; `exec` would pass that on), descriptors 0–2 as given, and no other descriptor
/// of the parent (`posix_spawn_file_actions_addclosefrom_np`, glibc ≥ 2.34; where it is missing,
/// only descriptors opened close-on-exec stay out).
///
/// The child is reaped by ``termination`` or ``wait(timeout:)`` (`waitpid` with `WNOHANG`, polled);
/// ``signal(_:)`` never signals a reaped pid, which the system may have given to another process.
public final class ChildProcess: Sendable {
    /// Where one of the child's standard descriptors goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A file, created if missing (mode 0644), written at its end (`O_APPEND`).
        case appending(toFile: String)
        /// A descriptor of the parent, duplicated onto the child's; the parent keeps its own.
        case descriptor(Int32)
    }

    /// How the child ended: its exit status, or the signal that ended it; or, when something
    /// else in the process reaped it first (another `waitpid`, or SIGCHLD set to `SIG_IGN`), that
    /// it ended with a status nobody can read any more (`waitpid` answered `ECHILD`).
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
        case reapedElsewhere
    }

    /// `posix_spawn` failed: `errno` says why (`ENOENT`: no such executable).
    public struct SpawnError: Error, CustomStringConvertible {
        public let executable: String
        public let errno: Int32
        public var description: String { "\(executable) could not be started: \(String(cString: strerror(errno)))" }
    }

    /// The child's process id.
    public let pid: pid_t
    /// `nil` while the child has not been reaped. Reaping and signalling hold this lock.
    private let ended = Mutex<Termination?>(nil)

    /// Starts `executable` (a path; `PATH` is not searched) with `arguments` (not including
    /// argv[0], which is `executable`).
    /// - Parameters:
    ///   - environment: the child's whole environment; `nil` passes the parent's.
    ///   - workingDirectory: where the child starts; `nil` keeps the parent's.
    /// - Throws: ``SpawnError``, when the program cannot be started (no process is left behind);
    ///   `ENOSYS` when a working directory is asked for and glibc has no
    ///   `posix_spawn_file_actions_addchdir_np`.
    public init(
        executable: String, arguments: [String], environment: [String: String]? = nil,
        workingDirectory: String? = nil,
        standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null
    ) throws(SpawnError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, stream) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .appending(let path):
                posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            case .descriptor(let source):
                posix_spawn_file_actions_adddup2(&actions, source, fd)
            }
        }
        if let workingDirectory {
            guard let addChdir = GlibcExtensions.addChdir else { throw SpawnError(executable: executable, errno: ENOSYS) }
            _ = addChdir(&actions, workingDirectory)
        }
        _ = GlibcExtensions.addCloseFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            for p in argv { free(p) }
            for p in envp ?? [] { free(p) }
        }
        var child: pid_t = 0
        let status =
            envp.map { envp in
                posix_spawn(&child, executable, &actions, &attributes, argv, envp)
            } ?? posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard status == 0 else { throw SpawnError(executable: executable, errno: status) }
        pid = child
    }

    /// How the child ended, or `nil` while it runs. Reaps it the first time it has ended.
    public var termination: Termination? {
        ended.withLock { ended in
            if ended == nil { ended = Self.reap(pid) }
            return ended
        }
    }

    /// `true` until the child has ended (and been reaped).
    public var isRunning: Bool { termination == nil }

    /// Waits until the child ends, at most `seconds` (`nil`: without limit); its termination, or
    /// `nil` when the time ran out first. Polls every 1–20 ms. Returns ``Termination/reapedElsewhere``
    /// at once, rather than waiting for ever, when the pid is no longer this process's child.
    @discardableResult
    public func wait(timeout seconds: Double? = nil) -> Termination? {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var pause: UInt32 = 1_000
        while true {
            if let done = termination { return done }
            if let seconds {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let elapsed = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
                if elapsed >= seconds { return nil }
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Sends `signal` to the child if it has not been reaped; `false` when it had already ended.
    @discardableResult
    public func signal(_ signal: Int32) -> Bool {
        ended.withLock { ended in
            if ended == nil { ended = Self.reap(pid) }
            guard ended == nil else { return false }
            return kill(pid, signal) == 0
        }
    }

    /// `waitpid` without blocking: the termination if the child has ended, else `nil`.
    /// `ECHILD` (no such child: reaped by someone else) is an end too, or every wait would poll
    /// for ever.
    private static func reap(_ pid: pid_t) -> Termination? {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, WNOHANG) } while result == -1 && errno == EINTR
        if result == -1 && errno == ECHILD { return .reapedElsewhere }
        guard result == pid else { return nil }
        // <sys/wait.h>'s macros, which Swift does not import.
        let signalNumber = status & 0x7f
        return signalNumber == 0 ? .exited((status >> 8) & 0xff) : .signalled(signalNumber)
    }
}

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29) and `…_addclosefrom_np` (2.34), which
/// Swift's Glibc module does not declare (they need `_GNU_SOURCE`); looked up once by name.
private enum GlibcExtensions {
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
    static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<F>(_ name: String) -> F? {
        // dlopen(NULL) is the program itself and every library it loaded, glibc among them.
        guard let program = dlopen(nil, RTLD_NOW), let address = dlsym(program, name) else { return nil }
        return unsafeBitCast(address, to: F.self)
    }
}
