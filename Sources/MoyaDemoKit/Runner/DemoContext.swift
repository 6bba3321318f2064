import Foundation

/// What a step runs with: where to write and which queue callbacks use.
public struct DemoContext: Sendable {
    /// Where the step writes.
    public let output: DemoOutput
    /// Whether requests go to the embedded server (not `--base-url`).
    public let serverIsEmbedded: Bool
    /// The size of the large download, in bytes.
    public let downloadBytes: Int
    /// The queue for the callback API's completions.
    ///
    /// A command-line program must name one: Moya's default is the main queue, which runs only
    /// when something services it, and a completion that never runs leaves the demo waiting.
    public let callbackQueue: DispatchQueue
    /// Where steps put the files they upload and download, and remove them afterwards.
    public let temporaryDirectory: URL

    /// The large download's default size: 32 MiB, enough to watch the bar move.
    public static let defaultDownloadBytes = 32 * 1024 * 1024

    /// Creates a context.
    public init(
        output: DemoOutput,
        serverIsEmbedded: Bool,
        downloadBytes: Int = DemoContext.defaultDownloadBytes,
        callbackQueue: DispatchQueue = DispatchQueue(label: "moya-demo.callbacks"),
        temporaryDirectory: URL = FileManager.default.temporaryDirectory
    ) {
        self.output = output
        self.serverIsEmbedded = serverIsEmbedded
        self.downloadBytes = downloadBytes
        self.callbackQueue = callbackQueue
        self.temporaryDirectory = temporaryDirectory
    }

    /// Writes one line of a step's result, indented under its code and wrapped to 80 columns.
    func say(_ text: String) {
        let indent = "   "
        for line in TextLayout.wrap(text, width: TextLayout.width - indent.count) {
            output.line(indent + line)
        }
    }
}
