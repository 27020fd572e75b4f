import Foundation
import ProcessSpawning
import Synchronization
import Testing

/// `ChildProcess` against /bin/sh: exit statuses, signals, redirections, environment, working
/// directory, and the descriptors a child must not inherit.
struct ChildProcessTests {
    /// A fresh folder, removed at the end of the test.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("navsim-spawn-\(UUID().uuidString)").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func file(_ name: String) -> String { path + "/" + name }
        func read(_ name: String) -> String { (try? String(contentsOfFile: file(name), encoding: .utf8)) ?? "" }
    }

    func sh(
        _ script: String, environment: [String: String]? = nil, in directory: String? = nil,
        output: ChildProcess.Stream = .null
    ) throws -> ChildProcess {
        try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", script], environment: environment,
            workingDirectory: directory, standardOutput: output, standardError: output)
    }

    @Test(arguments: [0, 3, 255])
    func theExitStatusIsReported(status: Int32) throws {
        let child = try sh("exit \(status)")
        #expect(child.wait(timeout: 10) == .exited(status))
        #expect(!child.isRunning)
        #expect(child.termination == .exited(status), "the termination stays once reaped")
    }

    @Test func aSignalledChildReportsItsSignalAndIsNotSignalledAfterItEnded() throws {
        let child = try sh("sleep 30")
        #expect(child.isRunning)
        #expect(child.wait(timeout: 0.05) == nil, "still running")
        #expect(child.signal(SIGTERM))
        #expect(child.wait(timeout: 10) == .signalled(SIGTERM))
        #expect(!child.signal(SIGKILL), "a reaped pid is never signalled")
    }

    /// Someone else reaps the child (here the test's own `waitpid`): `wait()` without a timeout
    /// must come back (`ECHILD`), not poll for ever, and the pid is never signalled afterwards.
    @Test func aChildReapedElsewhereEndsTheWaitInsteadOfHangingIt() throws {
        let child = try sh("exit 7")
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(child.pid, &status, 0) } while reaped == -1 && errno == EINTR
        #expect(reaped == child.pid, "the test reaped the child itself")
        let answered = DispatchSemaphore(value: 0)
        let result = Mutex<ChildProcess.Termination?>(nil)
        Thread.detachNewThread {
            let termination = child.wait()
            result.withLock { $0 = termination }
            answered.signal()
        }
        #expect(answered.wait(timeout: .now() + 10) == .success, "wait() hung on a pid that is no longer a child")
        #expect(result.withLock { $0 } == .reapedElsewhere)
        #expect(!child.isRunning)
        #expect(!child.signal(SIGKILL), "a pid reaped elsewhere may be another process's now")
    }

    @Test func outputAppendsToAFileAndTheEnvironmentAndDirectoryAreTheGivenOnes() throws {
        let folder = try Folder()
        try "first\n".write(toFile: folder.file("out"), atomically: false, encoding: .utf8)
        let child = try sh(
            #"echo "$GREETING"; pwd; echo oops >&2"#, environment: ["GREETING": "hello"],
            in: folder.path, output: .appending(toFile: folder.file("out")))
        #expect(child.wait(timeout: 10) == .exited(0))
        let resolved = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path
        #expect(folder.read("out") == "first\nhello\n\(resolved)\noops\n")
    }

    @Test func withoutAnEnvironmentTheParentsIsPassed() throws {
        let folder = try Folder()
        let child = try sh(#"printf %s "$PATH""#, output: .appending(toFile: folder.file("out")))
        #expect(child.wait(timeout: 10) == .exited(0))
        #expect(folder.read("out") == ProcessInfo.processInfo.environment["PATH"])
    }

    /// A descriptor the parent opened without close-on-exec stays out of the child; 0–2 are there.
    @Test func theChildHasOnlyItsStandardDescriptors() throws {
        let folder = try Folder()
        let leaky = open(folder.file("held"), O_WRONLY | O_CREAT, 0o644)  // no O_CLOEXEC
        #expect(leaky > 2)
        defer { close(leaky) }
        // `ls` lists its own directory descriptor too; the shell's are 0, 1, 2.
        let child = try sh(
            "ls /proc/self/fd > \(folder.file("fds")); [ -e /proc/self/fd/\(leaky) ] && echo leaked",
            output: .appending(toFile: folder.file("out")))
        #expect(child.wait(timeout: 10) == .exited(1), "the test for fd \(leaky) fails: it is closed")
        #expect(folder.read("out") == "")
        let fds = folder.read("fds").split(separator: "\n").compactMap { Int32($0) }
        #expect(fds.filter { $0 <= 2 } == [0, 1, 2])
        #expect(fds.count == 4, "0, 1, 2 and ls's own: \(fds)")
    }

    @Test func aDescriptorCanBeHandedOverAndStandardInputIsNullByDefault() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "cat; echo done"],
            standardOutput: .descriptor(ends[1]))
        close(ends[1])  // the parent's copy: the pipe ends when the child's does
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = read(ends[0], &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        close(ends[0])
        #expect(child.wait(timeout: 10) == .exited(0))
        #expect(String(decoding: bytes, as: UTF8.self) == "done\n", "cat read /dev/null: nothing")
    }

    @Test func aMissingProgramThrowsAndLeavesNoChild() {
        #expect(throws: ChildProcess.SpawnError.self) {
            _ = try ChildProcess(executable: "/nonexistent/navsim-no-such-program", arguments: [])
        }
        do {
            _ = try ChildProcess(executable: "/nonexistent/navsim-no-such-program", arguments: [])
        } catch {
            #expect(error.errno == ENOENT)
            #expect(error.description.contains("/nonexistent/navsim-no-such-program"))
        }
    }

    /// The child starts with every signal at its default and none blocked, even when the parent
    /// ignores SIGPIPE (as navsim does) and blocks SIGUSR1: the kernel's view of the child says so.
    @Test func ignoredAndBlockedSignalsAreNotPassedOn() throws {
        let folder = try Folder()
        let previous = Glibc.signal(SIGPIPE, SIG_IGN)
        defer { Glibc.signal(SIGPIPE, previous) }
        var block = sigset_t(), old = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGUSR1)
        pthread_sigmask(SIG_BLOCK, &block, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        let child = try ChildProcess(
            executable: "/bin/grep", arguments: ["-E", "^Sig(Ign|Blk)", "/proc/self/status"],
            standardOutput: .appending(toFile: folder.file("out")))
        #expect(child.wait(timeout: 10) == .exited(0))
        // Masks in hex, bit n-1 for signal n. Signals 32 and 33 are glibc's own (thread
        // cancellation, set*id), which posix_spawn leaves alone; 1–31 must all be clear.
        let masks = Dictionary(
            uniqueKeysWithValues: folder.read("out").split(separator: "\n").compactMap { line -> (String, UInt64)? in
                let parts = line.split(separator: "\t")
                guard parts.count == 2, let mask = UInt64(parts[1], radix: 16) else { return nil }
                return (String(parts[0]), mask)
            })
        #expect(masks["SigBlk:"] == 0)
        #expect(masks["SigIgn:"].map { $0 & 0x7fff_ffff } == 0, "SIGPIPE is bit \(SIGPIPE - 1): \(masks)")
    }

    /// Nothing in the package goes back to Foundation's `Process` (see `ChildProcess`'s doc
    /// comment for the crash it can cause).
    @Test func noSourceUsesFoundationsProcess() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        // `Process()`, or a declaration of that type (`: Process`); not `ChildProcess`, not prose.
        let use = try NSRegularExpression(pattern: #"(?<![A-Za-z])Process\(\)|:\s*Process\b(?![.:])"#)
        var offenders: [String] = [], scanned = 0
        for folder in ["Sources", "Tests"] {
            let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let file = files?.nextObject() as? String {
                guard file.hasSuffix(".swift"), !file.hasSuffix("ChildProcessTests.swift") else { continue }
                let text = try String(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(file), encoding: .utf8)
                scanned += 1
                if use.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { offenders.append("\(folder)/\(file)") }
            }
        }
        #expect(offenders.isEmpty, "use ChildProcess: \(offenders)")
        #expect(scanned > 100, "the walk found the package's sources")
    }
}
