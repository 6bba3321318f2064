import Foundation
import Testing

@testable import Moya

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A revalidation's validators are added in one change of the request's headers; the request
/// must come out as two `setValue(_:forHTTPHeaderField:)` calls leave it, whatever the values.
@Suite("A revalidation's conditional headers")
struct ConditionalHeadersTests {
    static let values: [String?] = [
        nil, "\"6b058382-3e8\"", "W/\"a\"", "Tue, 24 Nov 2026 12:30:58 GMT", "", "a\r\nb", "a\r\n b", "a\0b", "a\nb",
        "\r\n", "é\u{301}",
    ]

    @Test(arguments: [[:], ["Accept": "application/json", "if-none-matchx": "1"]])
    func theHeadersAreTheOnesTwoSetValueCallsLeave(existing: [String: String]) throws {
        var base = URLRequest(url: try #require(URL(string: "https://api.example.com/v1/users")))
        base.allHTTPHeaderFields = existing.isEmpty ? nil : existing
        for entityTag in Self.values {
            for lastModified in Self.values {
                var expected = base
                if let entityTag {
                    expected.setValue(entityTag, forHTTPHeaderField: "If-None-Match")
                }
                if let lastModified {
                    expected.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
                }
                var request = base
                request.addValidators(entityTag: entityTag, lastModified: lastModified)
                #expect(
                    request.allHTTPHeaderFields == expected.allHTTPHeaderFields,
                    "\(String(describing: entityTag)) \(String(describing: lastModified))"
                )
                #expect(request == expected)
            }
        }
    }

    /// A request with validators of its own expects the server's answer to them, so the cache
    /// looks for every conditional header, in any case, and for nothing else.
    @Test func aRequestsOwnConditionalHeaderIsFoundWhateverItsCase() throws {
        let base = URLRequest(url: try #require(URL(string: "https://api.example.com/v1/users")))
        #expect(!CacheRun.hasConditionalHeader(base))
        for name in CacheRun.conditionalHeaders + ["if-none-match", "IF-RANGE", "if-Match"] {
            var request = base
            request.setValue("x", forHTTPHeaderField: name)
            #expect(CacheRun.hasConditionalHeader(request), "\(name)")
        }
        var unrelated = base
        unrelated.allHTTPHeaderFields = ["If-None-Matches": "x", "Accept": "*/*", "Range": "bytes=0-1"]
        #expect(!CacheRun.hasConditionalHeader(unrelated))
    }
}
