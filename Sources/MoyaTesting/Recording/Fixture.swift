import Foundation

/// The contents of one fixture file: a request and the response it got, secrets redacted.
///
/// Bodies are stored as text when they are UTF-8, else as base64, so that a reviewer can read
/// most fixtures in a diff.
struct Fixture: Codable, Sendable, Equatable {
    /// The format's version, written so that a later format can still read older files.
    var version = 1
    var request: RecordedRequest
    var response: RecordedResponse

    struct RecordedRequest: Codable, Sendable, Equatable {
        var method: String
        var url: String
        var headers: [String: String]
        var body: String?
        var bodyEncoding: BodyEncoding?
    }

    struct RecordedResponse: Codable, Sendable, Equatable {
        var statusCode: Int
        var headers: [String: String]
        var body: String
        var bodyEncoding: BodyEncoding
        /// Whether the body was downloaded to a file rather than received in memory.
        var isDownload: Bool?
        /// A streamed body as the chunks it arrived in (`stream(_:)`, `events(_:reconnect:)`),
        /// replayed chunk by chunk; `body` holds them joined.
        var chunks: [String]?
        var chunksEncoding: BodyEncoding?
    }

    enum BodyEncoding: String, Codable, Sendable {
        case utf8
        case base64
    }

    /// `data` as fixture text, and how it is encoded.
    static func encode(body data: Data) -> (text: String, encoding: BodyEncoding) {
        if let text = String(data: data, encoding: .utf8) {
            return (text, .utf8)
        }
        return (data.base64EncodedString(), .base64)
    }

    /// Chunks as fixture text: all as text when each is UTF-8 on its own, else all as base64.
    static func encode(chunks: [Data]) -> (texts: [String], encoding: BodyEncoding) {
        let texts = chunks.compactMap { String(data: $0, encoding: .utf8) }
        if texts.count == chunks.count {
            return (texts, .utf8)
        }
        return (chunks.map { $0.base64EncodedString() }, .base64)
    }

    /// The bytes that `text` stands for, or `nil` when base64 text is damaged.
    static func decode(body text: String, encoding: BodyEncoding) -> Data? {
        switch encoding {
        case .utf8:
            return Data(text.utf8)
        case .base64:
            return Data(base64Encoded: text)
        }
    }

    /// The file's bytes: pretty-printed with sorted keys, so that re-recording an unchanged
    /// response changes nothing in version control.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    static func decoded(from data: Data) throws -> Fixture {
        try JSONDecoder().decode(Fixture.self, from: data)
    }
}
