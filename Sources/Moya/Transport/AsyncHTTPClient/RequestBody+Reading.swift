import Foundation

extension RequestBody {
    /// Reads every segment in order on the calling thread, a chunk at a time: how a body is
    /// written whole to memory or to a file (a multipart body's `Data`, URLSession's spooled
    /// upload), where AsyncHTTPClient streams it (`makeClientBody`).
    func readAll(_ consume: (Data) throws -> Void) throws {
        for segment in segments {
            switch segment {
            case .bytes(let data):
                try consume(data)
            case let .file(url, length):
                let reader = SequentialReader(source: .file(try UploadableFile.openForReading(url)))
                defer { reader.close() }
                try Self.read(length, from: reader, into: consume)
            case let .stream(reader, length):
                defer { reader.close() }
                try Self.read(length, from: reader, into: consume)
            }
        }
    }

    private static func read(
        _ length: UInt64,
        from reader: SequentialReader,
        into consume: (Data) throws -> Void
    ) throws {
        var remaining = length
        while remaining > 0 {
            let chunk = try reader.read(upTo: Int(min(UInt64(chunkSize), remaining)))
            guard !chunk.isEmpty else {
                throw MoyaClientError.uploadShorterThanAnnounced(missing: remaining)
            }
            try consume(chunk)
            remaining -= UInt64(chunk.count)
        }
    }
}
