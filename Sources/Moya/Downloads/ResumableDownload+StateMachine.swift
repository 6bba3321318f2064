import Foundation

extension ResumableDownload {
    /// The rules of one resumable download, apart from any I/O so that they can be tested alone:
    /// what to ask for, what a response's head means for the partial file, and what to keep
    /// when the transfer stops.
    ///
    /// A download asks for the bytes after those it keeps (`Range` with `If-Range`, so that a
    /// changed resource comes back whole), and each head decides: a `206` for exactly those
    /// bytes is appended; a whole `2xx` replaces the partial file; a `416` for a file already
    /// complete completes it. Anything that does not add up (a range starting elsewhere, another
    /// validator) starts again from zero, once per attempt, so that a confused server cannot
    /// make the download loop.
    struct StateMachine: Sendable {
        /// What a response's head means.
        enum HeadDecision: Equatable, Sendable {
            /// Keep this many bytes of the partial file, and append the body after them.
            case write(keeping: Int64)
            /// The partial file holds the whole resource: move it into place.
            case complete
            /// Ask again for the whole resource (`headers` says how).
            case startAgain
            /// Fail with the response's status; the partial file stays for a later run.
            case refuse
        }

        /// How a body that arrived whole compares with what its head announced.
        enum EndDecision: Equatable, Sendable {
            case complete
            /// Fewer bytes than announced: the transfer was cut.
            case short
            /// More bytes than announced: the server is not to be trusted with this file.
            case long
        }

        /// The URL downloaded, which a record must name to be used.
        let url: String
        /// What the sidecar holds: `nil` while the bytes cannot be resumed (no validator).
        private(set) var record: ResumeRecord?
        /// How many bytes of the partial file are kept (and, while writing, written).
        private(set) var bytesKept: Int64
        /// How long the file is once the body ends, when the head said so.
        private(set) var expectedLength: Int64?
        /// Whether this attempt already started again, so that it does not twice.
        private var startedAgain = false

        /// The download of `url`, given the sidecar found (if any) and the partial file's size.
        init(url: String, record: ResumeRecord?, fileSize: Int64?) {
            self.url = url
            let kept = record.flatMap { $0.url == url ? $0.usableBytes(fileSize: fileSize) : nil } ?? 0
            self.record = kept > 0 ? record : nil
            self.bytesKept = kept
        }

        /// The headers that ask for what is missing: none when nothing is kept.
        var headers: [String: String] {
            guard bytesKept > 0, let record else { return [:] }
            return ["Range": "bytes=\(bytesKept)-", "If-Range": record.validator]
        }

        /// Whether the next request asks for a range.
        var resumes: Bool { !headers.isEmpty }

        /// A new attempt after a failed one: it may start again once more.
        mutating func nextAttempt() {
            startedAgain = false
        }

        /// Decides what a response's head means.
        mutating func received(
            status: Int,
            contentRange: String?,
            etag: String?,
            lastModified: String?,
            contentLength: Int64?
        ) -> HeadDecision {
            let validator = ResumeRecord.validator(etag: etag, lastModified: lastModified)
            switch status {
            case 206:
                return receivedRange(contentRange.flatMap(ContentRange.init), validator: validator)
            case 416 where resumes:
                // Nothing after the bytes kept: complete when they are the whole resource.
                if let complete = record?.completeLength, complete == bytesKept {
                    return .complete
                }
                return startAgain()
            case 200..<300:
                // The whole resource: the resource changed, or the server ignores ranges.
                bytesKept = 0
                expectedLength = contentLength
                record = validator.map {
                    ResumeRecord(url: url, validator: $0, completeLength: contentLength, bytesWritten: nil)
                }
                return .write(keeping: 0)
            default:
                return .refuse
            }
        }

        private mutating func receivedRange(_ range: ContentRange?, validator: String?) -> HeadDecision {
            guard let range else { return startAgain() }
            guard resumes, let record else {
                // A range nobody asked for: usable only when it is the whole start.
                guard range.first == 0, let validator else { return .refuse }
                expectedLength = range.last + 1
                self.record = ResumeRecord(
                    url: url,
                    validator: validator,
                    completeLength: range.completeLength,
                    bytesWritten: nil
                )
                return .write(keeping: 0)
            }
            let sameResource = validator == nil || validator == record.validator
            let sameLength =
                range.completeLength == nil || record.completeLength == nil
                || range.completeLength == record.completeLength
            guard range.first == bytesKept, sameResource, sameLength else { return startAgain() }
            self.record?.completeLength = range.completeLength ?? record.completeLength
            self.record?.bytesWritten = nil
            expectedLength = range.last + 1
            return .write(keeping: bytesKept)
        }

        private mutating func startAgain() -> HeadDecision {
            guard !startedAgain else { return .refuse }
            startedAgain = true
            bytesKept = 0
            record = nil
            expectedLength = nil
            return .startAgain
        }

        /// The partial file now holds `length` bytes.
        mutating func wrote(length: Int64) {
            bytesKept = length
        }

        /// What the sidecar should say while the body is written: the validator, and no count
        /// yet (see `ResumeRecord.bytesWritten`).
        var recordWhileWriting: ResumeRecord? {
            record
        }

        /// What the sidecar should say once the transfer stopped before the end.
        var recordWhenStopped: ResumeRecord? {
            guard var record, bytesKept > 0 else { return nil }
            record.bytesWritten = bytesKept
            return record
        }

        /// How the body that ended compares with its head.
        var ended: EndDecision {
            guard let expectedLength else { return .complete }
            if bytesKept < expectedLength { return .short }
            if bytesKept > expectedLength { return .long }
            return .complete
        }
    }
}
