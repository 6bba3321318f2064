import Foundation

/// Settings a target chooses for its own requests, over the provider's: adopt it next to
/// `TargetType` to give one endpoint a longer timeout or its own retry policy.
///
/// ```swift
/// extension API: RequestPolicies {
///     var timeoutInterval: TimeInterval? { self == .export ? 300 : nil }
///     var retryPolicy: RetryPolicy? { RetryPolicy(retryLimit: 5) }
/// }
/// ```
public protocol RequestPolicies {
    /// The longest wait for the next bytes of a response, in seconds, as
    /// `URLRequest.timeoutInterval`; `nil` keeps the provider's. A `timeoutInterval` that a
    /// `requestClosure` set explicitly wins.
    var timeoutInterval: TimeInterval? { get }

    /// Decides retries for this target before the provider's and session's interceptors do;
    /// `nil` leaves them to those.
    var retryPolicy: RetryPolicy? { get }

    /// How this target's requests use the session's `HTTPCache`; `nil` keeps the cache's own
    /// policy. Without a cache on the session, there is nothing to use.
    var cachePolicy: CachePolicy? { get }

    /// The resilience policies for this target's requests, in place of the session's
    /// (`Session.Configuration.resilience`): set in them every policy its requests need. An
    /// empty set exempts the target from the session's; `nil` keeps the session's. Their state
    /// is kept by the session, shared by every provider using it, one per target type and set
    /// of numbers. Coalescing stays the session's: it merges requests below the cache, for
    /// every target alike.
    var resilience: ResiliencePolicies? { get }
}

extension RequestPolicies {
    public var timeoutInterval: TimeInterval? { nil }
    public var retryPolicy: RetryPolicy? { nil }
    /// No policy of its own: the cache's applies.
    public var cachePolicy: CachePolicy? { nil }
    /// No policies of its own: the session's apply.
    public var resilience: ResiliencePolicies? { nil }
}

extension MultiTarget: RequestPolicies {
    /// The wrapped target's timeout, when it adopts `RequestPolicies`.
    public var timeoutInterval: TimeInterval? {
        (target as? RequestPolicies)?.timeoutInterval
    }

    /// The wrapped target's retry policy, when it adopts `RequestPolicies`.
    public var retryPolicy: RetryPolicy? {
        (target as? RequestPolicies)?.retryPolicy
    }

    /// The wrapped target's cache policy, when it adopts `RequestPolicies`.
    public var cachePolicy: CachePolicy? {
        (target as? RequestPolicies)?.cachePolicy
    }

    /// The wrapped target's resilience policies, when it adopts `RequestPolicies`.
    public var resilience: ResiliencePolicies? {
        (target as? RequestPolicies)?.resilience
    }
}
