import Foundation

/// URLs as telemetry shows them: user name and password removed, every query value replaced, so
/// that tokens passed in a query never reach a trace backend.
enum TelemetryURL {
    static let placeholder = "REDACTED"

    static func redacted(_ url: URL?) -> String? {
        guard let url else { return nil }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return nil
        }
        components.user = nil
        components.password = nil
        if let items = components.queryItems {
            components.queryItems = items.map {
                URLQueryItem(name: $0.name, value: $0.value == nil ? nil : placeholder)
            }
        }
        return components.string
    }
}
