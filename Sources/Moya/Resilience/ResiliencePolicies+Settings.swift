import Foundation

extension ResiliencePolicies {
    /// The policies' numbers, which tell two sets of policies apart where their closures
    /// cannot be compared: the session keeps one state for a target's policies per distinct
    /// `Settings` (`TargetGates`), however often the target makes them anew.
    struct Settings: Hashable {
        private var numbers: [Double] = []

        init(_ policies: ResiliencePolicies) {
            if let budget = policies.retryBudget {
                add(1, budget.percentCanRetry, budget.minimumRetriesPerSecond, budget.window)
            }
            if let breaker = policies.circuitBreaker {
                add(
                    2,
                    Double(breaker.windowSize),
                    Double(breaker.minimumCalls),
                    breaker.failureRateThreshold,
                    breaker.slowCallDuration ?? -1,
                    breaker.slowCallRateThreshold,
                    breaker.openDuration,
                    Double(breaker.halfOpenTrials)
                )
            }
            if let limit = policies.concurrencyLimit {
                add(3, Double(limit.maximumConcurrentRequests), Double(limit.maximumQueueLength), limit.maximumWait)
            }
            if let rate = policies.rateLimit {
                add(4, rate.requestsPerSecond, Double(rate.burst), rate.maximumWait)
            }
        }

        /// One policy's numbers, after a tag that says which policy they are.
        private mutating func add(_ tag: Double, _ values: Double...) {
            numbers.append(tag)
            numbers.append(contentsOf: values)
        }
    }
}
