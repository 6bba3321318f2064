import Foundation
import FuzzSupport
@testable import Moya

/// Response mapping on arbitrary bytes: `mapJSON`, `mapString` and `map(_:atKeyPath:)` never
/// trap and throw only `MoyaError`s of the documented cases; `mapJSON` and `mapString()`
/// succeed exactly when the bytes are JSON or UTF-8; a key path walks nested objects as the
/// documentation says, checked against a walk over the whole body decoded on its own.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let settings = input.byte()
    let failsOnEmptyData = settings & 1 == 0
    let keyPath: String? = settings & 2 == 0 ? nil : input.string()
    let statusCode = 100 + Int(input.byte()) * 2
    let data = Data(input.rest())
    let response = Response(statusCode: statusCode, data: data)

    // Status filters.
    do {
        _ = try response.filterSuccessfulStatusCodes()
        check((200...299).contains(statusCode), "filterSuccessfulStatusCodes let \(statusCode) through")
    } catch {
        guard case MoyaError.statusCode(let failed) = error, failed === response else { propertyFailed("filter threw \(error)") }
        check(!(200...299).contains(statusCode), "filterSuccessfulStatusCodes refused \(statusCode)")
    }

    // mapJSON succeeds exactly when JSONSerialization reads the bytes (or they are empty and
    // allowed to be).
    let json: Any?
    do {
        json = try response.mapJSON(failsOnEmptyData: failsOnEmptyData)
        check(!data.isEmpty || !failsOnEmptyData, "mapJSON accepted empty data")
    } catch {
        expectMoyaError(error, response) { if case .jsonMapping = $0 { return true } else { return false } }
        json = nil
    }
    let serializationAccepts = (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
    if !data.isEmpty {
        check((json != nil) == serializationAccepts, "mapJSON disagrees with JSONSerialization")
    }

    // mapString() succeeds exactly on UTF-8.
    do {
        let string = try response.mapString()
        check(Array(string.utf8) == Array(data), "mapString changed the bytes")
    } catch {
        expectMoyaError(error, response) { if case .stringMapping = $0 { return true } else { return false } }
        check(String(validating: Array(data), as: UTF8.self) == nil, "mapString refused valid UTF-8")
    }

    // mapString(atKeyPath:) finds a string where the walk does.
    if let keyPath {
        do {
            let string = try response.mapString(atKeyPath: keyPath)
            guard let json, case let found as String = walk(json, keyPath) else {
                propertyFailed("mapString(atKeyPath:) found \(string.debugDescription) where there is no string")
            }
            check(found == string, "mapString(atKeyPath:) returned \(string) instead of \(found)")
        } catch {
            expectMoyaError(error, response) {
                switch $0 {
                case .jsonMapping, .stringMapping: return true
                default: return false
                }
            }
        }
    }

    // Decoding into several shapes only throws .jsonMapping or .objectMapping.
    decode(JSONValue.self, response, keyPath, failsOnEmptyData)
    decode(Item.self, response, keyPath, failsOnEmptyData)
    decode([Item].self, response, keyPath, failsOnEmptyData)
    decode([String: Int].self, response, keyPath, failsOnEmptyData)
    decode(String.self, response, keyPath, failsOnEmptyData)
    decode(Double.self, response, keyPath, failsOnEmptyData)
    decode(Bool?.self, response, keyPath, failsOnEmptyData)
    decode(Empty.self, response, keyPath, failsOnEmptyData)

    // Without a key path, `map` is JSONDecoder on the body.
    if keyPath == nil, !data.isEmpty {
        let direct = try? JSONDecoder().decode(JSONValue.self, from: data)
        let mapped = try? response.map(JSONValue.self, failsOnEmptyData: failsOnEmptyData)
        check(direct == mapped, "map(_:) gave \(String(describing: mapped)) where JSONDecoder gives \(String(describing: direct))")
    }

    // With a key path, `map` decodes what the documented walk finds in the document as
    // JSONSerialization reads it (which keeps the last of repeated keys, where JSONDecoder
    // keeps the first).
    if let keyPath, let json, let found = walk(json, keyPath), let expected = JSONValue(serialized: found) {
        do {
            let mapped = try response.map(JSONValue.self, atKeyPath: keyPath, failsOnEmptyData: failsOnEmptyData)
            check(mapped.isClose(to: expected), "map(_:atKeyPath: \(keyPath.debugDescription)) gave \(mapped), the walk finds \(expected)")
        } catch {
            propertyFailed("map(_:atKeyPath: \(keyPath.debugDescription)) threw \(error) where the walk finds \(expected)")
        }
    }
    return 0
}

