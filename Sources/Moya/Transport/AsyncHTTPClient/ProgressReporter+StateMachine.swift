extension ProgressReporter {
    /// Progress's rules, apart from `Progress` objects, callbacks or locks so that they can be
    /// tested alone: which direction a transfer reports, and how far it got.
    ///
    /// Moya reports upload progress for upload tasks and download progress for the others;
    /// both directions are counted from the first byte, so that a listener that starts
    /// listening late still hears the true total.
    struct StateMachine {
        /// Progress to report: `total` is -1 when the size is unknown.
        struct Report: Equatable {
            var completed: Int64
            var total: Int64
        }

        /// The size of the request body of an upload task; `nil` for the other tasks.
        let uploadLength: Int64?
        private var sent: Int64 = 0
        private var received: Int64 = 0
        /// The response's `Content-Length`, or -1 when it has none.
        private var expectedLength: Int64 = -1

        init(uploadLength: Int64?) {
            self.uploadLength = uploadLength
        }

        /// Request body bytes went out: the upload's progress, for an upload task.
        mutating func sent(_ count: Int) -> Report? {
            guard let uploadLength else { return nil }
            sent += Int64(count)
            return Report(completed: sent, total: uploadLength)
        }

        /// The response's head arrived, with its `Content-Length` if it has one.
        mutating func receivedHead(contentLength: Int64?) {
            expectedLength = contentLength ?? -1
        }

        /// Response body bytes arrived: the download's progress, for any task but an upload.
        mutating func received(_ count: Int) -> Report? {
            received += Int64(count)
            guard uploadLength == nil else { return nil }
            return Report(completed: received, total: expectedLength)
        }
    }
}
