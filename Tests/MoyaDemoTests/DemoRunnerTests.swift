import Foundation
import Testing

@testable import MoyaDemoKit

@Suite struct DemoRunnerTests {
    @Test func stepsNeedingTheEmbeddedServerAreSkippedForAForeignServer() async throws {
        try await SharedServer.use()
        let captured = CapturedOutput()
        let context = DemoContext(output: captured.output, serverIsEmbedded: false)

        let report = await DemoRunner(steps: [DemoSteps.target, DemoSteps.logger], context: context).run()

        #expect(report.outcomes.map { $0.outcome } == [.succeeded, .skipped])
        #expect(report.succeeded)
        #expect(report.summary.hasPrefix("1 of 1 steps succeeded in "))
        #expect(report.summary.hasSuffix(" 1 skipped: they need the embedded server."))
        #expect(captured.contents.contains("Skipped: this step needs a route only the embedded server has."))
    }

    @Test func aFailingStepIsReportedAndTheOthersStillRun() async {
        let captured = CapturedOutput()
        let failing = DemoStep(name: "broken", title: "Broken", explanation: "Fails.", code: "fail()") { _ in
            throw DemoStepError("it broke")
        }
        let passing = DemoStep(name: "fine", title: "Fine", explanation: "Passes.", code: "pass()") { context in
            context.say("all good")
        }

        let report = await DemoRunner(
            steps: [failing, passing],
            context: DemoContext(output: captured.output, serverIsEmbedded: true)
        ).run()

        #expect(report.outcomes.map { $0.outcome } == [.failed("it broke"), .succeeded])
        #expect(!report.succeeded)
        #expect(captured.contents.contains("FAILED: it broke"))
        #expect(captured.contents.contains("all good"))
        #expect(report.summary.contains("1 of 2 steps succeeded in "))
        #expect(report.summary.hasSuffix(" Failed: broken."))
    }

    @Test func summaryGivesTheDurationInTenthsOfASecond() {
        let report = DemoReport(
            outcomes: DemoSteps.all.map { ($0.name, .succeeded) },
            duration: .milliseconds(3_240)
        )

        #expect(report.summary == "13 of 13 steps succeeded in 3.2 s.")
    }

    @Test func headingShowsTitleExplanationAndCode() async {
        let captured = CapturedOutput()
        let step = DemoStep(name: "shown", title: "A title", explanation: "An explanation.", code: "let x = 1") { _ in }

        _ = await DemoRunner(steps: [step], context: DemoContext(output: captured.output, serverIsEmbedded: true)).run()

        #expect(captured.contents.hasPrefix("== 1/1  A title  [shown]\nAn explanation.\n\n    let x = 1\n\n"))
    }
}
