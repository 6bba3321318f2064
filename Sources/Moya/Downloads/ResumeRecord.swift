import Foundation

/// What a resumable download keeps beside its partial file, so that a later run (in this
/// process or another) can ask for the rest: which resource the bytes are of, the validator
/// that proves they are still its bytes, and how many of them were safely written.
///
/// Stored as a small JSON file (the sidecar), written when the transfer's head arrives and
/// again when it stops.
struct ResumeRecord: Codable, Equatable, Sendable {
    /// The sidecar's format, so that a later version can tell an old record from a new one.
    static let currentVersion = 1

    var version = Self.currentVersion
    /// The URL the bytes were downloaded from: a record of another URL is not used.
    var url: String
    /// A strong `ETag`, or else the `Last-Modified` date, sent back as `If-Range`.
    var validator: String
    /// The length of the whole resource, when the server said it.
    var completeLength: Int64?
    /// How many bytes of the partial file were written when the transfer stopped; `nil` while
    /// a transfer writes (a process that died then leaves the file's own length to trust).
    var bytesWritten: Int64?

    /// How many bytes of a partial file `fileSize` long can be kept: those the record says were
    /// written (a longer file holds bytes written after the record, by a process that died,
    /// which nothing vouches for); none when the file is shorter than that (it was cut or
    /// replaced behind the record's back) or missing.
    func usableBytes(fileSize: Int64?) -> Int64 {
        guard let fileSize else { return 0 }
        guard let bytesWritten else { return fileSize }
        return fileSize < bytesWritten ? 0 : bytesWritten
    }

    /// The validator a response carries for `If-Range` (RFC 9110, section 13.1.5): its `ETag`
    /// when strong, else its `Last-Modified`; `nil` when it has neither, and a download of it
    /// cannot be resumed safely.
    static func validator(etag: String?, lastModified: String?) -> String? {
        if let etag, !etag.isEmpty, !etag.hasPrefix("W/") {
            return etag
        }
        if let lastModified, !lastModified.isEmpty {
            return lastModified
        }
        return nil
    }

    /// The record stored at `url`; `nil` when there is none or it cannot be read (a download
    /// then starts from zero, which is always safe).
    static func load(from url: URL) -> ResumeRecord? {
        guard let data = try? Data(contentsOf: url),
            let record = try? JSONDecoder().decode(ResumeRecord.self, from: data),
            record.version == currentVersion
        else { return nil }
        return record
    }

    /// Writes the record to `url`, replacing the previous one atomically.
    func save(to url: URL) throws {
        try JSONEncoder().encode(self).write(to: url, options: .atomic)
    }
}
