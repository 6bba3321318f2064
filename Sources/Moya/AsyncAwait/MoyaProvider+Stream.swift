import Foundation

extension MoyaProvider {
    /// Sends a request and returns its response as soon as the head has arrived; the body
    /// follows in chunks, as the server sends it.
    ///
    /// The request goes through the provider's whole pipeline: the `requestClosure`, plugins'
    /// `prepare` and `willSend`, the interceptors, and the target's `validationType`, applied to
    /// the head before any chunk is read (a refused status throws, as for `request(_:)`, with
    /// a `Response` carrying up to 64 KiB of the body). Plugins receive `didReceive` once, when
    /// the stream ends for its reader: a `Response` with the head and an empty body once the
    /// reader reached the end of a complete body, the error it met otherwise, or the cancelled
    /// error when it left before the transfer ended. A `StreamPluginType` also sees each chunk.
    ///
    /// The body is paced by its reader, so memory stays bounded. The idle timeout (the
    /// session's `readTimeout`, or the request's `timeoutInterval`) applies between chunks
    /// while the reader waits; the whole-request timeout applies when the session sets one.
    /// Cancelling the task, leaving the loop, or dropping the response ends the request at once.
    /// A stubbed request plays the endpoint's `sampleStreamClosure`, else its sample data.
    ///
    /// ```swift
    /// let streamed = try await provider.stream(.logs)
    /// for try await chunk in streamed.chunks {
    ///     handle(chunk)
    /// }
    /// ```
    ///
    /// - Throws: `MoyaError`, for failures before the head is handed over.
    nonisolated(nonsending)
        public func stream(_ target: Target) async throws(MoyaError) -> StreamedResponse
    {
        try await streamRequest(for: target).lifecycle(adding: [:]).openStream()
    }

    /// The server-sent events of a `text/event-stream` response, parsed as the WHATWG HTML
    /// standard defines them.
    ///
    /// The request is sent when the loop starts, through the same pipeline as `stream(_:)`.
    /// It always asks for `Accept: text/event-stream`, replacing the target's own `Accept`
    /// (a target that asks for JSON in every case still gets events; a plugin's `prepare` or
    /// an adapter can still change it), and adds `Cache-Control: no-cache` and
    /// `Last-Event-ID` unless the request sets them. Each connection is one request to
    /// plugins (`willSend`, then `didReceive` when it ends).
    ///
    /// A response whose `Content-Type` is not `text/event-stream` ends the loop with
    /// `MoyaClientError` `unexpectedContentType` (in `MoyaError.underlying`), without reconnecting.
    ///
    /// ```swift
    /// // Up to 3 reconnections in a row, 3 s, 6 s and 12 s apart unless the server sets `retry`.
    /// for try await event in provider.events(.notifications, reconnect: .attempts(3)) {
    ///     print(event.event, event.data)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The target to request.
    ///   - reconnect: Whether to reconnect when the connection ends or breaks, with the last
    ///     event ID; `.never` by default.
    ///   - maximumEventSize: The largest event to accept, in bytes; a larger one ends the
    ///     stream with `MoyaClientError` `eventTooLarge`.
    public func events(
        _ target: Target,
        reconnect: EventStreamReconnectPolicy = .never,
        maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize
    ) -> EventStream {
        // Worked out once: each connection is a new run of the same request.
        let request = streamRequest(for: target)
        return EventStream(policy: reconnect, maximumEventSize: maximumEventSize) { lastEventID throws(MoyaError) in
            var headers = ["Cache-Control": "no-cache"]
            // An ID a header cannot carry (a control byte) is not sent, rather than failing.
            if !lastEventID.isEmpty, HeaderSyntax.problem(name: "Last-Event-ID", value: lastEventID) == nil {
                headers["Last-Event-ID"] = lastEventID
            }
            return try await request.lifecycle(adding: headers, replacing: ["Accept": "text/event-stream"])
                .openStream()
        }
    }

    /// What every run of a streamed request to `target` shares.
    func streamRequest(for target: Target) -> StreamRequest {
        StreamRequest(
            context: lifecycleContext(
                for: target,
                endpoint: endpoint(target),
                stubBehavior: stubClosure(target),
                streaming: RequestLifecycle.Streaming()
            )
        )
    }
}

/// A streamed request to one target, from which each connection starts a new lifecycle: the
/// endpoint, the plugins and the interceptor are worked out once.
struct StreamRequest: Sendable {
    let context: RequestLifecycle.Context

    /// A lifecycle for one run, which adds `headers` to the request unless it sets them, and
    /// sets `replaced` whatever it says. Until its head is handed over, it is one of the
    /// provider's active requests.
    func lifecycle(adding headers: [String: String], replacing replaced: [String: String] = [:]) -> RequestLifecycle {
        var context = self.context
        context.streaming = RequestLifecycle.Streaming(addedHeaders: headers, replacedHeaders: replaced)
        return RequestLifecycle.counted(context)
    }
}
