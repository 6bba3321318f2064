import Foundation
import Testing

@testable import Moya

/// `URLEncoding` writes exactly the bytes of the straightforward version of its rules, kept
/// here as the reference: Foundation's `addingPercentEncoding` for the escapes, `"\(value)"`
/// for the values, `URLComponents` to put the query into the URL.
@Suite("URLEncoding against its reference")
struct URLEncodingReferenceTests {
    private static let baseURLs = [
        "https://api.example.test/search",
        "https://api.example.test",
        "https://api.example.test/search?page=2&q=a%20b",
        "https://api.example.test/search?",
        "https://api.example.test/search?#top",
        "https://api.example.test/search#frag",
        "https://api.example.test/search?x=%26#frag",
        "http://user:secret@127.0.0.1:8080/a%20b/",
        "http://[::1]:8080/v1/items",
        "https://API.Example.test:443/%7Euser/caf%C3%A9",
    ]

    private static let arrayEncodings: [URLEncoding.ArrayEncoding] = [
        .brackets, .noBrackets, .indexInBrackets, .custom { key, index in "\(key).\(index)" },
    ]

    @Test func everyScalarIsEscapedAsFoundationEscapesIt() {
        var mismatches: [String] = []
        var chunk = ""
        func check() {
            if URLEncoding.default.escape(chunk) != Reference.escape(chunk) {
                mismatches.append(chunk)
            }
            chunk = ""
        }
        for value in UInt32(0)...0x10FFFF where value < 0xD800 || value > 0xDFFF {
            // Every scalar of the first planes, then a sample of the others.
            guard value < 0x20000 || value % 61 == 0, let scalar = Unicode.Scalar(value) else { continue }
            chunk.unicodeScalars.append(scalar)
            if chunk.unicodeScalars.count == 64 { check() }
        }
        check()
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3).map(\.debugDescription))")
    }

    @Test func everyASCIIByteKeepsOrLosesItsEscapeAsFoundationDecides() {
        for byte in UInt8(0)..<128 {
            let string = String(UnicodeScalar(byte))
            #expect(URLEncoding.default.escape(string) == Reference.escape(string), "byte \(byte)")
        }
    }

    @Test func queriesAndBodiesAreByteForByteTheReferences() throws {
        var generator = ParameterGenerator(seed: 0x5EED)
        for round in 0..<240 {
            let parameters = generator.parameters(depth: 3)
            let arrayEncoding = Self.arrayEncodings[round % Self.arrayEncodings.count]
            let boolEncoding: URLEncoding.BoolEncoding = round % 3 == 0 ? .literal : .numeric
            let baseURL = Self.baseURLs[round % Self.baseURLs.count]
            let reference = Reference(arrayEncoding: arrayEncoding, boolEncoding: boolEncoding)

            let query = URLEncoding(destination: .queryString, arrayEncoding: arrayEncoding, boolEncoding: boolEncoding)
            let request = try query.encode(URLRequest(url: try #require(URL(string: baseURL))), with: parameters)
            let expectedURL = try reference.url(appending: parameters, to: try #require(URL(string: baseURL)))
            #expect(request.url?.absoluteString == expectedURL.absoluteString, "round \(round)")
            #expect(request.url == expectedURL, "round \(round)")

            let body = URLEncoding(destination: .httpBody, arrayEncoding: arrayEncoding, boolEncoding: boolEncoding)
            var post = URLRequest(url: try #require(URL(string: baseURL)))
            post.httpMethod = "POST"
            let encoded = try body.encode(post, with: parameters)
            #expect(encoded.httpBody == Data(reference.query(parameters).utf8), "round \(round)")
            #expect(encoded.url == post.url)
        }
    }

    /// Found by fuzzing: `description` writes "nan" where interpolation writes the payload.
    @Test func aNaNWithAPayloadIsWrittenAsInterpolationWritesIt() throws {
        let value = -Double(nan: 0x1ff7_3676_174ff, signaling: false)
        let pairs = URLEncoding.default.queryComponents(fromKey: "x", value: [value, Float.nan] as [Any])
        let reference = Reference(arrayEncoding: .brackets, boolEncoding: .numeric)
        #expect(pairs.map(\.1) == reference.components(key: "x", value: [value, Float.nan] as [Any]).map(\.1))
        #expect(pairs.first?.1 == URLEncoding.default.escape("\(value)"))
    }

    @Test func queryComponentsAreTheReferencePairs() {
        var generator = ParameterGenerator(seed: 42)
        for round in 0..<120 {
            let arrayEncoding = Self.arrayEncodings[round % Self.arrayEncodings.count]
            let encoding = URLEncoding(
                arrayEncoding: arrayEncoding,
                boolEncoding: round.isMultiple(of: 2) ? .literal : .numeric
            )
            let reference = Reference(arrayEncoding: arrayEncoding, boolEncoding: encoding.boolEncoding)
            let key = generator.string()
            let value = generator.value(depth: 2)
            let actual = encoding.queryComponents(fromKey: key, value: value).map { "\($0.0)=\($0.1)" }
            let expected = reference.components(key: key, value: value).map { "\($0.0)=\($0.1)" }
            #expect(actual == expected, "round \(round)")
        }
    }
}

/// The rules written plainly, as `URLEncoding` implemented them before it was optimised.
private struct Reference {
    let arrayEncoding: URLEncoding.ArrayEncoding
    let boolEncoding: URLEncoding.BoolEncoding

    static let allowed: CharacterSet = {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: ":#[]@!$&'()*+,;=")
        return allowed
    }()

    static func escape(_ string: String) -> String {
        string.addingPercentEncoding(withAllowedCharacters: allowed) ?? string
    }

    func components(key: String, value: Any) -> [(String, String)] {
        switch value {
        case let dictionary as [String: Any]:
            return dictionary.keys.sorted().flatMap { nestedKey in
                dictionary[nestedKey].map { components(key: "\(key)[\(nestedKey)]", value: $0) } ?? []
            }
        case let array as [Any]:
            return array.enumerated().flatMap {
                components(key: arrayEncoding.encode(key: key, atIndex: $0), value: $1)
            }
        default:
            if let bool = BooleanValue.of(value) {
                return [(Self.escape(key), Self.escape(boolEncoding.encode(bool)))]
            }
            return [(Self.escape(key), Self.escape("\(value)"))]
        }
    }

    func query(_ parameters: [String: Any]) -> String {
        parameters.keys.sorted()
            .flatMap { key in parameters[key].map { components(key: key, value: $0) } ?? [] }
            .map { "\($0)=\($1)" }
            .joined(separator: "&")
    }

    func url(appending parameters: [String: Any], to url: URL) throws -> URL {
        guard !parameters.isEmpty else { return url }
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        let query = query(parameters)
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + query
        } else {
            components.percentEncodedQuery = query
        }
        return try #require(components.url)
    }
}

/// Parameter trees of every kind `URLEncoding` meets, from a fixed seed (SplitMix64).
private struct ParameterGenerator {
    private var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    mutating func next() -> UInt64 {
        random.next()
    }

    mutating func below(_ bound: Int) -> Int {
        random.below(bound)
    }

    private static let pieces = [
        "a", "Z", "0", " ", "&", "=", "+", "#", "?", "/", "%", "%25", "[", "]", "~", "-", ".", "_", "!", "*",
        "'", "(", ")", ";", ":", "@", "$", ",", "\"", "<", ">", "\\", "^", "`", "{", "|", "}", "\t", "\r\n", "\0",
        "\u{7F}", "é", "e\u{301}", "ü", "ß", "中文", "🐶", "👩‍👩‍👧", "\u{FEFF}", "\u{10FFFF}", "value", "key",
    ]

    /// A NaN whose payload and sign show in `"\(value)"` but not in `description`.
    static let payloadNaN = -Double(nan: 0x1ff7_3676_174ff, signaling: false)

    mutating func string() -> String {
        (0..<below(6)).map { _ in Self.pieces[below(Self.pieces.count)] }.joined()
    }

    mutating func value(depth: Int) -> Any {
        switch below(depth > 0 ? 24 : 18) {
        case 0, 1, 2: return string()
        case 3: return Int(bitPattern: UInt(truncatingIfNeeded: next())) >> below(64)
        case 4: return [0.75, -0.0, 1e300, 1e-7, 3, .nan, .infinity, 0.1 + 0.2, Self.payloadNaN][below(9)]
        case 5: return below(2) == 0
        case 6: return Float(below(1000)) / 8
        case 7: return Int64(below(100)) - 50
        case 8: return UInt8(below(256))
        case 9: return NSNumber(value: below(5))
        case 10: return NSNumber(value: Double(below(100)) / 4)
        case 11: return NSNumber(value: below(2) == 0)
        case 12: return NSString(string: string())
        case 13: return NSNull()
        case 14: return Int?.none as Any
        case 15: return Optional(string()) as Any
        case 16: return Date(timeIntervalSince1970: Double(below(100_000)))
        case 17: return Character("x")
        case 18, 19: return (0..<below(4)).map { _ in value(depth: depth - 1) }
        case 20, 21: return parameters(depth: depth - 1)
        case 22: return ["k": string(), "j": string()] as [String: String]
        default:
            // An empty dictionary casts to `[String: Any]` whatever its key type; others do not.
            var intKeyed: [Int: Any] = [:]
            for _ in 0..<below(2) { intKeyed[below(9)] = value(depth: depth - 1) }
            return intKeyed
        }
    }

    mutating func parameters(depth: Int) -> [String: Any] {
        var parameters: [String: Any] = [:]
        for _ in 0..<below(8) {
            parameters[string()] = value(depth: depth)
        }
        return parameters
    }
}
