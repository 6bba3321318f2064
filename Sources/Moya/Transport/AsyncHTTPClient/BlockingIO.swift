import Foundation
import NIOCore
import NIOPosix

/// Runs blocking file work on NIO's shared thread pool, so event loops never block, and hands
/// the result back as a future on the given loop.
enum BlockingIO {
    /// A loop for chaining blocking work that belongs to no channel: the current one when
    /// called on a loop of the shared group.
    static var eventLoop: EventLoop {
        MultiThreadedEventLoopGroup.singleton.any()
    }

    static func run<T: Sendable>(
        on eventLoop: EventLoop,
        _ work: @escaping @Sendable () throws -> T
    ) -> EventLoopFuture<T> {
        NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop, work)
    }
}

/// A file handle or stream used by one body at a time.
///
/// - Note: `@unchecked Sendable` because `FileHandle` and `InputStream` are not annotated. Each
///   instance belongs to one request body, whose chunks are read strictly one after another
///   (each read starts when the previous write completed), so it is never used concurrently.
struct SequentialReader: @unchecked Sendable {
    enum Source {
        case file(FileHandle)
        case stream(InputStream)
    }

    let source: Source

    /// Reads up to `count` bytes; an empty result means the end.
    func read(upTo count: Int) throws -> Data {
        switch source {
        case .file(let handle):
            return try handle.read(upToCount: count) ?? Data()
        case .stream(let stream):
            if stream.streamStatus == .notOpen {
                stream.open()
            }
            var buffer = [UInt8](repeating: 0, count: count)
            let read = stream.read(&buffer, maxLength: count)
            if read < 0 {
                throw stream.streamError ?? CocoaError(.fileReadUnknown)
            }
            return Data(buffer[0..<read])
        }
    }

    func close() {
        switch source {
        case .file(let handle):
            try? handle.close()
        case .stream(let stream):
            stream.close()
        }
    }
}
