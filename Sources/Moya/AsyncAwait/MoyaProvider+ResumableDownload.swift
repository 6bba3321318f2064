import Foundation

extension MoyaProvider {
    /// Downloads `target`'s response into `download.destination`, resuming from the bytes a
    /// previous, interrupted download of the same resource left behind.
    ///
    /// The body is written to `download.partialFile` as it arrives, paced by the disk, so
    /// memory stays bounded whatever its size. When the download fails or is cancelled, the
    /// partial file stays, with a sidecar naming the resource's validator (a strong `ETag`, else
    /// `Last-Modified`); the next call asks for the rest with `Range` and `If-Range`:
    ///
    /// - a `206` for exactly the missing bytes is appended to the partial file;
    /// - a whole response (`200`: the resource changed, or the server ignores ranges) replaces it;
    /// - a `416` when the partial file is already the whole resource completes it;
    /// - a partial file shorter than its sidecar says, a range starting elsewhere or another
    ///   validator starts again from zero.
    ///
    /// Within one call, a failure in the body is put to the interceptor's retrier (a
    /// `RetryPolicy` retries a dropped connection), and each retry asks only for the missing
    /// bytes. The request goes through the provider's whole pipeline, as `stream(_:)` does.
    /// The target's task says how to send the request; where the body is saved is this call's.
    /// A resource without a validator downloads whole, and is not resumed.
    ///
    /// Run one download per destination at a time.
    ///
    /// ```swift
    /// let download = ResumableDownload(destination: folder.appendingPathComponent("video.mp4"))
    /// let response = try await provider.download(.video(id: 42), resuming: download) { progress in
    ///     print(progress.fractionCompleted)  // counts the bytes already on disk too
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The target to download.
    ///   - download: Where the file goes, and where its partial bytes are kept meanwhile.
    ///   - progress: Called as bytes arrive, with the bytes on disk (resumed ones included) out
    ///     of the whole resource's length when known.
    /// - Returns: The last response's head (`200` or `206`; `416` when the file was already
    ///   complete), with `fileURL` set to `download.destination`.
    /// - Throws: `MoyaError`: `.statusCode` for a refused response, the transfer's failure
    ///   otherwise; the partial file and its sidecar stay.
    public func download(
        _ target: Target,
        resuming download: ResumableDownload,
        progress: (@Sendable (Progress) -> Void)? = nil
    ) async throws(MoyaError) -> Response {
        let url = endpoint(target).url
        let transfer = ResumableDownload.Transfer(
            download: download,
            request: streamRequest(for: target),
            progress: progress
        )
        return try await transfer.run(url: url)
    }
}
