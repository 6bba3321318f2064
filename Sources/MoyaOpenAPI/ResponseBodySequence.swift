#if OpenAPI
import Foundation
import Moya
import OpenAPIRuntime

/// A streamed response's chunks as the runtime's byte chunks.
///
/// Reading stays paced by the reader (each `next()` asks `ResponseChunks` for one chunk), so
/// the generated client's reading sets the pace of the transfer. The sequence also keeps the
/// operation, and with it a spooled request body, for as long as the body may be read.
struct ResponseBodySequence: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    let chunks: ResponseChunks

    /// Held, never read: see the type's discussion.
    let operation: OpenAPIOperation

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator(), operation: operation)
    }

    /// Reads one chunk at a time.
    struct Iterator: AsyncIteratorProtocol {
        var chunks: ResponseChunks.AsyncIterator
        let operation: OpenAPIOperation

        /// The next chunk, copied into the runtime's chunk type.
        ///
        /// - Throws: `MoyaError`, as `ResponseChunks` throws it: the transfer's failure, or the
        ///   cancelled error.
        mutating func next() async throws(MoyaError) -> Element? {
            guard let chunk = try await chunks.next() else { return nil }
            return HTTPBody.ByteChunk(chunk)
        }
    }
}
#endif
