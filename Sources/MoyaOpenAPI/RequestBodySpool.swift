#if OpenAPI
import Foundation
import Moya
import NIOPosix
import OpenAPIRuntime

/// Gathers a generated client's request body into something a Moya `Task` can send.
///
/// Moya sends a body from memory (`.requestData`) or from a file (`.uploadFile`), and sends it
/// again whole for each retry; the runtime gives an `HTTPBody`, an async sequence that may be
/// read once and whose length may be unknown (a multipart body always is). So the body is read
/// once, into memory up to `memoryLimit` bytes, and past that into a temporary file, which is
/// removed when the last reference to it goes (see `SpooledFile`). Memory stays bounded
/// whatever the body's size; a body larger than the limit costs a pass through the disk.
struct RequestBodySpool: Sendable {
    /// A gathered body.
    enum Body: Sendable {
        /// The whole body, in memory.
        case data(Data)
        /// The whole body, in a temporary file.
        case file(SpooledFile)
    }

    /// The most bytes kept in memory.
    let memoryLimit: Int

    /// Where spooled bodies go.
    let directory: URL

    /// Reads `body` to its end.
    ///
    /// - Throws: What reading the body throws, `CancellationError` when the task is cancelled,
    ///   or the file system's error when the spool file cannot be written.
    func gather(_ body: HTTPBody) async throws -> Body {
        if case .known(let length) = body.length, length > memoryLimit {
            return .file(try await spool(prefix: Data(), rest: body.makeAsyncIterator()))
        }
        var data = Data()
        var iterator = body.makeAsyncIterator()
        while let chunk = try await iterator.next() {
            try _Concurrency.Task.checkCancellation()
            guard data.count + chunk.count <= memoryLimit else {
                data.append(contentsOf: chunk)
                return .file(try await spool(prefix: data, rest: iterator))
            }
            data.append(contentsOf: chunk)
        }
        return .data(data)
    }

    /// Writes `prefix`, then the rest of the body, to a new temporary file. Writes run on NIO's
    /// blocking thread pool, one chunk at a time, so no thread of Swift's cooperative pool blocks
    /// on the disk and at most one chunk is held beyond `prefix`.
    private func spool(prefix: Data, rest: HTTPBody.Iterator) async throws -> SpooledFile {
        let file = try await NIOThreadPool.singleton.runIfActive { [directory] in
            try SpooledFile(directory: directory)
        }
        var iterator = rest
        if !prefix.isEmpty {
            try await file.write(prefix)
        }
        while let chunk = try await iterator.next() {
            try _Concurrency.Task.checkCancellation()
            try await file.write(Data(chunk))
        }
        try await file.close()
        return file
    }
}
#endif
