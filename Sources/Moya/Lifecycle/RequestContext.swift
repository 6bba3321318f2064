import Foundation

/// What a plugin can learn about the request whose hook is running.
///
/// Moya's plugin hooks receive a request, then a result, with nothing tying the two together.
/// While a provider runs a hook (`prepare`, `willSend`, `didReceive`, `process`) or an
/// interceptor, `RequestContext.current` names the request it belongs to, so a plugin can
/// correlate log lines, spans or timers:
///
/// ```swift
/// func willSend(_ request: RequestType, target: TargetType) {
///     logger.info("sending", metadata: ["request-id": "\(RequestContext.current?.requestID ?? "-")"])
/// }
/// ```
public struct RequestContext: Sendable, Hashable {
    /// An identifier unique to one run of the request pipeline (shared by callers that joined
    /// it through `trackInflights`, since they share one request).
    public let requestID: String

    /// The context of the hook running now; `nil` outside a provider's hooks.
    @TaskLocal public static var current: RequestContext?

    /// Creates a context with a new random identifier.
    public init() {
        self.requestID = String(UInt64.random(in: .min ... .max), radix: 16)
    }

    /// Creates a context with the given identifier.
    public init(requestID: String) {
        self.requestID = requestID
    }
}
