import Foundation

extension EventStream {
    /// The failure for a response to an event stream request that is not a
    /// `text/event-stream` (`MoyaClientError` `unexpectedContentType`), or `nil` when its type
    /// is an event stream or not named. The stream fails with it, wrapped in
    /// `MoyaError.underlying` with the response's head, and never reconnects (as the WHATWG
    /// standard's `EventSource` does).
    ///
    /// A server that negotiates the type answers this way when the request's `Accept` asked for
    /// something else; `MoyaProvider.events(_:reconnect:)` always asks for
    /// `text/event-stream`. A response with no `Content-Type` at all (a stub, a bare server) is
    /// read as an event stream.
    static func refusal(of response: StreamedResponse) -> MoyaClientError? {
        guard let contentType = response.response?.value(forHTTPHeaderField: "Content-Type") else {
            return nil
        }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        let isEventStream = mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
        return isEventStream ? nil : .unexpectedContentType(contentType)
    }
}
