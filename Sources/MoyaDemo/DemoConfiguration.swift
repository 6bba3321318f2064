import Foundation
import Synchronization

/// Settings chosen on the command line, read by the target.
enum DemoConfiguration {
    private static let storedBaseURL = Mutex(URL(string: "http://127.0.0.1:8080")!)

    /// Where the demo's requests go: the embedded server, or `--base-url`.
    static var baseURL: URL {
        get { storedBaseURL.withLock { $0 } }
        set { storedBaseURL.withLock { $0 = newValue } }
    }

    /// The token the embedded server accepts on `/user`.
    static let accessToken = "demo-token-1234"
}
