import Foundation
import NIOConcurrencyHelpers

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

    /// Creates a context with a new identifier, unique in the process and random-looking.
    public init() {
        // 60 bits make at most 15 hex digits, which Swift stores inline: no allocation per request.
        self.requestID = String(RequestIdentifiers.next() >> 4, radix: 16)
    }

    /// Creates a context with the given identifier.
    public init(requestID: String) {
        self.requestID = requestID
    }
}

/// Identifiers for request contexts without a system call per request: a counter, scrambled
/// by a bijective mix (SplitMix64's finaliser) keyed with one random seed. Distinct counter
/// values give distinct identifiers, and identifiers do not reveal how many requests ran.
enum RequestIdentifiers {
    private static let seed = UInt64.random(in: .min ... .max)
    private static let counter = NIOLockedValueBox<UInt64>(0)

    static func next() -> UInt64 {
        let count = counter.withLockedValue { count in
            count &+= 1
            return count
        }
        var mixed = count &+ seed
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
