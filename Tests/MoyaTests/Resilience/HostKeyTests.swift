import Foundation
import Testing

@testable import Moya

@Suite struct HostKeyTests {
    /// URLs the key is read from the text of, with the key Foundation's reading gives.
    static let plainURLs = [
        ("http://127.0.0.1:39381/json", "http://127.0.0.1:39381"),
        ("HTTPS://API.Example.COM/v1?x=1", "https://api.example.com:443"),
        ("http://example.com", "http://example.com:80"),
        ("https://example.com:8443#top", "https://example.com:8443"),
        ("wss://example.com/socket", "wss://example.com:80"),
        ("hxxps://example.com/", "hxxps://example.com:80"),
        ("http://example.com:0/", "http://example.com:0"),
        // Foundation keeps an international host in its ASCII form.
        ("http://bücher.example/", "http://xn--bcher-kva.example:80"),
    ]

    @Test(arguments: plainURLs)
    func theKeyReadFromAPlainURLsTextIsFoundationsKey(url: String, key: String) throws {
        let url = try #require(URL(string: url))
        #expect(HostKey.plain(url.absoluteString) == key)
        #expect(HostKey.parsed(url) == key)
        #expect(ResiliencePolicies.hostKey(URLRequest(url: url)) == key)
    }

    @Test(arguments: [
        "http://user:secret@example.com/", "http://ex%61mple.com/", "http://[::1]:8080/",
        "http://example.com:0080/", "http://example.com:/", "mailto:a@example.com",
    ])
    func aURLTheTextPathDoesNotReadIsLeftToFoundation(url: String) throws {
        let url = try #require(URL(string: url))
        #expect(HostKey.plain(url.absoluteString) == nil)
        #expect(HostKey.of(url) == HostKey.parsed(url))
    }

    @Test func aRelativeURLIsKeyedByItsResolvedHost() throws {
        let base = try #require(URL(string: "https://Example.com:8443/api/"))
        let url = try #require(URL(string: "v1/users", relativeTo: base))
        #expect(HostKey.of(url) == "https://example.com:8443")
    }
}
