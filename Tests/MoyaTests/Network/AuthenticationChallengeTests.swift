import Foundation
import Testing

@testable import Moya

@Suite("Answering authentication challenges")
struct AuthenticationChallengeTests {
    private let credential = URLCredential(user: "Mufasa", password: "Circle of Life", persistence: .none)

    private func rfc7616Challenge(algorithm: String) -> String {
        "Digest realm=\"http-auth@example.org\", qop=\"auth, auth-int\", algorithm=\(algorithm), "
            + "nonce=\"7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v\", opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\""
    }

    @Test func digestSHA256MatchesTheRFC7616Example() throws {
        let authorization = try #require(
            AuthenticationChallenge.authorization(
                for: rfc7616Challenge(algorithm: "SHA-256"),
                credential: credential,
                method: "GET",
                uri: "/dir/index.html",
                clientNonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
            )
        )
        #expect(authorization.hasPrefix("Digest "))
        #expect(authorization.contains("response=\"753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1\""))
        #expect(authorization.contains("opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\""))
        #expect(authorization.contains("qop=auth, nc=00000001"))
    }

    @Test func digestMD5MatchesTheRFC7616Example() throws {
        let authorization = try #require(
            AuthenticationChallenge.authorization(
                for: rfc7616Challenge(algorithm: "MD5"),
                credential: credential,
                method: "GET",
                uri: "/dir/index.html",
                clientNonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
            )
        )
        #expect(authorization.contains("response=\"8ca523f5e9506fed4657c9700eebdbec\""))
    }

    @Test func basicChallengeGetsBasicCredentials() {
        let authorization = AuthenticationChallenge.authorization(
            for: "Basic realm=\"api\"",
            credential: URLCredential(user: "user", password: "passwd", persistence: .none),
            method: "GET",
            uri: "/"
        )
        #expect(authorization == "Basic dXNlcjpwYXNzd2Q=")
    }

    @Test func digestIsPreferredOverBasicWhenBothAreOffered() throws {
        let authorization = try #require(
            AuthenticationChallenge.authorization(
                for: "Basic realm=\"a\", " + rfc7616Challenge(algorithm: "SHA-256"),
                credential: credential,
                method: "GET",
                uri: "/"
            )
        )
        #expect(authorization.hasPrefix("Digest "))
    }

    @Test func unknownSchemesGetNoAnswer() {
        #expect(
            AuthenticationChallenge.authorization(
                for: "Bearer realm=\"x\"",
                credential: credential,
                method: "GET",
                uri: "/"
            ) == nil
        )
        #expect(
            AuthenticationChallenge.authorization(
                for: "Digest realm=\"x\", nonce=\"n\", algorithm=SHA-512-256",
                credential: credential,
                method: "GET",
                uri: "/"
            ) == nil
        )
    }

    @Test func challengesWithQuotedCommasParse() {
        let challenges = AuthenticationChallenge.parse("Digest realm=\"a, b\", nonce=\"n\", Basic realm=\"c\"")
        #expect(challenges.map(\.scheme) == ["digest", "basic"])
        #expect(challenges.first?.parameters["realm"] == "a, b")
        #expect(challenges.last?.parameters["realm"] == "c")
    }
}
