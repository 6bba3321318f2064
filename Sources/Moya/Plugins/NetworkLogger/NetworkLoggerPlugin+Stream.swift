import Foundation

extension NetworkLoggerPlugin: StreamPluginType {
    /// Logs each chunk of a streamed response, as a `Response Chunk` entry formatted by the
    /// formatter's `responseData`, when the options include `successResponseBody` (as
    /// `verbose` does); a chunk is logged as its reader receives it.
    ///
    /// The head is logged when the stream ends, as a response without its body.
    public func didReceive(chunk: Data, target: TargetType) {
        guard configuration.logOptions.contains(.successResponseBody) else { return }
        let formatter = configuration.formatter
        configuration.output(target, [formatter.entry("Response Chunk", formatter.responseData(chunk), target)])
    }
}
