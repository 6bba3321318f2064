/// Names and placeholder used to keep secrets out of logs.
enum HeaderRedaction {
    /// What a redacted value is replaced with.
    static let placeholder = "<redacted>"

    /// Headers that carry credentials, lower-cased.
    static let defaultHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Returns `headers` with the values of `redacted` names (compared case-insensitively)
    /// replaced, as `"Name: value"` lines sorted by name.
    static func lines(_ headers: [String: String], redacting redacted: Set<String>) -> [String] {
        headers.keys.sorted { $0.lowercased() < $1.lowercased() }.compactMap { name in
            guard let value = headers[name] else { return nil }
            return "\(name): \(redacted.contains(name.lowercased()) ? placeholder : value)"
        }
    }
}
