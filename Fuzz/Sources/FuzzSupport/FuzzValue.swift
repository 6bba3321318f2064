import Foundation

/// A parameter value built from fuzz input, kept as a tree so that the targets can work out
/// independently what an encoding should produce.
public indirect enum FuzzValue {
    case string(String)
    case int(Int)
    case uint64(UInt64)
    case double(Double)
    case float(Float)
    case number(NSNumber)
    case bool(Bool)
    case null
    case array([FuzzValue])
    case dictionary([String: FuzzValue])
    /// Values JSON cannot hold (but an empty `intKeyed`, which casts to an empty
    /// `[String: Any]`, as every empty dictionary does).
    case date(Date)
    case missing
    case intKeyed([Int: FuzzValue])

    /// The value as a Moya user passes it, inside `Any`.
    public var any: Any {
        switch self {
        case .string(let value): return value
        case .int(let value): return value
        case .uint64(let value): return value
        case .double(let value): return value
        case .float(let value): return value
        case .number(let value): return value
        case .bool(let value): return value
        case .null: return NSNull()
        case .array(let values): return values.map(\.any)
        case .dictionary(let values): return values.mapValues(\.any)
        case .date(let value): return value
        case .missing: return Int?.none as Any
        case .intKeyed(let values): return values.mapValues(\.any)
        }
    }

    /// Whether JSON can represent the value (finite numbers, no dates, no nil, string keys).
    public var isValidJSON: Bool {
        switch self {
        case .string, .int, .uint64, .bool, .null: return true
        case .double(let value): return value.isFinite
        case .float(let value): return value.isFinite
        case .number(let value): return value.doubleValue.isFinite
        case .array(let values): return values.allSatisfy(\.isValidJSON)
        case .dictionary(let values): return values.values.allSatisfy(\.isValidJSON)
        // An empty dictionary casts to `[String: Any]` whatever its key type: it is `{}`.
        case .intKeyed(let values): return values.isEmpty
        case .date, .missing: return false
        }
    }
}

extension FuzzInput {
    /// A value tree: a tag byte picks the kind; containers hold up to four values and nest at
    /// most `depth` levels.
    public mutating func value(depth: Int) -> FuzzValue {
        let tag = byte()
        switch tag % 16 {
        case 0, 1, 2: return .string(string())
        case 3: return .int(Int(truncatingIfNeeded: uint64()))
        case 4: return .double(Double(bitPattern: uint64()))
        case 5: return .bool(bool())
        case 6: return .null
        case 7, 8: return depth > 0 ? .array(array(depth: depth - 1)) : .string(string())
        case 9, 10: return depth > 0 ? .dictionary(dictionary(depth: depth - 1)) : .int(Int(byte()))
        case 11: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: uint64())))
        case 12: return .uint64(uint64())
        case 13: return .number(byte() & 1 == 0 ? NSNumber(value: Int(Int16(truncatingIfNeeded: uint64()))) : NSNumber(value: Double(bitPattern: uint64())))
        case 14: return byte() & 1 == 0 ? .date(Date(timeIntervalSince1970: Double(byte()))) : .missing
        default:
            if depth > 0 {
                var values: [Int: FuzzValue] = [:]
                for _ in 0..<int(below: 3) { values[Int(byte())] = value(depth: depth - 1) }
                return .intKeyed(values)
            }
            return .string(string())
        }
    }

    public mutating func array(depth: Int) -> [FuzzValue] {
        (0..<int(below: 5)).map { _ in value(depth: depth) }
    }

    /// A dictionary; a repeated key keeps its last value, as a literal would not allow but a
    /// loop building parameters does.
    public mutating func dictionary(depth: Int) -> [String: FuzzValue] {
        var values: [String: FuzzValue] = [:]
        for _ in 0..<int(below: 5) {
            let key = string()
            values[key] = value(depth: depth)
        }
        return values
    }
}
