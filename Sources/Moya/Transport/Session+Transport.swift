import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat

extension Session: Transport {
    func send(_ exchange: Exchange, events: TransportEvents) -> TransportHandle {
        let handle = TransferHandle<TransferDelegate.Outcome>()
        start(exchange, report: Report(events: events, handle: handle), wait: nil)
        return handle
    }

    /// Reports a transfer's outcome as the contract says: not after a cancel, and only once the
    /// transfer has wound down, after which whoever cancelled it hears so.
    private struct Report: Sendable {
        let events: TransportEvents
        let handle: TransferHandle<TransferDelegate.Outcome>

        func complete(_ result: Result<Response, MoyaError>) {
            let (cancelled, whenStopped) = handle.finished()
            if !cancelled {
                events.completion(result)
            }
            for callback in whenStopped {
                callback()
            }
        }
    }

    /// Sends the exchange.
    ///
    /// `wait` is `nil` for a request's first trip to the connection pool, and carries when that
    /// trip began when the pool gave up on it and it is queued again (see `ConnectionWait`).
    /// `scope` is `nil` for the first trip, and a trip queued again keeps the first one's: the
    /// same deadline, the same logger.
    private func start(
        _ exchange: Exchange,
        report: Report,
        wait: ConnectionWait?,
        scope: TransferScope? = nil
    ) {
        let prepared: PreparedTransfer
        do {
            prepared = try PreparedTransfer(exchange: exchange, sessionHeaders: sessionHeaders)
        } catch let error as MoyaError {
            report.complete(.failure(error))
            return
        } catch {
            report.complete(.failure(.underlying(error, nil)))
            return
        }

        let idleTimeout = Self.idleTimeout(for: exchange.request, default: configuration.readTimeout)
        let wait = wait ?? ConnectionWait(idleTimeout: idleTimeout, requestTimeout: configuration.requestTimeout)
        let scope = scope ?? TransferScope(configuration: configuration, deadline: exchange.deadline)
        let route = route(for: prepared.request.url)
        let client = route.client
        // One timer for both limits when the idle watch can take the deadline.
        let deadlines = scope.deadlines(connectTimeout: connectTimeout(of: client))
        let delegate = TransferDelegate(
            sink: prepared.destination == nil
                ? .memory
                : .temporaryFile(in: configuration.temporaryDirectory ?? FileManager.default.temporaryDirectory),
            uploadLength: prepared.reportsUploadProgress ? prepared.uploadLength : nil,
            idleTimeout: idleTimeout,
            deadline: deadlines.watch,
            wantsProgress: report.events.wantsProgress,
            onProgress: report.events.progress
        )
        // Only a body with bytes to stream gains from the home loop (see `UploadLoopPreference`).
        // Counted until the trip ends (`finish`), so that an upload knows whether it is alone.
        let uploadLoops = (prepared.uploadLength ?? 0) > 0 ? route.uploadLoops : nil
        let preference: HTTPClient.EventLoopPreference
        if let home = uploadLoops?.begin() {
            preference = .delegate(on: home)
        } else {
            preference = .indifferent
        }
        let task = client.execute(
            request: prepared.request,
            delegate: delegate,
            eventLoop: preference,
            deadline: deadlines.client,
            logger: scope.logger
        )
        report.handle.track(task)

        let trip = Trip(
            exchange: exchange,
            report: report,
            wait: wait,
            scope: scope,
            destination: prepared.destination,
            delegate: delegate,
            eventLoop: task.eventLoop,
            uploadLoops: uploadLoops
        )
        task.futureResult.whenComplete { result in
            self.finish(trip, with: result)
        }
    }

    /// One trip to the connection pool: what its end needs to report, clean up, or queue the
    /// request again. One value, so that the completion closure captures two references.
    private struct Trip: Sendable {
        let exchange: Exchange
        let report: Report
        let wait: ConnectionWait
        let scope: TransferScope
        let destination: UserValue<DownloadDestination>?
        let delegate: TransferDelegate
        let eventLoop: EventLoop
        /// Set for an upload, which `begin()` counted.
        let uploadLoops: UploadLoopPreference?
    }

