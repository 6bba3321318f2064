import Foundation

extension URL {
    /// Creates the URL of a target: its `baseURL` with its `path` appended.
    ///
    /// An empty `path` leaves `baseURL` untouched (no trailing slash is added).
    public init<T: TargetType>(target: T) {
        if target.path.isEmpty {
            self = target.baseURL
        } else {
            self = target.baseURL.appendingPathComponent(target.path)
        }
    }
}
