import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Moves a finished download into place, as its destination asks.
enum DownloadMover {
    static func move(_ file: URL, for outcome: TransferDelegate.Outcome, destination: DownloadDestination) throws -> URL
    {
        guard let httpResponse = HTTPRequestConversion.makeHTTPURLResponse(outcome.head, url: outcome.url) else {
            throw TransferError.noResponseHead
        }
        return try move(file, response: httpResponse, destination: destination)
    }

    /// Moves `file` where `destination` says for `response`: the form both transports share.
    static func move(
        _ file: URL,
        response httpResponse: HTTPURLResponse,
        destination: DownloadDestination
    ) throws -> URL {
        let (target, options) = destination(file, httpResponse)
        let manager = FileManager.default
        if options.contains(.createIntermediateDirectories) {
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        if options.contains(.removePreviousFile), let existing = try? manager.attributesOfItem(atPath: target.path) {
            // A server-chosen name must never cost the user a directory (see `SafeFileName`).
            if options.contains(.neverReplaceDirectory), existing[.type] as? FileAttributeType == .typeDirectory {
                throw CocoaError(
                    .fileWriteFileExists,
                    userInfo: [
                        NSFilePathErrorKey: target.path,
                        NSLocalizedDescriptionKey:
                            "The download was not saved: \(target.path) is a directory, and a server-suggested name never replaces one.",
                    ]
                )
            }
            try manager.removeItem(at: target)
        }
        try manager.moveItem(at: file, to: target)
        return target
    }
}
