import Foundation
import Hummingbird
import Logging
import NIOCore

/// A small GitHub-like API on loopback, so the demo needs no network.
enum DemoServer {
    static func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("zen") { _, _ in
            "Half measures are as bad as nothing at all."
        }
        router.get("users/:name") { _, context -> Response in
            let name = context.parameters.get("name") ?? "unknown"
            return json("{\"login\": \"\(name)\", \"id\": \(abs(name.hashValue % 10_000))}")
        }
        router.get("users/:name/repos") { request, _ -> Response in
            let sort = request.uri.queryParameters.get("sort") ?? "none"
            return json("[{\"name\": \"moya\"}, {\"name\": \"sorted-by-\(sort)\"}]")
        }
        router.get("user") { request, _ -> Response in
            guard request.headers[.authorization] == "Bearer \(DemoConfiguration.accessToken)" else {
                return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
            }
            return json("{\"login\": \"me\", \"id\": 1}")
        }
        return router
    }

    private static func json(_ text: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// Starts the server on a free loopback port and returns its base URL once it listens.
    static func start() async throws -> (url: URL, task: _Concurrency.Task<Void, Error>) {
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "moya-demo"),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: .init(label: "moya-demo-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let task = _Concurrency.Task { try await app.run() }
        var port = 0
        for await value in portStream {
            port = value
        }
        guard port > 0, let url = URL(string: "http://127.0.0.1:\(port)") else {
            task.cancel()
            throw DemoError.serverDidNotStart
        }
        return (url, task)
    }
}

enum DemoError: Error {
    case serverDidNotStart
}
