import Foundation
import Moya
import Testing

@Suite("URLEncoding")
struct URLEncodingTests {
    private static let baseURL = "https://api.example.test/search"

    private func request(_ method: Moya.Method = .get, url: String = baseURL) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.method = method
        return request
    }

    /// The query exactly as it is written in the URL, escapes included.
    private func rawQuery(_ request: URLRequest) -> String? {
        request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedQuery }
    }

    /// The query's names and values once unescaped.
    private func queryItems(_ request: URLRequest) -> [String] {
        guard let url = request.url, let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        else {
            return []
        }
        return items.map { "\($0.name)=\($0.value ?? "")" }
    }

    private func body(_ request: URLRequest) -> String? {
        request.httpBody.map { String(decoding: $0, as: UTF8.self) }
    }

    private func encodeQuery(_ parameters: Parameters, with encoding: URLEncoding = .queryString) throws -> String? {
        rawQuery(try encoding.encode(request(), with: parameters))
    }

    // MARK: Destinations

    @Test(arguments: [Moya.Method.get, .head, .delete])
    func methodDependentDestinationPutsParametersInTheQueryFor(method: Moya.Method) throws {
        let encoded = try URLEncoding.default.encode(request(method), with: ["q": "swift"])
        #expect(rawQuery(encoded) == "q=swift")
        #expect(encoded.httpBody == nil)
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test(arguments: [Moya.Method.post, .put, .patch, .options])
    func methodDependentDestinationPutsParametersInTheBodyFor(method: Moya.Method) throws {
        let encoded = try URLEncoding.default.encode(request(method), with: ["q": "swift"])
        #expect(encoded.url?.absoluteString == Self.baseURL)
        #expect(body(encoded) == "q=swift")
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func queryStringDestinationUsesTheQueryEvenForPost() throws {
        let encoded = try URLEncoding.queryString.encode(request(.post), with: ["q": "swift"])
        #expect(rawQuery(encoded) == "q=swift")
        #expect(encoded.httpBody == nil)
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test func httpBodyDestinationUsesTheBodyEvenForGet() throws {
        let encoded = try URLEncoding.httpBody.encode(request(.get), with: ["q": "swift"])
        #expect(encoded.url?.absoluteString == Self.baseURL)
        #expect(body(encoded) == "q=swift")
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func aRequestWithoutMethodIsTreatedAsGet() throws {
        var bare = URLRequest(url: URL(string: Self.baseURL)!)
        bare.httpMethod = nil
        let encoded = try URLEncoding.default.encode(bare, with: ["q": "swift"])
        #expect(rawQuery(encoded) == "q=swift")
        #expect(encoded.httpBody == nil)
    }

    // MARK: Arrays and booleans

    @Test func arrayParametersUseBracketsByDefault() throws {
        let encoded = try URLEncoding.queryString.encode(request(), with: ["ids": [1, 2, 3]])
        #expect(rawQuery(encoded) == "ids%5B%5D=1&ids%5B%5D=2&ids%5B%5D=3")
        #expect(queryItems(encoded) == ["ids[]=1", "ids[]=2", "ids[]=3"])
    }

    @Test func noBracketsArrayEncodingRepeatsTheKey() throws {
        let encoding = URLEncoding(destination: .queryString, arrayEncoding: .noBrackets)
        #expect(try encodeQuery(["ids": [1, 2, 3]], with: encoding) == "ids=1&ids=2&ids=3")
    }

    @Test func indexInBracketsArrayEncodingNumbersTheElements() throws {
        let encoding = URLEncoding(destination: .queryString, arrayEncoding: .indexInBrackets)
        let encoded = try encoding.encode(request(), with: ["ids": ["a", "b"]])
        #expect(rawQuery(encoded) == "ids%5B0%5D=a&ids%5B1%5D=b")
        #expect(queryItems(encoded) == ["ids[0]=a", "ids[1]=b"])
    }

    @Test func customArrayEncodingNamesEachElement() throws {
        let encoding = URLEncoding(
            destination: .queryString,
            arrayEncoding: .custom { key, index in "\(key).\(index + 1)" }
        )
        #expect(try encodeQuery(["ids": ["a", "b"]], with: encoding) == "ids.1=a&ids.2=b")
    }

    @Test func emptyArraysContributeNothing() throws {
        #expect(try encodeQuery(["ids": [Int](), "q": "x"]) == "q=x")
    }

    @Test func booleansAreNumericByDefault() throws {
        #expect(try encodeQuery(["off": false, "on": true]) == "off=0&on=1")
    }

    @Test func literalBoolEncodingWritesTrueAndFalse() throws {
        let encoding = URLEncoding(destination: .queryString, boolEncoding: .literal)
        #expect(try encodeQuery(["off": false, "on": true], with: encoding) == "off=false&on=true")
    }

    @Test func integersOneAndZeroAreNotTakenForBooleans() throws {
        let encoding = URLEncoding(destination: .queryString, boolEncoding: .literal)
        #expect(try encodeQuery(["one": 1, "zero": 0], with: encoding) == "one=1&zero=0")
    }

    @Test func booleansInsideArraysFollowTheBoolEncoding() throws {
        let encoding = URLEncoding(destination: .queryString, arrayEncoding: .noBrackets, boolEncoding: .literal)
        #expect(try encodeQuery(["flags": [true, false]], with: encoding) == "flags=true&flags=false")
    }

    @Test func numbersAreWrittenInTheirPlainForm() throws {
        #expect(try encodeQuery(["int": -42, "double": 1.5]) == "double=1.5&int=-42")
    }

    // MARK: Nesting and order

    @Test func nestedDictionariesUseBracketedKeys() throws {
        let encoded = try URLEncoding.queryString.encode(request(), with: ["a": ["b": "c"]])
        #expect(rawQuery(encoded) == "a%5Bb%5D=c")
        #expect(queryItems(encoded) == ["a[b]=c"])
    }

    @Test func deeplyNestedValuesChainTheirKeys() throws {
        let encoded = try URLEncoding.queryString.encode(
            request(),
            with: ["user": ["address": ["city": "Oslo"], "tags": ["x", "y"]]]
        )
        #expect(queryItems(encoded) == ["user[address][city]=Oslo", "user[tags][]=x", "user[tags][]=y"])
    }

    @Test func dictionariesInsideArraysKeepTheArrayKey() throws {
        let encoded = try URLEncoding.queryString.encode(request(), with: ["items": [["id": 1], ["id": 2]]])
        #expect(queryItems(encoded) == ["items[][id]=1", "items[][id]=2"])
    }

    @Test func keysAreSortedAtEveryLevel() throws {
        let encoded = try URLEncoding.queryString.encode(
            request(),
            with: ["zeta": 1, "alpha": 2, "mid": ["z": 1, "b": 2, "m": 3]]
        )
        #expect(queryItems(encoded) == ["alpha=2", "mid[b]=2", "mid[m]=3", "mid[z]=1", "zeta=1"])
    }

    @Test func equalParametersAlwaysGiveTheSameBytes() throws {
        var parameters: Parameters = [:]
        for index in 0..<50 {
            parameters["key\(index)"] = index
        }
        let first = try URLEncoding.httpBody.encode(request(.post), with: parameters).httpBody
        let second = try URLEncoding.httpBody.encode(request(.post), with: parameters).httpBody
        #expect(first == second)
        #expect(
            body(try URLEncoding.httpBody.encode(request(.post), with: parameters))?.hasPrefix(
                "key0=0&key1=1&key10=10&"
            ) == true
        )
    }

    // MARK: Escaping

    @Test func reservedCharactersInValuesAreEscaped() throws {
        #expect(try encodeQuery(["v": "a&b=c+d#e"]) == "v=a%26b%3Dc%2Bd%23e")
    }

    @Test func reservedCharactersInKeysAreEscaped() throws {
        #expect(try encodeQuery(["a&b=c": "1"]) == "a%26b%3Dc=1")
    }

    @Test func spacesAreEncodedAsPercent20NotPlus() throws {
        let encoded = try URLEncoding.httpBody.encode(request(.post), with: ["q": "hello big world"])
        #expect(body(encoded) == "q=hello%20big%20world")
    }

    @Test func questionMarkAndSlashStayUnescapedAsRFC3986Allows() throws {
        #expect(try encodeQuery(["path": "a/b?c"]) == "path=a/b?c")
    }

    @Test func everyGeneralAndSubDelimiterIsEscaped() {
        let escaped = URLEncoding.default.escape(":#[]@!$&'()*+,;=")
        #expect(escaped == "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D")
    }

    @Test func unreservedCharactersAreNotEscaped() {
        let unreserved = "abcXYZ019-._~"
        #expect(URLEncoding.default.escape(unreserved) == unreserved)
    }

    @Test func unicodeIsPercentEncodedAsUTF8() throws {
        #expect(try encodeQuery(["q": "café 🐶"]) == "q=caf%C3%A9%20%F0%9F%90%B6")
    }

    @Test func percentSignsAreEscapedSoValuesAreNotDecodedTwice() throws {
        let encoded = try URLEncoding.queryString.encode(request(), with: ["q": "100%25"])
        #expect(rawQuery(encoded) == "q=100%2525")
        #expect(queryItems(encoded) == ["q=100%25"])
    }

    @Test func queryComponentsReturnsEscapedPairs() {
        let components = URLEncoding.default.queryComponents(fromKey: "a b", value: ["c": "d&e"])
        #expect(components.map { "\($0.0)=\($0.1)" } == ["a%20b%5Bc%5D=d%26e"])
    }

    // MARK: Existing request

    @Test func parametersAreAppendedToAnExistingQuery() throws {
        let encoded = try URLEncoding.queryString.encode(
            request(url: Self.baseURL + "?page=2&sort=asc"),
            with: ["q": "x y"]
        )
        #expect(rawQuery(encoded) == "page=2&sort=asc&q=x%20y")
    }

    @Test func anExistingFragmentSurvivesTheQuery() throws {
        let encoded = try URLEncoding.queryString.encode(request(url: Self.baseURL + "#top"), with: ["q": "x"])
        #expect(encoded.url?.absoluteString == Self.baseURL + "?q=x#top")
    }

    @Test func anExistingContentTypeIsKept() throws {
        var original = request(.post)
        original.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let encoded = try URLEncoding.default.encode(original, with: ["q": "x"])
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(body(encoded) == "q=x")
    }

    @Test func otherHeadersAndTheMethodAreKept() throws {
        var original = request(.put)
        original.setValue("yes", forHTTPHeaderField: "X-Keep")
        let encoded = try URLEncoding.default.encode(original, with: ["q": "x"])
        #expect(encoded.value(forHTTPHeaderField: "X-Keep") == "yes")
        #expect(encoded.httpMethod == "PUT")
    }

    @Test(arguments: [URLEncoding.Destination.methodDependent, .queryString, .httpBody])
    func nilParametersLeaveTheRequestAlone(destination: URLEncoding.Destination) throws {
        let original = request(.post, url: Self.baseURL + "?page=1")
        let encoded = try URLEncoding(destination: destination).encode(original, with: nil)
        #expect(encoded.url == original.url)
        #expect(encoded.httpBody == nil)
        #expect(encoded.allHTTPHeaderFields ?? [:] == original.allHTTPHeaderFields ?? [:])
    }

    @Test func emptyParametersLeaveTheURLAlone() throws {
        let url = Self.baseURL + "?page=1"
        let encoded = try URLEncoding.queryString.encode(request(url: url), with: [:])
        #expect(encoded.url?.absoluteString == url)
        let bare = try URLEncoding.queryString.encode(request(), with: [:])
        #expect(bare.url?.absoluteString == Self.baseURL)
    }

    @Test func emptyBodyParametersGiveAnEmptyFormAsAlamofireDoes() throws {
        let encoded = try URLEncoding.httpBody.encode(request(.post), with: [:])
        #expect(encoded.httpBody == Data())
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func queryParametersWithoutURLThrowMissingURL() {
        var original = request()
        original.url = nil
        #expect {
            try URLEncoding.queryString.encode(original, with: ["q": "x"])
        } throws: { error in
            guard case .missingURL? = error as? ParameterEncodingError else { return false }
            return true
        }
    }
}
