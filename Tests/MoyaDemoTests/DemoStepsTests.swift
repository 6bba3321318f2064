import Foundation
import Testing

@testable import MoyaDemoKit

@Suite struct DemoStepsTests {
    @Test(arguments: DemoSteps.all.map(\.name))
    func stepSucceedsAgainstTheEmbeddedServerWithinEightyColumns(name: String) async throws {
        try await SharedServer.use()
        let captured = CapturedOutput()
        let step = try #require(DemoSteps.named(name))

        let report = await DemoRunner(
            steps: [step],
            context: DemoContext(output: captured.output, serverIsEmbedded: true)
        ).run()

        #expect(report.outcomes.map { $0.outcome } == [.succeeded], "\(captured.contents)")
        let wide = captured.lines.filter { $0.count > 80 }
        #expect(wide.isEmpty, "lines wider than 80 columns: \(wide)")
    }

    @Test func everyStepHasADistinctName() {
        let names = DemoSteps.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count == 13)
    }

    @Test func loggerShowsTheAuthorizationHeaderRedacted() async throws {
        let captured = try await run(DemoSteps.logger)

        #expect(captured.contains("Authorization"))
        #expect(captured.contains("<redacted>"))
        #expect(!captured.contains(DemoConfiguration.accessToken))
    }

    @Test func retryShowsTwoUnavailableAttemptsThenSuccess() async throws {
        let captured = try await run(DemoSteps.retry)

        #expect(captured.contains("attempt 1: 503, retrying in 0.10 s"))
        #expect(captured.contains("attempt 2: 503, retrying in 0.20 s"))
        #expect(captured.contains("attempt 3: 200, done"))
    }

    @Test func theBreakerOpensAfterFourFailuresRefusesUnsentAndATrialClosesIt() async throws {
        let captured = try await run(DemoSteps.resilience)

        #expect(captured.contains("call 4: 503"))
        #expect(captured.contains("call 5: refused at once, unsent (circuit open)"))
        #expect(captured.contains("a trial: 200; the breaker is closed"))
        #expect(captured.contains("the server saw 5 requests of 6 calls"))
    }

    @Test func refreshHappensOnceForThreeConcurrentRequests() async throws {
        let captured = try await run(DemoSteps.refresh)

        #expect(captured.contains("refresh #1"))
        #expect(!captured.contains("refresh #2"))
        #expect(captured.contains("3 requests answered 200 after 1 refresh"))
    }

    @Test func downloadPrintsMilestoneLinesWhenNotOnATerminal() async throws {
        let captured = try await run(DemoSteps.download, downloadBytes: 4 * 1024 * 1024)

        #expect(!captured.contains("\r"))
        #expect(captured.contains("[##############################] 100%    4.0 of   4.0 MB"))
        #expect(captured.contains("file removed"))
    }

    @Test func downloadRedrawsTheBarInPlaceOnATerminal() async throws {
        let captured = try await run(DemoSteps.download, isTerminal: true, downloadBytes: 4 * 1024 * 1024)

        #expect(captured.contains("\r   ["))
        #expect(captured.contains("100%"))
    }

    @Test(arguments: [DemoSteps.upload, DemoSteps.download].map(\.name))
    func transferStepLeavesNoFileBehind(name: String) async throws {
        try await SharedServer.use()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "moya-demo-tests-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = DemoContext(
            output: CapturedOutput().output,
            serverIsEmbedded: true,
            downloadBytes: 1024 * 1024,
            temporaryDirectory: directory
        )

        try await #require(DemoSteps.named(name)).run(in: context)

        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    private func run(
        _ step: DemoStep,
        isTerminal: Bool = false,
        downloadBytes: Int = DemoContext.defaultDownloadBytes
    ) async throws -> String {
        try await SharedServer.use()
        let captured = CapturedOutput(isTerminal: isTerminal)
        let context = DemoContext(output: captured.output, serverIsEmbedded: true, downloadBytes: downloadBytes)
        try await step.run(in: context)
        return captured.contents
    }
}
