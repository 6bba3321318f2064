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
