import Foundation
import FuzzSupport
@testable import Moya

/// JSONEncoding: parameters JSON can hold become a body that `JSONSerialization` reads back
/// to the same tree; anything else (non-finite numbers, dates, nil, non-string keys, a
/// top level that is not an object or array) throws `ParameterEncodingError.invalidJSONObject`
/// instead of trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let settings = input.byte()
    var options: JSONSerialization.WritingOptions = []
    if settings & 1 != 0 { options.insert(.prettyPrinted) }
    if settings & 2 != 0 { options.insert(.sortedKeys) }
    if settings & 4 != 0 { options.insert(.withoutEscapingSlashes) }
    let presetContentType = settings & 8 != 0 ? "application/vnd.api+json" : nil
    let topLevel: FuzzValue
    switch (settings >> 4) % 4 {
    case 0, 1: topLevel = .dictionary(input.dictionary(depth: 5))
    case 2: topLevel = .array(input.array(depth: 5))
    default: topLevel = input.value(depth: 5)
    }

    var request = URLRequest(url: URL(string: "https://api.example.test/items")!)
    request.method = .post
    if let presetContentType { request.setValue(presetContentType, forHTTPHeaderField: "Content-Type") }
    let encoding = JSONEncoding(options: options)

    let encoded: URLRequest
    do {
        if case .dictionary(let parameters) = topLevel, settings & 0x40 == 0 {
            encoded = try encoding.encode(request, with: parameters.mapValues(\.any))
        } else {
            encoded = try encoding.encode(request, withJSONObject: topLevel.any)
        }
    } catch let error as ParameterEncodingError {
        guard case .invalidJSONObject = error else { propertyFailed("unexpected error \(error) for \(topLevel)") }
        check(!isEncodable(topLevel), "valid JSON \(topLevel) was refused: \(error)")
        return 0
    } catch {
        propertyFailed("JSONEncoding threw a \(type(of: error)), not a ParameterEncodingError: \(error)")
    }

    check(isEncodable(topLevel), "\(topLevel) was encoded although JSON cannot hold it")
    check(encoded.value(forHTTPHeaderField: "Content-Type") == (presetContentType ?? "application/json"), "wrong Content-Type")
    guard let body = encoded.httpBody else { propertyFailed("no body") }
    let decoded: Any
    do {
        decoded = try JSONSerialization.jsonObject(with: body, options: [])
    } catch {
        propertyFailed("the body does not parse back: \(error)\n\(String(decoding: body, as: UTF8.self))")
    }
    if let problem = mismatch(decoded, topLevel, path: "$") {
        propertyFailed("the body reads back differently at \(problem)\n\(String(decoding: body, as: UTF8.self))")
    }
    return 0
}

private func isEncodable(_ value: FuzzValue) -> Bool {
    switch value {
    case .array, .dictionary, .intKeyed: return value.isValidJSON
    default: return false
    }
}

/// Where `decoded` differs from `value`, or `nil` when they match.
private func mismatch(_ decoded: Any, _ value: FuzzValue, path: String) -> String? {
    func fail(_ what: String) -> String { "\(path): \(what), read back \(decoded) (\(type(of: decoded)))" }
    switch value {
    case .string(let string):
        guard let read = decoded as? String, Array(read.utf8) == Array(string.utf8) else { return fail("expected \(string.debugDescription)") }
    case .bool(let bool):
        guard let read = decoded as? Bool, read == bool else { return fail("expected \(bool)") }
    case .null:
        guard decoded is NSNull else { return fail("expected null") }
    case .int(let int):
        guard number(decoded) == .integer(String(int)) else { return fail("expected \(int)") }
    case .uint64(let uint):
        guard number(decoded) == .integer(String(uint)) else { return fail("expected \(uint)") }
    case .double(let double):
        guard number(decoded)?.double == double else { return fail("expected \(double)") }
    case .float(let float):
        guard let read = number(decoded)?.double, Float(read) == float else { return fail("expected \(float)") }
    case .number(let nsNumber):
        guard number(decoded)?.double == nsNumber.doubleValue else { return fail("expected \(nsNumber)") }
    case .array(let values):
        guard let read = decoded as? [Any], read.count == values.count else { return fail("expected \(values.count) elements") }
        for (index, pair) in zip(read, values).enumerated() {
            if let problem = mismatch(pair.0, pair.1, path: "\(path)[\(index)]") { return problem }
        }
    case .dictionary(let values):
        guard let read = decoded as? [String: Any], read.count == values.count else { return fail("expected \(values.count) members") }
        for (key, expected) in values {
            guard let element = read[key] else { return fail("missing key \(key.debugDescription)") }
            if let problem = mismatch(element, expected, path: "\(path).\(key)") { return problem }
        }
    case .intKeyed(let values) where values.isEmpty:
        guard let read = decoded as? [String: Any], read.isEmpty else { return fail("expected {}") }
    case .date, .missing, .intKeyed:
        return fail("a value JSON cannot hold was encoded")
    }
    return nil
}

private enum Number: Equatable {
    /// The integer's decimal digits, so that every `Int` and `UInt64` compares exactly.
    case integer(String)
    case floating(Double)

    var double: Double {
        switch self {
        case .integer(let value): return Double(value)!
        case .floating(let value): return value
        }
    }

    static func == (lhs: Number, rhs: Number) -> Bool {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): return a == b
        case let (.integer(a), .floating(b)), let (.floating(b), .integer(a)): return Double(a) == b
        case let (.floating(a), .floating(b)): return a == b
        }
    }
}

/// A number read back by `JSONSerialization`, whatever type it chose for it.
private func number(_ value: Any) -> Number? {
    if type(of: value) == Bool.self { return nil }
    // JSONSerialization reads some numbers (tiny or huge ones) as decimals, whose
    // `doubleValue` is not correctly rounded; their digits are exact.
    if let decimal = value as? NSDecimalNumber {
        return Double(decimal.description).map(Number.floating)
    }
    if let decimal = value as? Decimal {
        return Double(decimal.description).map(Number.floating)
    }
    switch value {
    case let value as Int: return .integer(String(value))
    case let value as Int64: return .integer(String(value))
    case let value as UInt64: return .integer(String(value))
    case let value as Double: return .floating(value)
    case let value as NSNumber: return .floating(value.doubleValue)
    default: return nil
    }
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver, calling `fuzz` with each input.
@_cdecl("FuzzJSONEncoding_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { data, count in
        fuzz(data.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!, count)
    }
}
