import ArgumentParser
import Foundation
import Moya
import MoyaDemoKit

/// `moya-demo`: walks through Moya against an embedded GitHub-like server (or `--base-url`).
@main
struct MoyaDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moya-demo",
        abstract: "A walk through Moya, one titled step at a time, against an embedded GitHub-like API.",
        discussion: """
            Without options the demo starts an HTTP server on 127.0.0.1 (nothing leaves the \
            machine), runs every step against it, prints a summary and exits with 0 when \
            every step succeeded.

            With --base-url the requests go to that server instead, which must answer \
            GitHub's /zen, /users/NAME and /users/NAME/repos. Steps that need routes only \
            the embedded server has (\(DemoSteps.all.filter(\.needsEmbeddedServer).map(\.name).joined(separator: ", "))) \
            are skipped, and say so.

            Steps: \(DemoSteps.all.map(\.name).joined(separator: ", ")).
            """
    )

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp("Send requests to this server instead of the embedded one.", valueName: "url"),
        transform: MoyaDemo.parseBaseURL
    )
    var baseURL: URL?

    @Option(help: ArgumentHelp("Run only the step with this name (see Steps above).", valueName: "name"))
    var step: String?

    func validate() throws {
        if let step, DemoSteps.named(step) == nil {
            throw ValidationError(
                "No step is named '\(step)'. Steps: \(DemoSteps.all.map(\.name).joined(separator: ", "))."
            )
        }
    }

    func run() async throws {
        let output = DemoOutput.standardOutput
        var server: RunningDemoServer?
        if let baseURL {
            DemoConfiguration.baseURL = baseURL
        } else {
            let embedded = try await DemoServer.start()
            DemoConfiguration.baseURL = embedded.url
            server = embedded
        }
        let origin = server == nil ? "" : " (embedded)"
        output.line("Moya demo against \(DemoConfiguration.baseURL.absoluteString)\(origin)")
        // Which transport carries the requests: a Session() picks the platform's default.
        let transport = String(describing: type(of: Session.default.transport))
        output.line("Requests go through \(transport), this platform's default transport.")
        output.line()

        let steps = step.flatMap(DemoSteps.named).map { [$0] } ?? DemoSteps.all
        let runner = DemoRunner(steps: steps, context: DemoContext(output: output, serverIsEmbedded: server != nil))
        let report = await runner.run()
        // The embedded server ends with the process: a connection Hummingbird accepts while it
        // shuts down trips an assertion in NIO, and nothing is gained by stopping it first.
        output.paragraph(report.summary)
        if !report.succeeded {
            throw ExitCode.failure
        }
    }

    /// An `http` or `https` URL with a host; anything else is a usage error, not a crash.
    static func parseBaseURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), url.host?.isEmpty == false
        else {
            throw ValidationError("'\(text)' is not an http or https URL with a host.")
        }
        return url
    }
}
