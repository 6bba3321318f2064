import Foundation

/// Receives the key/value pairs of a query, unescaped, in order.
protocol QuerySink {
    mutating func append(key: String, value: String)
}

/// Flattens parameters into key/value pairs by `URLEncoding`'s rules: keys sorted at every
/// level, `key[nested]` for dictionaries, `arrayEncoding` for arrays, `boolEncoding` for
/// booleans and `"\(value)"` for every other value.
struct QueryFlattener {
    let arrayEncoding: URLEncoding.ArrayEncoding
    let boolEncoding: URLEncoding.BoolEncoding

    /// The escaped query of `parameters`: `key=value` pairs joined by `&`.
    func query(_ parameters: [String: Any]) -> String {
        var query = EscapedQuery()
        flatten(parameters, into: &query)
        return query.string
    }

    /// Hands every pair of `parameters` to `sink`, the keys sorted.
    func flatten<Sink: QuerySink>(_ parameters: [String: Any], into sink: inout Sink) {
        // Sorting the pairs rather than the keys saves looking each value up again; the keys
        // of a dictionary are unique, so the order is the same.
        for (key, value) in parameters.sorted(by: { $0.key < $1.key }) {
            flatten(key: key, value: value, into: &sink)
        }
    }

    /// Hands the pairs of one parameter to `sink`, recursing into dictionaries and arrays.
    func flatten<Sink: QuerySink>(key: String, value: Any, into sink: inout Sink) {
        if let text = Self.commonLeafText(value, boolEncoding: boolEncoding) {
            sink.append(key: key, value: text)
            return
        }
        switch value {
        case let dictionary as [String: Any]:
            for (nestedKey, nestedValue) in dictionary.sorted(by: { $0.key < $1.key }) {
                flatten(key: "\(key)[\(nestedKey)]", value: nestedValue, into: &sink)
            }
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                flatten(key: arrayEncoding.encode(key: key, atIndex: index), value: element, into: &sink)
            }
        default:
            if let bool = BooleanValue.of(value) {
                sink.append(key: key, value: boolEncoding.encode(bool))
            } else {
                sink.append(key: key, value: "\(value)")
            }
        }
    }

    /// The text of a `String`, `Int`, `Double` or `Bool` (exactly those types), written as the
    /// general rules would write it; `nil` for any other value.
    ///
    /// Most parameters are of these types. Testing the dynamic type first spares them the
    /// casts to a dictionary and to an array, which bridging makes slow, and the conformance
    /// lookups of `"\(value)"`.
    private static func commonLeafText(_ value: Any, boolEncoding: URLEncoding.BoolEncoding) -> String? {
        let type = type(of: value)
        if type == String.self {
            return value as? String
        }
        // Interpolated, not `description`: they differ for a NaN with a payload ("-nan(0x1f)"
        // against "nan"), and the general rule is interpolation.
        if type == Int.self, let int = value as? Int {
            return "\(int)"
        }
        if type == Double.self, let double = value as? Double {
            return "\(double)"
        }
        if type == Bool.self, let bool = value as? Bool {
            return boolEncoding.encode(bool)
        }
        return nil
    }
}

/// Pairs escaped as they come, written straight into one buffer.
private struct EscapedQuery: QuerySink {
    private var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(256)
    }

    mutating func append(key: String, value: String) {
        if !bytes.isEmpty {
            bytes.append(UInt8(ascii: "&"))
        }
        QueryEscaping.append(escaping: key, to: &bytes)
        bytes.append(UInt8(ascii: "="))
        QueryEscaping.append(escaping: value, to: &bytes)
    }

    /// Every byte is ASCII: the escapes leave nothing else.
    var string: String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// Pairs escaped one by one, for `URLEncoding.queryComponents(fromKey:value:)`.
struct EscapedPairs: QuerySink {
    var pairs: [(String, String)] = []

    mutating func append(key: String, value: String) {
        pairs.append((QueryEscaping.escape(key), QueryEscaping.escape(value)))
    }
}
