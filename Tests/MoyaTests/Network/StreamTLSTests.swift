import Foundation
import Hummingbird
import LoopbackServer
import NIOSSL
import Testing

@testable import Moya

/// Streams over TLS: a streamed response goes on a connection of its own (so that a body cut
/// short reaches its reader whole), which keeps the session's trust settings and its pins.
@Suite("Streams over TLS: verification, trust roots, pinning, client certificates")
struct StreamTLSTests {
    /// Streams `/hello` through a session with `configuration` and returns the body read.
    private func streamHello(
        _ server: TestServer,
        _ configuration: Session.Configuration
    ) async -> Result<String, MoyaError> {
        let provider = MoyaProvider<DynamicTarget>(session: Session(configuration: configuration))
        do {
            let streamed = try await provider.stream(DynamicTarget(baseURL: server.baseURL, path: "/hello"))
            var body = Data()
            for try await chunk in streamed.chunks {
                body.append(chunk)
            }
            return .success(String(decoding: body, as: UTF8.self))
        } catch {
            return .failure(error)
        }
    }

    private func failureCode(_ result: Result<String, MoyaError>) -> Int? {
        guard case .failure(.underlying(let error, nil)) = result else { return nil }
        return (error as NSError).domain == NSURLErrorDomain ? (error as NSError).code : nil
    }

    @Test func aStreamTrustsTheSessionsRootsAndRefusesAnUntrustedOrMisnamedCertificate() async throws {
        let certificates = try TestCertificates.makeAuthority()
        let server = try await TestServer.startTLS(
            identity: try certificates.makeLeaf(dnsNames: ["localhost"]),
            TestServer.addHello
        )
        let misnamed = try await TestServer.startTLS(
            identity: try certificates.makeLeaf(dnsNames: ["other.example"]),
            TestServer.addHello
        )
        let trusted = Session.Configuration(tlsConfiguration: .trusting(certificates.authority.certificate))

        #expect(try await streamHello(server, trusted).get() == "secure hello")
        #expect(failureCode(await streamHello(server, .init())) == NSURLErrorServerCertificateUntrusted)
        #expect(failureCode(await streamHello(misnamed, trusted)) == NSURLErrorServerCertificateUntrusted)
    }

    @Test func aStreamKeepsAPinnedPublicKeyAndAMismatchIsRefusedBeforeAnythingIsSent() async throws {
        let certificates = try TestCertificates.makeAuthority()
        let leaf = try certificates.makeLeaf(dnsNames: ["localhost"])
        let hits = Counter()
        let server = try await TestServer.startTLS(identity: leaf) { router in
            router.get("hello") { _, _ in
                hits.increment()
                return "secure hello"
            }
        }
        let tls = TLSConfiguration.trusting(certificates.authority.certificate)

        let pinned = await streamHello(
            server,
            .init(
                tlsConfiguration: tls,
                serverTrustPolicies: ["localhost": try .pinnedPublicKeys(of: [leaf.certificate])]
            )
        )
        #expect(try pinned.get() == "secure hello")
        #expect(hits.count == 1)

        let otherLeaf = try certificates.makeLeaf(dnsNames: ["localhost"])
        let mismatch = await streamHello(
            server,
            .init(
                tlsConfiguration: tls,
                serverTrustPolicies: ["localhost": try .pinnedPublicKeys(of: [otherLeaf.certificate])]
            )
        )
        guard case .failure(.underlying(let error, nil)) = mismatch else {
            Issue.record("expected a pin mismatch, got \(mismatch)")
            return
        }
        #expect((error as? MoyaClientError)?.code == .serverTrust)
        #expect(hits.count == 1)
    }

    @Test func aStreamTrustsOnlyAPinnedCertificateAuthority() async throws {
        let certificates = try TestCertificates.makeAuthority()
        let server = try await TestServer.startTLS(
            identity: try certificates.makeLeaf(dnsNames: ["localhost"]),
            TestServer.addHello
        )
        let otherAuthority = try TestCertificates.makeAuthority(name: "Another CA")

        let pinned = await streamHello(
            server,
            .init(serverTrustPolicies: ["localhost": .pinnedCertificates([certificates.authority.certificate])])
        )
        #expect(try pinned.get() == "secure hello")
        let mismatch = await streamHello(
            server,
            .init(
                tlsConfiguration: .trusting(certificates.authority.certificate),
                serverTrustPolicies: ["localhost": .pinnedCertificates([otherAuthority.authority.certificate])]
            )
        )
        #expect(failureCode(mismatch) == NSURLErrorServerCertificateUntrusted)
    }

    @Test func aStreamPresentsTheClientCertificateTheSessionHas() async throws {
        let certificates = try TestCertificates.makeAuthority()
        let client = try certificates.makeLeaf(dnsNames: ["client"], clientAuth: true)
        let server = try await TestServer.startTLS(
            identity: try certificates.makeLeaf(dnsNames: ["localhost"]),
            clientCA: certificates.authority.certificate,
            TestServer.addHello
        )
        var tls = TLSConfiguration.trusting(certificates.authority.certificate)
        tls.certificateChain = [.certificate(client.certificate)]
        tls.privateKey = .privateKey(client.privateKey)

        #expect(try await streamHello(server, .init(tlsConfiguration: tls)).get() == "secure hello")
        let refused = await streamHello(server, .init(tlsConfiguration: .trusting(certificates.authority.certificate)))
        #expect(failureCode(refused) == NSURLErrorClientCertificateRequired)
    }
}
