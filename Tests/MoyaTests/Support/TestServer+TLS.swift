import Hummingbird
import LoopbackServer
import NIOSSL

extension TestServer {
    /// Starts an HTTPS server presenting `identity`'s certificate.
    static func startTLS(
        identity: TestCertificates.Identity,
        clientCA: NIOSSLCertificate? = nil,
        _ configure: (Router<BasicRequestContext>) -> Void
    ) async throws -> TestServer {
        try await startTLS(
            certificate: identity.certificate,
            privateKey: identity.privateKey,
            clientCA: clientCA,
            configure
        )
    }
}

extension TestServer {
    /// Adds `GET /hello`, answered "secure hello": what the TLS suites ask for.
    static func addHello(_ router: Router<BasicRequestContext>) {
        router.get("hello") { _, _ in "secure hello" }
    }
}

extension TLSConfiguration {
    /// A client configuration that trusts `authority` alone.
    static func trusting(_ authority: NIOSSLCertificate) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([authority])
        return tls
    }
}
