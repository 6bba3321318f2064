import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// Certificates made for one test run: a CA, and leaf certificates it signs.
struct TestCertificates {
    struct Identity {
        let certificate: NIOSSLCertificate
        let privateKey: NIOSSLPrivateKey
    }

    let authority: Identity
    private let authorityKey: P256.Signing.PrivateKey
    private let authorityName: DistinguishedName

    /// A new self-signed CA.
    static func makeAuthority(name: String = "Moya Test CA") throws -> TestCertificates {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(key.publicKey),
            notValidBefore: Date().addingTimeInterval(-3600),
            notValidAfter: Date().addingTimeInterval(86_400),
            issuer: subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(key)
        )
        return TestCertificates(
            authority: try identity(certificate, key),
            authorityKey: key,
            authorityName: subject
        )
    }

    /// A server or client certificate signed by this CA, valid for `dnsNames` and `ipAddresses`.
    func makeLeaf(dnsNames: [String], ipAddresses: [[UInt8]] = [], clientAuth: Bool = false) throws -> Identity {
        let key = P256.Signing.PrivateKey()
        var names: [GeneralName] = dnsNames.map { .dnsName($0) }
        names += ipAddresses.map { .ipAddress(ASN1OctetString(contentBytes: $0[...])) }
        let subjectAlternativeNames = SubjectAlternativeNames(names)
        let certificate = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(key.publicKey),
            notValidBefore: Date().addingTimeInterval(-3600),
            notValidAfter: Date().addingTimeInterval(86_400),
            issuer: authorityName,
            subject: try DistinguishedName { CommonName(dnsNames.first ?? "client") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([clientAuth ? .clientAuth : .serverAuth])
                subjectAlternativeNames
            },
            issuerPrivateKey: .init(authorityKey)
        )
        return try Self.identity(certificate, key)
    }

    private static func identity(_ certificate: Certificate, _ key: P256.Signing.PrivateKey) throws -> Identity {
        let pem = try certificate.serializeAsPEM().pemString
        return Identity(
            certificate: try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem),
            privateKey: try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)
        )
    }
}
