import Foundation

/// Tells a boolean apart from a number inside `Any`.
///
/// On Apple platforms `NSNumber` bridges both, and an `NSNumber` holding `1` casts to `Bool`;
/// only the CoreFoundation type says whether the number was created from a boolean.
enum BooleanValue {
    static func of(_ value: Any) -> Bool? {
        if let bool = value as? Bool, type(of: value) == Bool.self {
            return bool
        }
        #if canImport(Darwin)
        if let number = value as? NSNumber, CFGetTypeID(number) == CFBooleanGetTypeID() {
            return number.boolValue
        }
        #endif
        return nil
    }
}
