/// How a run of the demo went.
public struct DemoReport: Sendable {
    /// How one step ended.
    public enum Outcome: Sendable, Equatable {
        /// The step showed what it meant to.
        case succeeded
        /// The step needs the embedded server and the demo talks to another one.
        case skipped
        /// The step failed, for the reason given.
        case failed(String)
    }

    /// Each step's name and outcome, in the order they ran.
    public let outcomes: [(name: String, outcome: Outcome)]
    /// How long the steps took.
    public let duration: Duration

    /// Whether no step failed.
    public var succeeded: Bool {
        !outcomes.contains { if case .failed = $0.outcome { true } else { false } }
    }

    /// `13 of 13 steps succeeded in 3.2 s.`, naming skipped and failed steps when there are any.
    public var summary: String {
        let ran = outcomes.filter { $0.outcome != .skipped }
        let passed = ran.filter { $0.outcome == .succeeded }.count
        let failed = ran.filter { $0.outcome != .succeeded }.map(\.name)
        let skipped = outcomes.count - ran.count
        var text = "\(passed) of \(ran.count) steps succeeded in \(Self.seconds(duration)) s."
        if !failed.isEmpty {
            text += " Failed: \(failed.joined(separator: ", "))."
        }
        if skipped > 0 {
            text += " \(skipped) skipped: they need the embedded server."
        }
        return text
    }

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = (Double(seconds) + Double(attoseconds) / 1e18) * 10
        let rounded = Int(tenths.rounded())
        return "\(rounded / 10).\(rounded % 10)"
    }
}
