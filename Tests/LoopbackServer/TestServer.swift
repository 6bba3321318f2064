import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOSSL

/// A Hummingbird server on 127.0.0.1 with a free port, for one test; shared by the package's
/// test targets.
///
/// Servers run until the test process exits and are never shut down: a connection accepted while
/// a Hummingbird server shuts down trips an assertion in NIO's `NIOAsyncWriter` and crashes the
/// process, and a client's connection pool may open a connection at any moment (a speculative
/// connection for a queued request, say). Each test gets its own port, so tests stay isolated.
public struct TestServer: Sendable {
    /// `http://127.0.0.1:<port>`, or `https://localhost:<port>` for a TLS server.
    public let baseURL: URL

    /// A URL where nothing listens, so a connection is refused at once. Port 1 is never handed
    /// out for a port-0 bind, unlike a port another test just closed, which a server started
    /// in parallel may receive.
    public static let unreachableBaseURL = URL(string: "http://127.0.0.1:1") ?? URL(fileURLWithPath: "/")

    /// Starts a server with the routes `configure` adds, and returns once it listens.
    public static func start(_ configure: (Router<BasicRequestContext>) -> Void) async throws -> TestServer {
        try await run(configure, server: .http1(), scheme: "http", host: "127.0.0.1")
    }

    /// Runs `body` with a started server.
    public static func with<T>(
        _ configure: (Router<BasicRequestContext>) -> Void,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        try await body(try await start(configure))
    }

    /// Starts an HTTPS server presenting `certificate`; `clientCA`, when given, makes it require
    /// a client certificate signed by that CA.
    public static func startTLS(
        certificate: NIOSSLCertificate,
        privateKey: NIOSSLPrivateKey,
        clientCA: NIOSSLCertificate? = nil,
        _ configure: (Router<BasicRequestContext>) -> Void
    ) async throws -> TestServer {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)],
            privateKey: .privateKey(privateKey)
        )
        if let clientCA {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates([clientCA])
        }
        return try await run(
            configure,
            server: try .tls(.http1(), tlsConfiguration: tls),
            scheme: "https",
            host: "localhost"
        )
    }

    private static func run(
        _ configure: (Router<BasicRequestContext>) -> Void,
        server: HTTPServerBuilder,
        scheme: String,
        host: String
    ) async throws -> TestServer {
        let router = Router()
        configure(router)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        _Concurrency.Task {
            // A server that fails to bind never calls `onServerRunning`; end the wait anyway.
            defer { continuation.finish() }
            try await app.run()
        }
        var port = 0
        for await value in ports {
            port = value
        }
        guard port > 0, let url = URL(string: "\(scheme)://\(host):\(port)") else {
            throw TestServerError.didNotStart
        }
        return TestServer(baseURL: url)
    }
}

/// Why a test server is not available.
public enum TestServerError: Error {
    /// The server stopped before it listened on a port.
    case didNotStart
}
