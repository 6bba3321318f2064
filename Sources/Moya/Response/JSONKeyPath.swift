import Foundation

/// Walks a dotted key path (`"data.user.name"`) through nested JSON dictionaries.
///
/// `NSDictionary.value(forKeyPath:)` does not exist on Linux, so the walk is done by hand.
enum JSONKeyPath {
    static func value(at keyPath: String, in object: Any) -> Any? {
        var current: Any = object
        for key in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            guard let dictionary = current as? [String: Any], let next = dictionary[String(key)] else {
                return nil
            }
            current = next
        }
        return current
    }
}
