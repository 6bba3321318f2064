import Foundation

/// Runs steps one after another, each under its heading, and reports how they went.
public struct DemoRunner: Sendable {
    /// The steps, in order.
    public let steps: [DemoStep]
    /// What they run with.
    public let context: DemoContext

    /// Creates a runner.
    public init(steps: [DemoStep], context: DemoContext) {
        self.steps = steps
        self.context = context
    }

    /// Runs every step; a failing step does not stop the others.
    public func run() async -> DemoReport {
        let clock = ContinuousClock()
        let start = clock.now
        var outcomes: [(name: String, outcome: DemoReport.Outcome)] = []
        for (index, step) in steps.enumerated() {
            printHeading(of: step, number: index + 1)
            let outcome = await run(step)
            outcomes.append((step.name, outcome))
            context.output.line()
        }
        return DemoReport(outcomes: outcomes, duration: clock.now - start)
    }

    private func run(_ step: DemoStep) async -> DemoReport.Outcome {
        guard context.serverIsEmbedded || !step.needsEmbeddedServer else {
            context.say("Skipped: this step needs a route only the embedded server has.")
            return .skipped
        }
        do {
            try await step.run(in: context)
            return .succeeded
        } catch {
            let reason = Self.describe(error)
            context.say("FAILED: \(reason)")
            return .failed(reason)
        }
    }

    private func printHeading(of step: DemoStep, number: Int) {
        let output = context.output
        output.line("== \(number)/\(steps.count)  \(step.title)  [\(step.name)]")
        output.paragraph(step.explanation)
        output.line()
        for line in step.code.split(separator: "\n", omittingEmptySubsequences: false) {
            output.line("    " + line)
        }
        output.line()
    }

    /// The error as a person reads it: `MoyaError` and friends describe themselves.
    static func describe(_ error: Error) -> String {
        if let localized = error as? LocalizedError, let description = localized.errorDescription {
            return description
        }
        return String(describing: error)
    }
}