    /// Reports the trip's end: a response (a download moved into place first), or a failure,
    /// unless the pool gave up waiting for a connection and the request may wait again.
    private func finish(_ trip: Trip, with result: Result<TransferDelegate.Outcome, Error>) {
        trip.uploadLoops?.end()
        let request = trip.exchange.request
        switch result {
        case .success(let outcome):
            guard let destination = trip.destination, let download = outcome.download else {
                trip.report.complete(.success(Self.response(for: outcome, request: request, fileURL: nil)))
                return
            }
            BlockingIO.run(on: trip.eventLoop) {
                try download.complete()
                return try DownloadMover.move(download.url, for: outcome, destination: destination.value)
            }.whenComplete { moved in
                switch moved {
                case .success(let finalURL):
                    trip.report.complete(.success(Self.response(for: outcome, request: request, fileURL: finalURL)))
                case .failure(let error):
                    try? FileManager.default.removeItem(at: download.url)
                    let response = Self.response(for: outcome, request: request, fileURL: nil)
                    trip.report.complete(.failure(.underlying(error, response)))
                }
            }
        case .failure(let error):
            if let file = trip.delegate.temporaryFile {
                try? FileManager.default.removeItem(at: file)
            }
            if ConnectionWait.isPoolTimeout(error) {
                guard trip.wait.mayWaitAgain() else {
                    let limit = configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit
                    let timeout = trip.wait.timeoutError(url: request.url, connectionLimit: limit)
                    trip.report.complete(.failure(.underlying(timeout, nil)))
                    return
                }
                start(trip.exchange, report: trip.report, wait: trip.wait, scope: trip.scope)
                return
            }
            let failure = transferError(trip.scope.explaining(error), url: request.url)
            trip.report.complete(.failure(.underlying(failure, nil)))
        }
    }

    /// URLSession's rule: a request's `timeoutInterval` is how long it may wait for data.
    /// `URLRequest` defaults it to 60 seconds; a value the caller set wins over the session's.
    static func idleTimeout(for request: URLRequest, default fallback: TimeAmount) -> TimeAmount {
        let interval = request.timeoutInterval
        guard interval > 0, interval.isFinite, interval != URLRequest.defaultTimeoutInterval else { return fallback }
        // Beyond about 292 years the nanoseconds no longer fit in an Int64; such a timeout means "never".
        let nanoseconds = interval * 1e9
        guard nanoseconds < Double(Int64.max) else { return .nanoseconds(.max) }
        return .nanoseconds(Int64(nanoseconds))
    }

    private static func response(for outcome: TransferDelegate.Outcome, request: URLRequest, fileURL: URL?) -> Response
    {
        Response(
            head: outcome.head,
            url: outcome.url,
            data: Data(buffer: outcome.body, byteTransferStrategy: .noCopy),
            request: request,
            fileURL: fileURL
        )
    }
}

/// The AsyncHTTPClient request for an exchange, with its body and download destination.
struct PreparedTransfer {
    var request: HTTPClient.Request
    var uploadLength: Int64?
    var reportsUploadProgress: Bool
    /// The user's closure, called once on the thread pool when the download is complete.
    var destination: UserValue<DownloadDestination>?

    init(exchange: Exchange, sessionHeaders: [String: String]) throws {
        var urlRequest = exchange.request
        let task = exchange.endpoint.task
        let body = try RequestBody.forTask(task, of: &urlRequest, endpointMethod: exchange.endpoint.method)
        reportsUploadProgress = RequestBody.isUpload(task)
        switch task {
        case .downloadDestination(let target), .downloadParameters(_, _, let target):
            destination = UserValue(target)
        default:
            destination = nil
        }

        uploadLength = body.map { Int64($0.length) }
        request = try HTTPRequestConversion.makeRequest(
            urlRequest,
            sessionHeaders: sessionHeaders,
            body: body?.makeClientBody()
        )
    }
}

/// Moves a finished download into place, as its destination asks.
enum DownloadMover {
    static func move(_ file: URL, for outcome: TransferDelegate.Outcome, destination: DownloadDestination) throws -> URL
    {
        guard let httpResponse = HTTPRequestConversion.makeHTTPURLResponse(outcome.head, url: outcome.url) else {
            throw TransferError.noResponseHead
        }
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
