#if canImport(Glibc)
import Glibc
#endif

/// The process metrics Prometheus client libraries export, under their standard names and
/// meanings: CPU time, resident and virtual memory, open and allowed file descriptors, start
/// time. Read from Linux's `/proc/self/stat`, `/proc/self/fd` and `/proc/stat` at each scrape,
/// and `getrlimit`; a value that cannot be read is left out rather than reported as 0.
enum ProcessMetrics {
    /// Appends the `process_*` families to an exposition.
    static func write(into out: inout String) {
        let stat = Stat.read()
        func gauge(_ name: String, _ type: String, _ help: String, _ value: Double?) {
            guard let value else { return }
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(HistogramFamily.number(value))\n"
        }
        gauge("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", stat?.cpuSeconds)
        gauge("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", stat?.residentBytes)
        gauge("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", stat?.virtualBytes)
        gauge("process_open_fds", "gauge", "Number of open file descriptors.", openFileDescriptors().map(Double.init))
        gauge("process_max_fds", "gauge", "Maximum number of open file descriptors.", maxFileDescriptors().map(Double.init))
        gauge("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", stat?.startTime)
    }

    /// What `/proc/self/stat` says, in the metrics' units.
    struct Stat {
        var cpuSeconds: Double
        var virtualBytes: Double
        var residentBytes: Double
        var startTime: Double?

        /// The fields after the command name, which sits in parentheses and may itself
        /// hold spaces and parentheses, so the split starts after the last `)`. Field 3 (`state`)
        /// is then the first; `utime` 14, `stime` 15 and `starttime` 22 are in clock ticks,
        /// `vsize` 23 in bytes and `rss` 24 in pages.
        static func read() -> Stat? {
            guard let text = readFile("/proc/self/stat"), let close = text.lastIndex(of: ")") else { return nil }
            let fields = text[text.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
            func field(_ n: Int) -> Double? { n - 3 < fields.count ? Double(fields[n - 3]) : nil }
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            let page = Double(sysconf(Int32(_SC_PAGESIZE)))
            guard ticks > 0, page > 0, let utime = field(14), let stime = field(15), let vsize = field(23),
                let rss = field(24)
            else { return nil }
            // `starttime` counts from boot; `btime` in /proc/stat is the boot in seconds since 1970.
            let start = field(22).flatMap { started in bootTime().map { $0 + started / ticks } }
            return Stat(
                cpuSeconds: (utime + stime) / ticks, virtualBytes: vsize, residentBytes: rss * page,
                startTime: start)
        }

        /// `btime` of `/proc/stat`.
        static func bootTime() -> Double? {
            guard let text = readFile("/proc/stat") else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
                return Double(line.dropFirst(6).trimmingPrefix(" "))
            }
            return nil
        }
    }

    /// The entries of `/proc/self/fd`, the descriptor reading the folder among them.
    static func openFileDescriptors() -> Int? {
        guard let dir = opendir("/proc/self/fd") else { return nil }
        defer { closedir(dir) }
        var count = 0
        // The name is read in place: `entry.pointee` would copy a whole `struct dirent`, and the
        // kernel's record is shorter than that, so the copy can run past the end of readdir's
        // buffer (a crash in memcpy when the record is the buffer's last).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(dir) {
            let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            if strcmp(name, ".") == 0 || strcmp(name, "..") == 0 { continue }
            count += 1
        }
        return count
    }

    /// The soft limit on open files (`RLIMIT_NOFILE`, "Max open files" in `/proc/self/limits`):
    /// the one `open` and `accept` fail at. Unlimited (`RLIM_INFINITY`, all ones) is left out.
    static func maxFileDescriptors() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return limit.rlim_cur == rlim_t.max ? nil : Int(clamping: limit.rlim_cur)
    }

    /// A small procfs file whole (its size reads as 0, so read until the end), or nil.
    static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
