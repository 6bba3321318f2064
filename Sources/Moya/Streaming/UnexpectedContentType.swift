import Foundation

extension EventStream {
    /// A response to an event stream request that is not a `text/event-stream`: the stream
    /// fails with it, wrapped in `MoyaError.underlying` with the response's head, and never
    /// reconnects (as the WHATWG standard's `EventSource` does).
    ///
    /// A server that negotiates the type answers this way when the request's `Accept` asked for
    /// something else; `MoyaProvider.events(_:reconnect:)` always asks for
    /// `text/event-stream`. A response with no `Content-Type` at all (a stub, a bare server) is
    /// read as an event stream.
    public struct UnexpectedContentType: Error, LocalizedError, CustomStringConvertible {
        /// The `Content-Type` the response named.
        public let contentType: String

        /// Says what arrived and what was expected.
        public var description: String {
            "The server answered the event stream request with Content-Type \"\(contentType)\", "
                + "not \"text/event-stream\"; the stream ends without reconnecting."
        }

        /// The same text as `description`.
        public var errorDescription: String? { description }

        /// The error for `response`, or `nil` when its type is an event stream or not named.
        static func refusing(_ response: StreamedResponse) -> UnexpectedContentType? {
            guard let contentType = response.response?.value(forHTTPHeaderField: "Content-Type") else {
                return nil
            }
            let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
            let isEventStream =
                mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
            return isEventStream ? nil : UnexpectedContentType(contentType: contentType)
        }
    }
}
