import Foundation
import Moya

extension DemoSteps {
    /// `NetworkLoggerPlugin`, with secrets redacted.
    static let logger = DemoStep(
        name: "logger",
        title: "The logger plugin, with secrets redacted",
        explanation: """
            Plugins see every request and response. NetworkLoggerPlugin logs them; the \
            Authorization, Cookie and Set-Cookie values are redacted unless you ask otherwise.
            """,
        code: """
            let logger = NetworkLoggerPlugin(configuration: .init(logOptions: .verbose))
            let token = AccessTokenPlugin { _ in accessToken }
            MoyaProvider<GitHub>(plugins: [token, logger]).request(.me)
            """,
        needsEmbeddedServer: true
    ) { context in
        let logger = NetworkLoggerPlugin(
            configuration: .init(
                // Without the default entry's date, so that lines fit the terminal.
                formatter: .init(entry: { identifier, message, _ in "\(identifier): \(message)" }),
                output: { _, items in
                    for item in items { context.say(item) }
                },
                logOptions: .verbose
            )
        )
        let token = AccessTokenPlugin { _ in DemoConfiguration.accessToken }
        let provider = MoyaProvider<GitHub>(plugins: [token, logger])
        let response = try await provider.request(.me)
        context.say("-> \(response.statusCode), and the token never reached the log")
    }
}
