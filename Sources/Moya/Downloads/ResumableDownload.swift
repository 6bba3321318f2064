import Foundation

/// Where a resumable download keeps its bytes until it completes, so that a download that
/// failed or was cancelled picks up where it stopped instead of starting again from zero.
///
/// A value the caller keeps (or makes again from the same destination, in another process):
/// the partial file and a small sidecar beside it hold everything needed to resume.
///
/// ```swift
/// let download = ResumableDownload(destination: downloads.appendingPathComponent("video.mp4"))
/// let response = try await provider.download(.video(id: 42), resuming: download)
/// print(response.fileURL!)  // the destination, complete
/// ```
///
/// The partial file is `destination` with `.partial` appended to its name; the sidecar adds
/// `.resume` to that. Both are removed once the download completes; a failure or a cancel
/// keeps them. `discard()` removes them when the download is not wanted any more.
public struct ResumableDownload: Sendable, Equatable {
    /// Where the complete file is moved once every byte has arrived.
    public let destination: URL

    /// Where the bytes received so far are kept.
    public var partialFile: URL {
        destination.deletingLastPathComponent().appendingPathComponent(destination.lastPathComponent + ".partial")
    }

    /// The sidecar: which resource the partial bytes are of, and the validator to resume with.
    public var resumeDataFile: URL {
        partialFile.deletingLastPathComponent().appendingPathComponent(partialFile.lastPathComponent + ".resume")
    }

    /// A resumable download into `destination`, a file URL.
    public init(destination: URL) {
        self.destination = destination
    }

    /// How many bytes a resumed download would not fetch again: those kept in the partial file,
    /// when the sidecar says which resource they are of; 0 otherwise.
    public var bytesOnDisk: Int64 {
        guard let record = ResumeRecord.load(from: resumeDataFile) else { return 0 }
        return record.usableBytes(fileSize: PartialFile.size(of: partialFile))
    }

    /// Removes the partial file and its sidecar: the next download starts from zero.
    public func discard() throws {
        for file in [resumeDataFile, partialFile] where FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.removeItem(at: file)
        }
    }
}
