import NIOCore

extension TimeAmount {
    /// `duration` in SwiftNIO's nanoseconds, for the transports built on it: the session's
    /// settings are Swift `Duration`s, so that its public API names no SwiftNIO type. A
    /// duration past what 64-bit nanoseconds hold (292 years) is held as the longest that fits.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else {
            self = .nanoseconds(seconds < 0 ? .min : .max)
            return
        }
        let (total, tooLong) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        self = tooLong ? .nanoseconds(seconds < 0 ? .min : .max) : .nanoseconds(total)
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval`.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
