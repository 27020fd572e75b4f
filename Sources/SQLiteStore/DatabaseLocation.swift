#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a SQLite database file cannot be opened for writing, said before SQLite tries: SQLite's own
/// answer is `SQLITE_CANTOPEN` ("unable to open database file") for a missing folder, a folder it
/// may not create the file in and a file it may not write alike.
///
/// The checks ask the kernel with `faccessat(2)` and `AT_EACCESS`, for the process's effective
/// user: what they refuse, opening would refuse too. A superuser passes the permission checks
/// (not a read-only file system's), as it would pass opening.
public enum DatabaseLocationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The folder the file is to be in does not exist (or is not a folder).
    case missingFolder(path: String, folder: String)
    /// The file does not exist and the folder does not let this user create it.
    case folderNotWritable(path: String, folder: String, reason: String)
    /// The file exists but this user may not read and write it.
    case fileNotWritable(path: String, reason: String)
    /// The path names a folder.
    case isFolder(path: String)

    public var description: String {
        switch self {
        case .missingFolder(let path, let folder):
            "the folder \(folder) of database \(path) does not exist; create it or choose another path"
        case .folderNotWritable(let path, let folder, let reason):
            "cannot create database \(path): the folder \(folder) is not writable (\(reason))"
        case .fileNotWritable(let path, let reason):
            "database \(path) cannot be written (\(reason))"
        case .isFolder(let path):
            "database \(path) is a folder, not a file"
        }
    }

    /// Throws what stands in the way of opening `path` read-write (creating it if missing), or
    /// nothing when it can be. SQLite also creates `path-wal` and `path-shm` beside the file, so
    /// a folder that does not let this user create them is refused for an existing file too,
    /// unless they exist already and are writable.
    /// A SQLite URI (`file:…?mode=ro`) or `:memory:` is left to SQLite: it is not a path.
    public static func check(_ path: String) throws(DatabaseLocationError) {
        guard !path.hasPrefix("file:"), path != ":memory:", !path.isEmpty else { return }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw .isFolder(path: path) }
            if let reason = refusal(path, R_OK | W_OK) { throw .fileNotWritable(path: path, reason: reason) }
            for companion in [path + "-wal", path + "-shm"] where stat(companion, &info) != 0 {
                if let reason = refusal(folder, W_OK | X_OK) {
                    throw .folderNotWritable(path: companion, folder: folder, reason: reason)
                }
            }
            for companion in [path + "-wal", path + "-shm"] where stat(companion, &info) == 0 {
                if let reason = refusal(companion, R_OK | W_OK) { throw .fileNotWritable(path: companion, reason: reason) }
            }
            return
        }
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .missingFolder(path: path, folder: folder)
        }
        if let reason = refusal(folder, W_OK | X_OK) { throw .folderNotWritable(path: path, folder: folder, reason: reason) }
    }

    /// The kernel's reason this process may not access `path` with `mode`, or nil when it may.
    private static func refusal(_ path: String, _ mode: Int32) -> String? {
        guard faccessat(AT_FDCWD, path, mode, AT_EACCESS) != 0 else { return nil }
        let code = errno
        return switch code {
        case EACCES: "permission denied"
        case EROFS: "read-only file system"
        default: String(cString: strerror(code))
        }
    }
}
