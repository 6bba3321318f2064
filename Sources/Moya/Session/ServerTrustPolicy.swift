import Crypto
import Foundation
import NIOCore
import NIOSSL

/// How a session decides to trust one host's TLS certificate, beyond (never instead of) full
/// verification: the chain must still be valid and name the host.
///
/// AsyncHTTPClient exposes no certificate-verification callback, so each policy is enforced
/// with what it does expose, each in a client of its own for that host:
/// - certificate pinning replaces the trust roots with the pinned certificates, so only a chain
///   anchored in one of them verifies (pin a self-signed certificate or the issuing CA);
/// - public-key pinning checks the SHA-256 of the server certificate's public key (its
///   SubjectPublicKeyInfo) when the connection is made, before any request uses it, and
///   refuses the connection on a mismatch.
public struct ServerTrustPolicy: Sendable {
    enum Kind: Sendable {
        case certificates([NIOSSLCertificate])
        case publicKeys(Set<String>)
    }

    let kind: Kind

    /// Trust only chains anchored in these certificates for the host.
    public static func pinnedCertificates(_ certificates: [NIOSSLCertificate]) -> ServerTrustPolicy {
        ServerTrustPolicy(kind: .certificates(certificates))
    }

    /// Require the server certificate's public key to be one of these: base64 SHA-256 digests
    /// of the SubjectPublicKeyInfo, as `openssl x509 -pubkey | openssl pkey -pubin -outform der
    /// | openssl dgst -sha256 -binary | base64` prints them.
    public static func pinnedPublicKeys(sha256Base64 pins: [String]) -> ServerTrustPolicy {
        ServerTrustPolicy(kind: .publicKeys(Set(pins)))
    }

    /// Require the server certificate's public key to be the key of one of these certificates.
    public static func pinnedPublicKeys(of certificates: [NIOSSLCertificate]) throws -> ServerTrustPolicy {
        .pinnedPublicKeys(sha256Base64: try certificates.map { try Self.publicKeyPin(of: $0) })
    }

    /// The base64 SHA-256 digest of a certificate's SubjectPublicKeyInfo.
    public static func publicKeyPin(of certificate: NIOSSLCertificate) throws -> String {
        let spki = try certificate.extractPublicKey().toSPKIBytes()
        return Data(SHA256.hash(data: spki)).base64EncodedString()
    }
}

extension ServerTrustPolicy {
    /// Applies the policy to a client configuration for `host`.
    func apply(to configuration: inout HTTPClientConfigurationBox, host: String, baseTLS: TLSConfiguration) {
        var tls = baseTLS
        switch kind {
        case .certificates(let certificates):
            tls.trustRoots = .certificates(certificates)
            tls.additionalTrustRoots = []
            configuration.tlsConfiguration = tls
        case .publicKeys(let pins):
            configuration.tlsConfiguration = tls
            let check: @Sendable (Channel) -> EventLoopFuture<Void> = { channel in
                Self.verifyPublicKey(of: channel, pins: pins, host: host)
            }
            configuration.connectionCheck = check
        }
    }

    private static func verifyPublicKey(of channel: Channel, pins: Set<String>, host: String) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let handler = try channel.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self)
            guard let certificate = handler.peerCertificate, pins.contains(try publicKeyPin(of: certificate)) else {
                throw MoyaClientError.serverTrust(host: host)
            }
        }.flatMapErrorThrowing { error in
            channel.close(promise: nil)
            throw error
        }
    }
}

/// The parts of a client configuration a trust policy changes.
struct HTTPClientConfigurationBox {
    var tlsConfiguration: TLSConfiguration?
    var connectionCheck: (@Sendable (Channel) -> EventLoopFuture<Void>)?
}
