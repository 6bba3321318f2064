import Foundation
import Hummingbird
import HummingbirdTLS
import Logging
import Moya
import NIOCore
import NIOSSL

/// A Hummingbird server on 127.0.0.1 with a free port, for one test.
///
/// Servers run until the test process exits and are never shut down: a connection accepted while
/// a Hummingbird server shuts down trips an assertion in NIO's `NIOAsyncWriter` and crashes the
/// process, and a client's connection pool may open a connection at any moment (a speculative
/// connection for a queued request, say). Each test gets its own port, so tests stay isolated.
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
            logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() })
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

    /// Runs `body` with a started server.
    static func with<T>(
        _ configure: (Router<BasicRequestContext>) -> Void,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        try await body(try await start(configure))
    }
}

enum TestServerError: Error {
    case didNotStart
}

/// A target whose base URL is chosen at run time, for tests against local servers.
struct DynamicTarget: TargetType {
    var baseURL: URL
    var path: String
    var method: Moya.Method = .get
    var makeTask: @Sendable () -> Moya.Task = { .requestPlain }
    var headers: [String: String]? = nil
    var validationType: ValidationType = .none

    var task: Moya.Task { makeTask() }
}


extension TestServer {
    /// Starts an HTTPS server presenting `identity`; `clientCA`, when given, makes it require a
    /// client certificate signed by that CA.
    static func startTLS(
        identity: TestCertificates.Identity,
        clientCA: NIOSSLCertificate? = nil,
        _ configure: (Router<BasicRequestContext>) -> Void
    ) async throws -> TestServer {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(identity.certificate)],
            privateKey: .privateKey(identity.privateKey)
        )
        if let clientCA {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates([clientCA])
        }
        let router = Router()
        configure(router)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            server: try .tls(.http1(), tlsConfiguration: tls),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: Logger(label: "test-tls-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        _Concurrency.Task { try await app.run() }
        var port = 0
        for await value in ports {
            port = value
        }
        guard port > 0, let url = URL(string: "https://localhost:\(port)") else {
            throw TestServerError.didNotStart
        }
        return TestServer(baseURL: url)
    }
}
