import Foundation

/// A plugin that watches every attempt of a request (the first, each retry, each answer to an
/// authentication challenge), with a value of its own per request that the provider keeps and
/// hands back, so that it needs no table of the requests in flight.
///
/// Its `PluginType` methods run as for any plugin, in Moya's order. These run beside them:
///
/// - `requestWillStart` once, before the plugins' `prepare`, in the caller's context (its task
///   and task-locals, such as the trace context), returning the request's value;
/// - `attemptWillSend` as each attempt is handed to the transport (after adapting, and after
///   the session's resilience policies admitted it), with the attempt's request to change
///   (propagation headers);
/// - `attemptDidEnd` with each attempt's outcome (for a stream handed to its reader, when the
///   reader is done);
/// - `requestDidEnd` once, with the request's outcome, before `didReceive`; also for a request
///   that failed before any attempt.
///
/// `TracingPlugin` (MoyaObservability) is one: a span per request, a client span per attempt.
public protocol AttemptObservingPlugin: PluginType, Sendable {
    /// What the plugin keeps per request.
    associatedtype Observation: Sendable

    /// A request starts: the value the provider keeps for it.
    func requestWillStart(_ request: URLRequest, target: TargetType) -> Observation

    /// Attempt `attempt` (1 for the first) is about to be sent as `request`.
    func attemptWillSend(_ attempt: Int, request: inout URLRequest, target: TargetType, observation: Observation)

    /// Attempt `attempt` ended with `result`.
    func attemptDidEnd(
        _ attempt: Int,
        result: Result<Response, MoyaError>,
        target: TargetType,
        observation: Observation
    )

    /// The request ended with `result`.
    func requestDidEnd(_ result: Result<Response, MoyaError>, target: TargetType, observation: Observation)
}

/// One attempt-observing plugin's value for one request, with the plugin's methods bound to it.
struct AttemptObservation: Sendable {
    let willSend: @Sendable (Int, inout URLRequest) -> Void
    let didEnd: @Sendable (Int, Result<Response, MoyaError>) -> Void
    let requestDidEnd: @Sendable (Result<Response, MoyaError>) -> Void

    /// Starts `plugin`'s observation of a request to `target`.
    init<Plugin: AttemptObservingPlugin>(_ plugin: Plugin, request: URLRequest, target: TargetType) {
        let observation = plugin.requestWillStart(request, target: target)
        // A target is the user's value, read on whichever thread the attempt ends on.
        let target = UserValue(target)
        willSend = { plugin.attemptWillSend($0, request: &$1, target: target.value, observation: observation) }
        didEnd = { plugin.attemptDidEnd($0, result: $1, target: target.value, observation: observation) }
        requestDidEnd = { plugin.requestDidEnd($0, target: target.value, observation: observation) }
    }
}

/// Where a request's attempt observations stand: which attempt is open. Kept under the
/// lifecycle's lock; the plugins are called outside it, with what each step returns.
struct AttemptObservations: Sendable {
    private var observations: [AttemptObservation] = []
    private var attemptsSent = 0
    private var attemptOpen = false

    /// Whether nobody observes: the common case, where every step is a check of this.
    var isEmpty: Bool { observations.isEmpty }

    /// The observations of a request that starts, one per plugin.
    init(_ observations: [AttemptObservation] = []) {
        self.observations = observations
    }

    /// An attempt is sent: its number, and whom to tell.
    mutating func attemptWillSend() -> (number: Int, observers: [AttemptObservation]) {
        attemptsSent += 1
        attemptOpen = true
        return (attemptsSent, observations)
    }

    /// The open attempt ended: its number and whom to tell; `nil` when none is open.
    mutating func attemptDidEnd() -> (number: Int, observers: [AttemptObservation])? {
        guard attemptOpen else { return nil }
        attemptOpen = false
        return (attemptsSent, observations)
    }

    /// The request ended: the attempt still open, and whom to tell, once.
    mutating func requestDidEnd() -> (openAttempt: Int?, observers: [AttemptObservation]) {
        let open = attemptDidEnd()?.number
        defer { observations = [] }
        return (open, observations)
    }
}
