import Foundation
import NIOHTTP1
import Testing

@testable import Moya

/// `CachedHeaders` and `EntityTag` compare names, connection options and tags byte by byte when
/// they are ASCII, instead of through Unicode lower-casing, trimming and sets. They must keep
/// exactly the fields, and match exactly the tags, that the Unicode versions they replaced did:
/// those are kept here as the reference, and both read the same generated heads, with the
/// characters most likely to tell the two apart.
@Suite("Cached headers against the reference rules")
struct CachedHeadersReferenceTests {
    /// Names a received head can carry: `HTTPHeaders` holds ASCII names only.
    private static let names = [
        "Connection", "connection", "CONNECTION", "Keep-Alive", "X-Foo", "x-foo", "X-Bar", "Set-Cookie", "ETag", "Date",
        "Content-Length", "content-length", "Cache-Control", "Upgrade", "TE", "te", "close", "Proxy-Connection",
        "Age", "age", "x-f`o", "x-k", "X-K", "",
    ]
    /// Names a stored entry read from disk may carry besides: any text.
    private static let storedNames =
        names + ["x-f\u{1FEF}o", "x-foo\u{301}", "\u{212A}eep-Alive", "X-\u{212A}", "\u{130}", "AGE\u{301}"]
    private static let values = [
        "keep-alive", "close", " X-Foo , x-bar ", ",,", " ", "", "X-Foo\u{A0}", "x-f`o", "x-k", "\tx-k\t,te",
        "x-foo\u{301}", "\u{2003}age", "Age, Date", "upgrade", "W/\"a\"", "\"a\"", "1", "x-f\u{1FEF}o",
    ]
    private static let tags = [
        "\"a\"", "W/\"a\"", " W/\"a\" ", "\t\"a\"", "\"a\"\u{A0}", "\u{2003}W/\"a\"", "w/\"a\"", "W/\"b\"", "\"b\"",
        "W/", "", " ", "W/\u{301}\"a\"", "\"a\"\r\n",
    ]

    @Test func storedFieldsAndUpdatesMatchTheReference() {
        var random = SeededRandom(seed: 0xCAC4_E0)
        for _ in 0..<5_000 {
            let received = Self.head(&random)
            let notModified = Self.head(&random)
            let stored = CachedHeaders(storing: received)
            #expect(stored == ReferenceHeaders.storing(received), "\(received)")
            #expect(stored.updated(with: notModified) == ReferenceHeaders.updated(stored, with: notModified))
            let fromDisk = Self.storedFields(&random)
            #expect(fromDisk.updated(with: notModified) == ReferenceHeaders.updated(fromDisk, with: notModified))
            let age = String(random.next() % 100)
            // What a hit serves: the headers parsed when stored, with the current `Age`.
            var served = CachedResponse.Parsed(stored).servedHeaders
            served.add(name: "Age", value: age)
            let expected = ReferenceHeaders.setting(stored, "Age", to: age).httpHeaders()
            #expect(served.map { "\($0.name): \($0.value)" } == expected.map { "\($0.name): \($0.value)" })
        }
    }

    @Test func weakTagComparisonMatchesTheReference() {
        for lhs in Self.tags {
            for rhs in Self.tags {
                let expected = ReferenceHeaders.weakTag(lhs) == ReferenceHeaders.weakTag(rhs)
                #expect(EntityTag.weaklyMatch(lhs, rhs) == expected, "\(lhs.debugDescription) \(rhs.debugDescription)")
            }
        }
    }

    private static func storedFields(_ random: inout SeededRandom) -> CachedHeaders {
        CachedHeaders(
            (0..<Int(random.next() % 8)).map { _ in
                CachedHeaders.Field(
                    name: storedNames[Int(random.next() % UInt64(storedNames.count))],
                    value: values[Int(random.next() % UInt64(values.count))]
                )
            }
        )
    }

    private static func head(_ random: inout SeededRandom) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for _ in 0..<Int(random.next() % 8) {
            let name = names[Int(random.next() % UInt64(names.count))]
            let value = values[Int(random.next() % UInt64(values.count))]
            headers.add(name: name, value: value)
        }
        return headers
    }
}

/// The rules `CachedHeaders` and the weak tag comparison followed before, unchanged.
private enum ReferenceHeaders {
    private static let neverStored: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
        "set-cookie", "set-cookie2",
    ]

    static func storing(_ headers: HTTPHeaders) -> CachedHeaders {
        let connectionOptions = Set(
            headers["connection"].flatMap { $0.split(separator: ",") }.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
        )
        return CachedHeaders(
            headers.compactMap { name, value in
                let lowered = name.lowercased()
                guard !neverStored.contains(lowered), !connectionOptions.contains(lowered) else { return nil }
                return CachedHeaders.Field(name: name, value: value)
            }
        )
    }

    static func updated(_ stored: CachedHeaders, with notModified: HTTPHeaders) -> CachedHeaders {
        let update = storing(notModified).fields.filter {
            !HeaderValidation.isSameName($0.name, "content-length")
        }
        guard !update.isEmpty else { return stored }
        let replaced = Set(update.map { $0.name.lowercased() })
        return CachedHeaders(stored.fields.filter { !replaced.contains($0.name.lowercased()) } + update)
    }

    static func setting(_ stored: CachedHeaders, _ name: String, to value: String) -> CachedHeaders {
        CachedHeaders(
            stored.fields.filter { !HeaderValidation.isSameName($0.name, name) }
                + [CachedHeaders.Field(name: name, value: value)]
        )
    }

    static func weakTag(_ tag: String) -> String {
        let trimmed = tag.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
    }
}
