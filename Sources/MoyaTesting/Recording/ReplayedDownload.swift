import Foundation
import Moya

/// Puts the body of a download answered from a fixture where the network path would have put
/// the downloaded file, following the destination's options.
enum ReplayedDownload {
    static func place(_ response: Moya.Response, at destination: DownloadDestination) throws {
        let manager = FileManager.default
        let temporary = manager.temporaryDirectory.appendingPathComponent("MoyaTesting-\(UUID().uuidString).download")
        try response.data.write(to: temporary)
        defer { try? manager.removeItem(at: temporary) }

        let httpResponse =
            response.response
            ?? HTTPURLResponse(
                url: response.request?.url ?? temporary,
                statusCode: response.statusCode,
                httpVersion: "HTTP/1.1",
                headerFields: nil
            )
        guard let httpResponse else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        let (target, options) = destination(temporary, httpResponse)
        if options.contains(.createIntermediateDirectories) {
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        if options.contains(.removePreviousFile), manager.fileExists(atPath: target.path) {
            try manager.removeItem(at: target)
        }
        try manager.moveItem(at: temporary, to: target)
    }
}
