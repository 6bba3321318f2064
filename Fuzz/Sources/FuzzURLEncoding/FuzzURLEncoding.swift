import Foundation
import FuzzSupport
@testable import Moya

/// URLEncoding: whatever the parameters, the query (or body) decodes back to exactly the
/// key/value pairs the documented rules give: keys sorted, `key[nested]` for dictionaries,
/// `arrayEncoding` for arrays, `boolEncoding` for booleans, `"\(value)"` for the rest.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let settings = input.byte()

    let arrayEncoding: URLEncoding.ArrayEncoding
    switch settings & 0b11 {
    case 0: arrayEncoding = .brackets
    case 1: arrayEncoding = .noBrackets
    case 2: arrayEncoding = .indexInBrackets
    default: arrayEncoding = .custom { key, index in "\(key).\(index)" }
    }
    let boolEncoding: URLEncoding.BoolEncoding = settings & 0b100 == 0 ? .numeric : .literal
    let methods: [Moya.Method] = [.get, .head, .delete, .post, .put, .patch]
    let method = methods[Int(settings >> 3) % methods.count]
    let destination: URLEncoding.Destination
    switch (settings >> 6) % 3 {
    case 0: destination = .methodDependent
    case 1: destination = .queryString
    default: destination = .httpBody
    }
    let baseURLs = [
        "https://api.example.test/search",
        "https://api.example.test/search?page=2&q=a%20b",
        "https://api.example.test/search?#top",
        "https://api.example.test/search?x=%26#frag",
        "http://127.0.0.1:8080/",
    ]
    let baseURL = URL(string: baseURLs[input.int(below: baseURLs.count)])!
    let presetContentType = input.bool() ? "text/plain" : nil

    let parameters = input.dictionary(depth: 4)

    let encoding = URLEncoding(destination: destination, arrayEncoding: arrayEncoding, boolEncoding: boolEncoding)
    var request = URLRequest(url: baseURL)
    request.method = method
    if let presetContentType { request.setValue(presetContentType, forHTTPHeaderField: "Content-Type") }

    let encoded: URLRequest
    do {
        encoded = try encoding.encode(request, with: parameters.mapValues(\.any))
    } catch {
        propertyFailed("URLEncoding threw \(error) for \(parameters)")
    }

    var expected: [(String, String)] = []
    for key in parameters.keys.sorted() {
        flatten(key: key, value: parameters[key]!, arrayEncoding: arrayEncoding, boolEncoding: boolEncoding, into: &expected)
    }

    if destination.encodesParametersInURL(for: method) {
        check(encoded.httpBody == nil, "a query encoding set a body")
        guard let url = encoded.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            propertyFailed("the encoded URL does not parse: \(String(describing: encoded.url))")
        }
        let original = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        check(components.scheme == original.scheme && components.host == original.host && components.port == original.port
            && components.percentEncodedPath == original.percentEncodedPath && components.fragment == original.fragment,
            "the URL outside the query changed: \(baseURL) became \(url)")
        // A bare `?` or `&` reads back as one empty item without a value: not a pair.
        var items = (components.queryItems ?? []).map { ($0.name, $0.value) }.filter { !($0.0.isEmpty && $0.1 == nil) }
        let existing = (original.queryItems ?? []).map { ($0.name, $0.value) }.filter { !($0.0.isEmpty && $0.1 == nil) }
        if parameters.isEmpty {
            check(url == baseURL, "empty parameters changed the URL: \(url)")
            return 0
        }
        check(items.count >= existing.count && zip(items, existing).allSatisfy { $0.0 == $0.1 },
            "the existing query \(existing) was not kept at the front of \(items)")
        items.removeFirst(existing.count)
        compare(items.map { ($0.0, $0.1 ?? "<no value>") }, expected, context: "query of \(url.absoluteString)")
    } else {
        check(encoded.url == baseURL, "a body encoding changed the URL")
        let contentType = encoded.value(forHTTPHeaderField: "Content-Type")
        check(contentType == (presetContentType ?? "application/x-www-form-urlencoded; charset=utf-8"),
            "unexpected Content-Type \(String(describing: contentType))")
        guard let body = encoded.httpBody else { propertyFailed("a body encoding set no body") }
        guard let text = String(data: body, encoding: .utf8) else { propertyFailed("the body is not UTF-8") }
        check(text.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F },
            "the form body holds unescaped bytes: \(text.debugDescription)")
        var pairs: [(String, String)] = []
        if !text.isEmpty {
            for field in text.split(separator: "&", omittingEmptySubsequences: false) {
                let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                check(parts.count == 2, "the form field \(field) has no '='")
                guard let name = String(parts[0]).removingPercentEncoding,
                      let value = String(parts[1]).removingPercentEncoding
                else { propertyFailed("the form field \(field) has a broken escape") }
                pairs.append((name, value))
            }
        }
        compare(pairs, expected, context: "body \(text)")
    }
    return 0
}

private func flatten(
    key: String,
    value: FuzzValue,
    arrayEncoding: URLEncoding.ArrayEncoding,
    boolEncoding: URLEncoding.BoolEncoding,
    into pairs: inout [(String, String)]
) {
    switch value {
    case .dictionary(let dictionary):
        for nested in dictionary.keys.sorted() {
            flatten(key: "\(key)[\(nested)]", value: dictionary[nested]!, arrayEncoding: arrayEncoding, boolEncoding: boolEncoding, into: &pairs)
        }
    case .array(let array):
        for (index, element) in array.enumerated() {
            let elementKey: String
            switch arrayEncoding {
            case .brackets: elementKey = "\(key)[]"
            case .noBrackets: elementKey = key
            case .indexInBrackets: elementKey = "\(key)[\(index)]"
            case .custom: elementKey = "\(key).\(index)"
            }
            flatten(key: elementKey, value: element, arrayEncoding: arrayEncoding, boolEncoding: boolEncoding, into: &pairs)
        }
    case .intKeyed(let dictionary) where dictionary.isEmpty:
        // An empty dictionary casts to `[String: Any]` whatever its key type: no pairs.
        break
    case .bool(let bool):
        switch boolEncoding {
        case .numeric: pairs.append((key, bool ? "1" : "0"))
        case .literal: pairs.append((key, bool ? "true" : "false"))
        }
    case .string(let string):
        pairs.append((key, string))
    case .int(let int):
        pairs.append((key, String(int)))
    default:
        pairs.append((key, "\(value.any)"))
    }
}

private func compare(_ actual: [(String, String)], _ expected: [(String, String)], context: @autoclosure () -> String) {
    // Swift compares strings by canonical equivalence; the bytes must match exactly.
    let same = actual.count == expected.count && zip(actual, expected).allSatisfy {
        Array($0.0.0.utf8) == Array($0.1.0.utf8) && Array($0.0.1.utf8) == Array($0.1.1.utf8)
    }
    check(same, "decoded \(actual) but expected \(expected) (\(context()))")
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver, calling `fuzz` with each input.
@_cdecl("FuzzURLEncoding_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { data, count in
        fuzz(data.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!, count)
    }
}
