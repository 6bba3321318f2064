import Foundation
import NIOConcurrencyHelpers

/// Settings chosen on the command line, read by the `GitHub` target.
///
/// A Moya target's `baseURL` is usually a constant; the demo's comes from here so that one
/// target serves both the embedded server and `--base-url`.
public enum DemoConfiguration {
    // The literal always parses; the fallback only keeps the force unwrap out.
    private static let storedBaseURL = NIOLockedValueBox(
        URL(string: "http://127.0.0.1:8080") ?? URL(fileURLWithPath: "/")
    )

    /// Where the demo's requests go: the embedded server, or `--base-url`.
    public static var baseURL: URL {
        get { storedBaseURL.withLockedValue { $0 } }
        set { storedBaseURL.withLockedValue { $0 = newValue } }
    }

    /// The token the embedded server accepts on `/user`.
    public static let accessToken = "demo-token-1234"
}
