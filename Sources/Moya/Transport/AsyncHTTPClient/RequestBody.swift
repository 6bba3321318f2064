import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// A request body as a list of pieces, sent one after another with a length known up front.
///
/// Files and streams are read in chunks while they are sent, so an upload never holds more
/// than a chunk of them in memory.
struct RequestBody: Sendable {
    enum Segment: Sendable {
        case bytes(Data)
        case file(URL, length: UInt64)
        /// - Note: the reader is used only by this body (see `SequentialReader`).
        case stream(SequentialReader, length: UInt64)
    }

    /// How much of a file or stream is read at a time: large enough that the trips to the
    /// thread pool cost little, small enough to keep an upload's memory flat.
    static let chunkSize = 1 << 20

    var segments: [Segment]

    var length: UInt64 {
        segments.reduce(0) { total, segment in
            switch segment {
            case .bytes(let data): return total + UInt64(data.count)
            case .file(_, let length), .stream(_, let length): return total + length
            }
        }
    }

    /// The AsyncHTTPClient body that streams the segments.
    ///
    /// File and stream chunks are read on the thread pool and chained on one loop for the whole
    /// body: the connection's own, which calls the closure. The response can then never
    /// overtake the body's last write, which would cancel the request with
    /// `requestStreamCancelled` when a server answers as soon as it has read the body.
    func makeClientBody() -> HTTPClient.Body {
        if segments.count == 1, case .bytes(let data) = segments[0] {
            return .bytes(data)
        }
        let segments = self.segments
        return .stream(contentLength: Int64(length)) { writer in
            let loop = MultiThreadedEventLoopGroup.currentEventLoop ?? BlockingIO.eventLoop
            return Self.write(segments[...], to: writer, on: loop)
        }
    }

    private static func write(
        _ segments: ArraySlice<Segment>,
        to writer: HTTPClient.Body.StreamWriter,
        on loop: EventLoop
    ) -> EventLoopFuture<Void> {
        guard let segment = segments.first else {
            return loop.makeSucceededVoidFuture()
        }
        let rest = segments.dropFirst()
        let written: EventLoopFuture<Void>
        switch segment {
        case .bytes(let data):
            written = writer.write(.byteBuffer(ByteBuffer(bytes: data)))
        case let .file(url, length):
            written = writeFile(url, length: length, to: writer, on: loop)
        case let .stream(reader, length):
            written = writeChunks(from: reader, remaining: length, to: writer, on: loop).always { _ in reader.close() }
        }
        return written.flatMap { write(rest, to: writer, on: loop) }
    }

    private static func writeFile(
        _ url: URL,
        length: UInt64,
        to writer: HTTPClient.Body.StreamWriter,
        on loop: EventLoop
    ) -> EventLoopFuture<Void> {
        BlockingIO.run(on: loop) {
            SequentialReader(source: .file(try UploadableFile.openForReading(url)))
        }
        .flatMap { reader in
            writeChunks(from: reader, remaining: length, to: writer, on: loop).always { _ in reader.close() }
        }
    }

    private static func writeChunks(
        from reader: SequentialReader,
        remaining: UInt64,
        to writer: HTTPClient.Body.StreamWriter,
        on loop: EventLoop
    ) -> EventLoopFuture<Void> {
        guard remaining > 0 else { return loop.makeSucceededVoidFuture() }
        let count = Int(min(UInt64(chunkSize), remaining))
        return BlockingIO.run(on: loop) { try reader.read(upTo: count) }.flatMap { chunk in
            guard !chunk.isEmpty else {
                return loop.makeFailedFuture(MoyaClientError.uploadShorterThanAnnounced(missing: remaining))
            }
            return writer.write(.byteBuffer(ByteBuffer(bytes: chunk))).flatMap {
                writeChunks(from: reader, remaining: remaining - UInt64(chunk.count), to: writer, on: loop)
            }
        }
    }
}
