import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The checks and the open that make a file safe to upload.
///
/// Only regular files (or links to them) are uploaded: a FIFO would be sent as an empty body or
/// block a reader forever, a directory cannot be read, a device may never end. The kind is
/// checked before anything is sent, and checked again on the opened descriptor, because the
/// path may name something else by then.
enum UploadableFile {
    /// The size of a readable regular file, or the error that makes the file unusable.
    ///
    /// Does not block: `stat` and `access` never wait on a FIFO's writer.
    static func size(of url: URL) throws -> UInt64 {
        let path = url.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code: CocoaError.Code =
                errno == ENOENT || errno == ENOTDIR ? .fileReadNoSuchFile : .fileReadNoPermission
            throw CocoaError(code, userInfo: [NSFilePathErrorKey: path, NSURLErrorKey: url])
        }
        try requireRegular(info, path: path)
        guard access(path, R_OK) == 0 else {
            throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path, NSURLErrorKey: url])
        }
        return UInt64(info.st_size)
    }

    /// Opens a regular file for reading without ever blocking: a FIFO put in the file's place
    /// since `size(of:)` would otherwise block the opening thread (a thread of NIO's shared
    /// pool) until a writer appears.
    static func openForReading(_ url: URL) throws -> FileHandle {
        let path = url.path
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path, NSURLErrorKey: url])
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path, NSURLErrorKey: url])
        }
        do {
            try requireRegular(info, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    private static func requireRegular(_ info: stat, path: String) throws {
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw MoyaClientError.notARegularFile(path: path, kind: FileKind(mode: kind))
        }
    }
}

/// The kind of a file system entry that is not a regular file.
enum FileKind: String, Sendable, CustomStringConvertible {
    /// A directory.
    case directory
    /// A named pipe.
    case fifo
    /// A Unix domain socket.
    case socket
    /// A character or block device.
    case device
    /// Any other kind.
    case other

    init(mode: mode_t) {
        switch mode {
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR, S_IFBLK: self = .device
        default: self = .other
        }
    }

    /// The kind with its article, as it reads in a sentence: "a directory".
    var description: String {
        switch self {
        case .directory: return "a directory"
        case .fifo: return "a named pipe (FIFO)"
        case .socket: return "a socket"
        case .device: return "a device"
        case .other: return "not a regular file"
        }
    }
}
