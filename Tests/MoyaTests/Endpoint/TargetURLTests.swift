import Foundation
import Testing

@testable import Moya

/// The default endpoint's URL string is built without Foundation's `appendingPathComponent` when
/// that is plain concatenation; it must always be the string Foundation would make.
@Suite("A target's URL string")
struct TargetURLTests {
    static let bases = [
        "https://h", "https://h/", "https://h/v1", "https://h/v1/", "http://h:8080/a/b", "https://u:p@h/v1",
        "https://h/v%201", "https://h//x", "https://h/v1//", "https://h/v1?x=1", "https://h/v1#top",
        "ftp://h/files", "file:///tmp", "HTTPS://H/V1",
    ]
    static let paths = [
        "users", "/users", "users/", "/users/", "a/b", "/a//b", "//a", "a b", "a?b", "x#y", "%41", "é", ".", "..",
        "a/./b", "a/../b", "~x", "a:b", "@", "a;b", "a+b", "a=b", "a!b", "(a)", "a,b", "a'b", "a*b", "a$b", "a&b",
        "users/octocat/repos", "/zen", "", "/", "//",
    ]

    @Test(arguments: bases)
    func theStringIsFoundationsForEveryPath(base: String) throws {
        let baseURL = try #require(URL(string: base))
        for path in Self.paths {
            let expected = path.isEmpty ? baseURL.absoluteString : baseURL.appendingPathComponent(path).absoluteString
            #expect(TargetURL.string(baseURL: baseURL, path: path) == expected, "\(base) + \(path)")
        }
    }

    @Test func theSimpleJoinMatchesFoundationForRandomPaths() throws {
        // Characters the simple join accepts, and some it must refuse.
        let alphabet = Array("abcXYZ019-._~/:@ ?#%é;=")
        var generator = SystemRandomNumberGenerator()
        for base in ["https://api.example.com", "https://api.example.com/v1/", "http://127.0.0.1:8080/a"] {
            let baseURL = try #require(URL(string: base))
            for _ in 0..<300 {
                let length = Int.random(in: 1...12, using: &generator)
                let path = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
                let expected = baseURL.appendingPathComponent(path).absoluteString
                #expect(TargetURL.string(baseURL: baseURL, path: path) == expected, "\(base) + \(path)")
            }
        }
    }

    @Test func aRelativeBaseURLIsResolvedAsFoundationResolvesIt() throws {
        let root = try #require(URL(string: "https://api.example.com/root/"))
        let baseURL = try #require(URL(string: "v1", relativeTo: root))
        #expect(
            TargetURL.string(baseURL: baseURL, path: "users") == baseURL.appendingPathComponent("users").absoluteString
        )
    }

    @Test func anAbsoluteHTTPBaseWithASimplePathIsJoinedWithoutFoundation() {
        #expect(
            TargetURL.simpleJoin(base: "https://api.example.com/v1/", path: "/users/octocat", isRelative: false)
                == "https://api.example.com/v1/users/octocat"
        )
        #expect(TargetURL.simpleJoin(base: "https://h/v1", path: "a b", isRelative: false) == nil)
        #expect(TargetURL.simpleJoin(base: "https://h/v1?q=1", path: "a", isRelative: false) == nil)
        #expect(TargetURL.simpleJoin(base: "file:///tmp", path: "a", isRelative: false) == nil)
        #expect(TargetURL.simpleJoin(base: "https://h/v1", path: "a", isRelative: true) == nil)
    }

    @Test func theByteJoinMakesTheStringTheCharacterJoinMade() {
        let bases =
            Self.bases + [
                "https://", "http://", "https:/", "https://h//", "https://b\u{FC}cher.example/v1", "https://h/\u{301}",
                "https:/\u{301}/h", "http://h/a\u{301}/",
            ]
        for base in bases {
            for path in Self.paths + ["/users", "a/b/", "//", "/"] {
                #expect(
                    TargetURL.simpleJoin(base: base, path: path, isRelative: false)
                        == Self.characterJoin(base: base, path: path),
                    "\(base) + \(path)"
                )
            }
        }
    }

    /// The join as it was written on characters, before it read bytes.
    private static func characterJoin(base: String, path: String) -> String? {
        let keptAsIs = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/:@".utf8)
        guard base.hasPrefix("https://") || base.hasPrefix("http://"),
            !base.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
            !base.hasSuffix("//"),
            path.utf8.allSatisfy(keptAsIs.contains)
        else { return nil }
        let trimmedBase = base.hasSuffix("/") ? base.dropLast() : Substring(base)
        let trimmedPath = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        return String(trimmedBase) + "/" + trimmedPath
    }
}
