import Foundation

extension ResumableDownload {
    /// Runs one resumable download: the I/O around `StateMachine`, which decides.
    ///
    /// Each attempt is a streamed request through the provider's whole pipeline (plugins see
    /// `Range` and `If-Range`, the interceptor adapts it, failures before the head are retried
    /// there); its body is appended to the partial file as it arrives, so memory stays bounded
    /// whatever the size. A failure in the body is put to the interceptor's retrier, which may
    /// send another attempt for the bytes still missing.
    struct Transfer: Sendable {
        let download: ResumableDownload
        let request: StreamRequest
        let progress: (@Sendable (Progress) -> Void)?

        func run(url: String) async throws(MoyaError) -> Response {
            var machine = StateMachine(
                url: url,
                record: ResumeRecord.load(from: download.resumeDataFile),
                fileSize: PartialFile.size(of: download.partialFile)
            )
            var failures = 0
            while true {
                machine.nextAttempt()
                do {
                    if let response = try await attempt(&machine) {
                        return response
                    }
                } catch {
                    keep(machine)
                    failures += 1
                    guard !_Concurrency.Task.isCancelled, case .bodyFailed(let sent, let failure) = error else {
                        throw error.moyaError
                    }
                    try await retry(sent, after: failure, attempt: failures)
                }
            }
        }

        /// Why an attempt failed: before its body (the pipeline retried already), or in it.
        enum Failure: Error {
            case beforeBody(MoyaError)
            case bodyFailed(sent: URLRequest?, MoyaError)

            var moyaError: MoyaError {
                switch self {
                case .beforeBody(let error), .bodyFailed(_, let error): error
                }
            }
        }

        /// One request; the response once the file is complete, `nil` to ask again at once.
        private func attempt(_ machine: inout StateMachine) async throws(Failure) -> Response? {
            let head: Response
            let chunks: ResponseChunks?
            do {
                let streamed = try await request.lifecycle(adding: machine.headers).openStream()
                (head, chunks) = (streamed.head, streamed.chunks)
            } catch {
                // A refused status (the target's validation) may still be a `416` to understand.
                guard case .statusCode(let response) = error, response.statusCode == 416 else {
                    throw .beforeBody(error)
                }
                (head, chunks) = (response, nil)
            }
            let decision = machine.received(
                status: head.statusCode,
                contentRange: head.headerValues(named: "Content-Range").first,
                etag: head.headerValues(named: "ETag").first,
                lastModified: head.headerValues(named: "Last-Modified").first,
                contentLength: head.headerValues(named: "Content-Length").first.flatMap { Int64($0) }
            )
            switch decision {
            case .refuse:
                throw .beforeBody(.statusCode(head))
            case .startAgain:
                return nil
            case .complete:
                return try finish(head)
            case .write(let kept):
                guard let chunks else { throw .beforeBody(.statusCode(head)) }
                try await write(chunks, keeping: kept, head: head, into: &machine)
                return try finish(head)
            }
        }

        /// Appends the body to the partial file after the `kept` bytes, saving the sidecar first
        /// so that the file never holds bytes the sidecar does not describe.
        private func write(
            _ chunks: ResponseChunks,
            keeping kept: Int64,
            head: Response,
            into machine: inout StateMachine
        ) async throws(Failure) {
            let file: PartialFile
            do {
                try save(machine.recordWhileWriting)
                file = try PartialFile(url: download.partialFile, keeping: kept)
            } catch {
                throw .beforeBody(MoyaError.underlying(error, head))
            }
            defer { file.close() }
            report(file.length, of: machine.expectedLength)
            do {
                for try await chunk in chunks {
                    try file.append(chunk)
                    machine.wrote(length: file.length)
                    report(file.length, of: machine.expectedLength)
                }
            } catch let error as MoyaError {
                throw .bodyFailed(sent: head.request, Self.resumable(error, machine))
            } catch {
                throw .beforeBody(MoyaError.underlying(error, head))
            }
            switch machine.ended {
            case .complete:
                return
            case .short:
                throw .bodyFailed(sent: head.request, .underlying(URLError(.networkConnectionLost), nil))
            case .long:
                throw .beforeBody(.underlying(URLError(.badServerResponse), head))
            }
        }

        /// A body cut before its announced end is reported as the lost connection it is, so
        /// that a `RetryPolicy` resumes it: elsewhere a body shorter than its `Content-Length`
        /// is a bad response (see the faults article), since nothing can use half of it, but
        /// here every byte received is kept and the rest can be asked for.
        private static func resumable(_ error: MoyaError, _ machine: StateMachine) -> MoyaError {
            guard case .underlying(let underlying, _) = error, machine.ended == .short,
                (underlying as NSError).domain == NSURLErrorDomain,
                (underlying as NSError).code == NSURLErrorBadServerResponse,
                let expected = machine.expectedLength
            else { return error }
            let description =
                "The connection ended after \(machine.bytesKept) of \(expected) bytes; "
                + "the download can resume from there."
            return .underlying(
                NSError(
                    domain: NSURLErrorDomain,
                    code: NSURLErrorNetworkConnectionLost,
                    userInfo: [NSLocalizedDescriptionKey: description, NSUnderlyingErrorKey: underlying]
                ),
                nil
            )
        }

        /// Moves the complete file into place and forgets the sidecar.
        private func finish(_ head: Response) throws(Failure) -> Response {
            let manager = FileManager.default
            do {
                try manager.createDirectory(
                    at: download.destination.deletingLastPathComponent(),
                    withIntermediateDirectories: true
                )
                if manager.fileExists(atPath: download.destination.path) {
                    try manager.removeItem(at: download.destination)
                }
                try manager.moveItem(at: download.partialFile, to: download.destination)
                try? manager.removeItem(at: download.resumeDataFile)
            } catch {
                throw .beforeBody(MoyaError.underlying(error, head))
            }
            return head.with(fileURL: download.destination)
        }

        /// Saves what a later run needs to resume, or removes a sidecar that no longer applies.
        private func keep(_ machine: StateMachine) {
            try? save(machine.recordWhenStopped)
        }

        private func save(_ record: ResumeRecord?) throws {
            if let record {
                try record.save(to: download.resumeDataFile)
            } else if FileManager.default.fileExists(atPath: download.resumeDataFile.path) {
                try FileManager.default.removeItem(at: download.resumeDataFile)
            }
        }

        /// Asks the interceptor whether to resume after a failure in the body.
        private func retry(_ sent: URLRequest?, after failure: MoyaError, attempt: Int) async throws(MoyaError) {
            guard let interceptor = request.context.interceptor, let sent else { throw failure }
            let target = UserValue(request.context.target)
            switch await interceptor.retry(sent, for: target.value, attempt: attempt, dueTo: .failure(failure)) {
            case .retry:
                return
            case .retryWithDelay(let seconds):
                do {
                    try await _Concurrency.Task.sleep(nanoseconds: UInt64(min(max(seconds, 0), 86_400) * 1e9))
                } catch {
                    throw .cancelled
                }
            case .doNotRetry:
                throw failure
            case .doNotRetryWithError(let error):
                throw error
            }
        }

        private func report(_ completed: Int64, of total: Int64?) {
            guard let progress else { return }
            let value = Progress(totalUnitCount: total ?? -1)
            value.completedUnitCount = completed
            progress(value)
        }
    }
}
