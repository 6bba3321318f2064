#if OpenAPI
import Foundation
import HTTPTypes

/// How `MoyaTransport` receives an operation's response: whole, through the provider's
/// `request(_:)`, or as it arrives, through its `stream(_:)`.
///
/// The two paths share the provider's plugins, interceptors, stubs and session. They differ
/// where a body is needed whole: the session's `HTTPCache` stores and answers buffered
/// responses only (a stream is read once, as it arrives), a `NetworkLoggerPlugin` logs a
/// buffered body, and a `Recorder` replays either.
public enum ResponseDelivery: Sendable, Hashable {
    /// The whole body is received before the generated client sees the response: it can be
    /// cached. Memory holds the whole body, which suits what the client decodes whole anyway.
    case buffered

    /// The generated client receives the head as soon as it arrives and reads the body as the
    /// server sends it, paced by its reading, so memory stays bounded whatever the size.
    case streamed

    /// The default choice: `.buffered` when every media type the request accepts is one the
    /// generated client decodes whole (JSON, XML, plain text, URL-encoded forms), `.streamed`
    /// otherwise (binary content, server-sent events, JSON Lines, any type, or no `Accept`).
    ///
    /// The generated client sets `Accept` from the responses the document declares, so a JSON
    /// operation is buffered, and cached when the session has a cache, while a file download
    /// or an event stream is streamed.
    public static func `default`(for request: HTTPRequest) -> ResponseDelivery {
        let accepted = request.headerFields[values: .accept]
            .flatMap { $0.split(separator: ",") }
            .map(mediaType(of:))
            .filter { !$0.isEmpty }
        guard !accepted.isEmpty, accepted.allSatisfy(isDecodedWhole) else { return .streamed }
        return .buffered
    }

    /// `application/json` of ` application/json; q=0.9`, lower-cased.
    private static func mediaType(of element: Substring) -> String {
        let type = element.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The media types whose bodies a generated client collects before decoding.
    private static func isDecodedWhole(_ type: String) -> Bool {
        switch type {
        case "application/json", "application/xml", "text/xml", "text/plain", "application/x-www-form-urlencoded":
            return true
        default:
            // Structured syntax suffixes (RFC 6838 section 4.2.8): `application/problem+json`.
            return type.hasSuffix("+json") || type.hasSuffix("+xml")
        }
    }
}
#endif
