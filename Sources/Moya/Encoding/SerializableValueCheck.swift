import Foundation

/// Checks that a value tree can be serialized before it reaches `JSONSerialization` or
/// `PropertyListSerialization`, which trap (on Linux) instead of throwing for some inputs
/// such as non-finite numbers or unsupported types.
enum SerializableValueCheck {
    /// Throws `ParameterEncodingError.invalidJSONObject` unless `value` is valid JSON.
    static func validateJSON(_ value: Any, path: String = "$") throws {
        // Most values are valid: a first pass that names no paths says so without building a
        // path string for every element; only a failure pays for finding where it is.
        if isJSON(value) {
            return
        }
        if let reason = jsonProblem(in: value, path: path) {
            throw ParameterEncodingError.invalidJSONObject(path: reason.path, reason: reason.reason)
        }
    }

    /// Throws `ParameterEncodingError.invalidPropertyListObject` unless `value` is a valid
    /// property list.
    static func validatePropertyList(_ value: Any, path: String = "$") throws {
        if let reason = propertyListProblem(in: value, path: path) {
            throw ParameterEncodingError.invalidPropertyListObject(path: reason.path, reason: reason.reason)
        }
    }

    /// Whether `value` is valid JSON: the same cases as `jsonProblem(in:path:)`, without paths.
    private static func isJSON(_ value: Any) -> Bool {
        switch value {
        case is String, is NSNull:
            return true
        case let number as Double:
            return number.isFinite
        case let number as Float:
            return number.isFinite
        case is Bool, is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32, is UInt64:
            return true
        case let number as NSNumber:
            return number.doubleValue.isFinite
        case let dictionary as [String: Any]:
            return dictionary.values.allSatisfy(isJSON)
        case let array as [Any]:
            return array.allSatisfy(isJSON)
        default:
            return false
        }
    }

    private struct Problem {
        var path: String
        var reason: String
    }

    private static func jsonProblem(in value: Any, path: String) -> Problem? {
        switch value {
        case is String, is NSNull:
            return nil
        case let number as Double:
            return number.isFinite ? nil : Problem(path: path, reason: "the number \(number) is not finite")
        case let number as Float:
            return number.isFinite ? nil : Problem(path: path, reason: "the number \(number) is not finite")
        case is Bool, is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32, is UInt64:
            return nil
        case let number as NSNumber:
            return number.doubleValue.isFinite ? nil : Problem(path: path, reason: "the number \(number) is not finite")
        case let dictionary as [String: Any]:
            for (key, element) in dictionary {
                if let problem = jsonProblem(in: element, path: "\(path).\(key)") { return problem }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let problem = jsonProblem(in: element, path: "\(path)[\(index)]") { return problem }
            }
            return nil
        case is OptionalNone:
            return Problem(path: path, reason: "nil is not a JSON value (use NSNull() for null)")
        default:
            return Problem(path: path, reason: "a value of type \(type(of: value)) is not a JSON type")
        }
    }

    private static func propertyListProblem(in value: Any, path: String) -> Problem? {
        switch value {
        case is String, is Data, is Date:
            return nil
        case is Bool, is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32, is UInt64,
            is Double, is Float, is NSNumber:
            return nil
        case let dictionary as [String: Any]:
            for (key, element) in dictionary {
                if let problem = propertyListProblem(in: element, path: "\(path).\(key)") { return problem }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let problem = propertyListProblem(in: element, path: "\(path)[\(index)]") { return problem }
            }
            return nil
        default:
            return Problem(path: path, reason: "a value of type \(type(of: value)) is not a property list type")
        }
    }
}

/// Lets the checks recognise a `nil` boxed in `Any`: a non-nil optional casts to its wrapped
/// type before this case is reached, so only `Optional.none` lands here.
private protocol OptionalNone {}

extension Optional: OptionalNone {}
