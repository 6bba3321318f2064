import Foundation
import Hummingbird
import Logging

/// A small GitHub-like API on loopback, so the demo needs no network.
public enum DemoServer {
    /// Starts the server on a free loopback port and returns once it listens.
    ///
    /// - Throws: `DemoServerError.didNotStart` when the server stopped before listening.
    public static func start() async throws -> RunningDemoServer {
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: DemoRoutes.makeRouter(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "moya-demo"),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: Logger(label: "moya-demo-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let task = _Concurrency.Task {
            // A server that fails to bind never calls `onServerRunning`; end the wait anyway.
            defer { portContinuation.finish() }
            try await app.run()
        }
        var port = 0
        for await value in portStream {
            port = value
        }
        guard port > 0, let url = URL(string: "http://127.0.0.1:\(port)") else {
            task.cancel()
            throw DemoServerError.didNotStart
        }
        return RunningDemoServer(url: url, task: task)
    }
}

/// The embedded server while it runs.
public struct RunningDemoServer: Sendable {
    /// The server's base URL, `http://127.0.0.1:<port>`.
    public let url: URL
    let task: _Concurrency.Task<Void, Error>

    /// Stops the server: Hummingbird shuts down gracefully when its task is cancelled.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }
}

/// Why the embedded server is not available.
public enum DemoServerError: Error, CustomStringConvertible {
    /// The server stopped before it listened on a port.
    case didNotStart

    public var description: String {
        switch self {
        case .didNotStart:
            return "The embedded server did not start listening on 127.0.0.1."
        }
    }
}
