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
    public var requestID: String {
        switch identifier {
        case .number(let number):
            // 60 bits make at most 15 hex digits, which Swift stores inline: no allocation.
            return String(number, radix: 16)
        case .text(let text):
            return text
        }
    }

    /// A context the provider makes keeps its number, and spells it only when a hook asks:
    /// most requests run with plugins that never read it.
    private enum Identifier: Sendable {
        case number(UInt64)
        case text(String)
    }

    private let identifier: Identifier

    /// The context of the hook running now; `nil` outside a provider's hooks.
    @TaskLocal public static var current: RequestContext?

    /// Creates a context with a new identifier, unique in the process and random-looking.
    public init() {
        self.identifier = .number(RequestIdentifiers.next() >> 4)
    }

    /// Creates a context with the given identifier.
    public init(requestID: String) {
        self.identifier = .text(requestID)
    }

    /// Two contexts are equal when their identifiers are, however each was given.
    public static func == (lhs: RequestContext, rhs: RequestContext) -> Bool {
        if case .number(let left) = lhs.identifier, case .number(let right) = rhs.identifier {
            return left == right
        }
        return lhs.requestID == rhs.requestID
    }

    /// Hashes the identifier as text, as `==` compares it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(requestID)
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
