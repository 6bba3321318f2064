import Foundation
import Hummingbird
import Logging

/// A Hummingbird server on 127.0.0.1 with a free port, for one test.
///
/// Servers run until the test process exits and are never shut down: a connection accepted while
/// a Hummingbird server shuts down trips an assertion in NIO's `NIOAsyncWriter` and crashes the
/// process. Each test gets its own port, so tests stay isolated.
struct TestServer {
    let baseURL: URL

    /// Starts a server with the routes `configure` adds, and returns once it listens.
    static func start(_ configure: (Router<BasicRequestContext>) -> Void) async throws -> TestServer {
        let router = Router()
        configure(router)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: Logger(label: "moya-testing-test-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        _Concurrency.Task { try await app.run() }
        var port = 0
        for await value in ports {
            port = value
        }
        guard port > 0, let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw TestServerError.didNotStart
        }
        return TestServer(baseURL: url)
    }
}

enum TestServerError: Error {
    case didNotStart
}