private func expectMoyaError(_ error: Error, _ response: Response, _ isExpectedCase: (MoyaError) -> Bool, line: UInt = #line) {
    guard let moyaError = error as? MoyaError else {
        propertyFailed("a \(type(of: error)) escaped instead of a MoyaError: \(error)", line: line)
    }
    check(isExpectedCase(moyaError), "unexpected case \(moyaError)", line: line)
    check(moyaError.response === response, "the error does not carry the response", line: line)
}

private func decode<D: Decodable>(_ type: D.Type, _ response: Response, _ keyPath: String?, _ failsOnEmptyData: Bool) {
    do {
        _ = try response.map(type, atKeyPath: keyPath, failsOnEmptyData: failsOnEmptyData)
    } catch {
        expectMoyaError(error, response) {
            switch $0 {
            case .jsonMapping, .objectMapping: return true
            default: return false
            }
        }
    }
}

/// The documented key path walk: dots separate keys, only objects are entered.
private func walk(_ object: Any, _ keyPath: String) -> Any? {
    var current = object
    for key in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
        guard let dictionary = current as? [String: Any], let next = dictionary[String(key)] else { return nil }
        current = next
    }
    return current
}

private struct Item: Decodable {
    var id: Int
    var name: String?
    var tags: [String]?
    var child: [String: Double]?
}

private struct Empty: Decodable {}

/// Any JSON document, decoded by `JSONDecoder`.
private enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// A value as JSONSerialization reads it; `nil` for a non-finite number, which JSON
    /// cannot hold.
    init?(serialized value: Any) {
        switch value {
        case is NSNull:
            self = .null
        case let bool as Bool where type(of: value) == Bool.self:
            self = .bool(bool)
        case let string as String:
            self = .string(string)
        case let array as [Any]:
            var values: [JSONValue] = []
            for element in array {
                guard let converted = JSONValue(serialized: element) else { return nil }
                values.append(converted)
            }
            self = .array(values)
        case let object as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (key, element) in object {
                guard let converted = JSONValue(serialized: element) else { return nil }
                members[key] = converted
            }
            self = .object(members)
        case let decimal as NSDecimalNumber:
            guard let number = Double(decimal.description), number.isFinite else { return nil }
            self = .number(number)
        case let number as NSNumber:
            guard number.doubleValue.isFinite else { return nil }
            self = .number(number.doubleValue)
        case let number as Int:
            self = .number(Double(number))
        case let number as Double:
            guard number.isFinite else { return nil }
            self = .number(number)
        default:
            return nil
        }
    }

    /// Equal, but numbers may differ in their last digits: the value at a key path goes
    /// through JSONSerialization and back.
    func isClose(to other: JSONValue) -> Bool {
        switch (self, other) {
        case let (.number(a), .number(b)):
            return a == b || abs(a - b) <= max(abs(a), abs(b)) * 1e-15
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isClose(to: $1) }
        case let (.object(a), .object(b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { value.isClose(to: $0) } ?? false }
        default:
            return self == other
        }
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .number(let value): return "\(value)"
        case .string(let value): return value.debugDescription
        case .array(let values): return "[\(values.map(\.description).joined(separator: ","))]"
        case .object(let members): return "{\(members.map { "\($0.key.debugDescription):\($0.value)" }.sorted().joined(separator: ","))}"
        }
    }
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver, calling `fuzz` with each input.
@_cdecl("FuzzResponseMapping_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { data, count in
        fuzz(data.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!, count)
    }
}
