import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

extension AsyncHTTPClientTransport: StreamTransport {
    /// Sends the exchange on its first trip to the connection pool.
    public func send(_ exchange: TransportExchange, events: TransportEvents) {
        start(PoolTrips(exchange: exchange, configuration: configuration, redirects: redirectRule), report: events)
    }

    /// The trip's request, ready for AsyncHTTPClient; the cancel's error when the attempt was
    /// cancelled before the trip started (nothing is sent then), or why it cannot be sent.
    func prepare(_ trips: PoolTrips) -> Result<PreparedTransfer, MoyaError> {
        guard !trips.exchange.cancellation.isCancelled else {
            return .failure(TransportCancellation.error(url: trips.exchange.request.url))
        }
        do {
            return .success(try PreparedTransfer(exchange: trips.exchange, sessionHeaders: sessionHeaders))
        } catch {
            return .failure(MoyaError.wrapping(error))
        }
    }

    /// Sends one trip of the exchange to the connection pool: its first, or one queued again
    /// when the pool gave up on the one before (see `PoolTrips`).
    private func start(_ trips: PoolTrips, report: TransportEvents) {
        let cancellation = trips.exchange.cancellation
        let prepared: PreparedTransfer
        switch prepare(trips) {
        case .success(let transfer):
            prepared = transfer
        case .failure(let error):
            report.completion(.failure(error))
            return
        }

        let route = route(for: prepared.request.url)
        // One timer for both limits when the idle watch can take the deadline.
        let deadlines = trips.scope.deadlines(connectTimeout: connectTimeout(of: route.client))
        let delegate = TransferDelegate(
            sink: prepared.destination == nil
                ? .memory
                : .temporaryFile(in: configuration.temporaryDirectory ?? FileManager.default.temporaryDirectory),
            redirectBase: route.redirectBase(for: trips.exchange.request, hops: trips.hops),
            uploadLength: prepared.reportsUploadProgress ? prepared.uploadLength : nil,
            idleTimeout: trips.idleTimeout,
            deadline: deadlines.watch,
            sweep: idleSweep,
            wantsProgress: report.wantsProgress,
            onProgress: report.progress
        )
        // Counted until the trip ends (`finish`), so that an upload knows whether it is alone.
        let loop = route.uploadLoops.choose(bodyLength: prepared.uploadLength)
        let task = carry(
            prepared,
            on: route,
            to: delegate,
            streamed: false,
            loop: loop,
            deadline: deadlines.client,
            logger: trips.scope.logger
        )
        // At once when the attempt was cancelled while this trip started.
        cancellation.onCancel { task.cancel() }

        let trip = Trip(
            trips: trips,
            report: report,
            destination: prepared.destination,
            delegate: delegate,
            eventLoop: task.eventLoop,
            loop: loop
        )
        task.futureResult.whenComplete { result in
            self.finish(trip, with: result)
        }
    }

    /// One trip to the connection pool: what its end needs to report, clean up, or queue the
    /// request again. One value, so that the completion closure captures two references.
    private struct Trip: Sendable {
        let trips: PoolTrips
        let report: TransportEvents
        let destination: UserValue<DownloadDestination>?
        let delegate: TransferDelegate
        let eventLoop: EventLoop
        let loop: UploadLoopPreference.Choice
    }

    /// Reports the trip's end: a response (a download moved into place first), or a failure,
    /// unless the pool gave up waiting for a connection and the request may wait again.
    private func finish(_ trip: Trip, with result: Result<TransferDelegate.Outcome, Error>) {
        // Before reporting, so that an upload started from the completion finds itself alone.
        trip.loop.end()
        let request = trip.trips.firstRequest
        switch result {
        case .success(let outcome):
            if outcome.isRedirect {
                switch afterRedirect(outcome.head, from: outcome.url, of: trip.trips) {
                case .deliver:
                    break
                case .follow(let next):
                    start(next, report: trip.report)
                    return
                case .fail(let error):
                    trip.report.completion(.failure(error))
                    return
                }
            }
            guard let destination = trip.destination, let download = outcome.download else {
                trip.report.completion(.success(Self.response(for: outcome, request: request, fileURL: nil)))
                return
            }
            // A download cancelled as it ended is not moved into place: its caller hears of the
            // cancel, and must not find the file there after it.
            guard !trip.trips.exchange.cancellation.isCancelled else {
                try? FileManager.default.removeItem(at: download.url)
                trip.report.completion(.failure(TransportCancellation.error(url: request.url)))
                return
            }
            BlockingIO.run(on: trip.eventLoop) {
                try download.complete()
                return try DownloadMover.move(download.url, for: outcome, destination: destination.value)
            }.whenComplete { moved in
                switch moved {
                case .success(let finalURL):
                    trip.report.completion(.success(Self.response(for: outcome, request: request, fileURL: finalURL)))
                case .failure(let error):
                    try? FileManager.default.removeItem(at: download.url)
                    let response = Self.response(for: outcome, request: request, fileURL: nil)
                    trip.report.completion(.failure(.underlying(error, response)))
                }
            }
        case .failure(let error):
            if let file = trip.delegate.temporaryFile {
                try? FileManager.default.removeItem(at: file)
            }
            switch afterFailure(error, of: trip.trips) {
            case .queueAgain:
                start(trip.trips, report: trip.report)
            case .fail(let failure):
                trip.report.completion(.failure(.underlying(failure, nil)))
            }
        }
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
