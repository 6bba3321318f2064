import Foundation
import NIOConcurrencyHelpers
import NIOCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One attempt of a request through the URLSession transport: its task, what the task
/// received, and its report, kept as the `Transport` contract says (`StateMachine` holds the
/// rules). The exchange's cancellation interrupts it (`URLSessionTransport.start`).
///
/// - Note: `@unchecked Sendable` because `received` is a plain variable: only URLSession's
///   delegate calls touch it, on the session's delegate queue, which runs one operation at a
///   time (`URLSessionTransport` makes it serial), and the end of the transfer is reached from
///   the last of them. Everything other threads touch (a cancel, the deadline's timer) is
///   under `locked`; the rest is immutable.
final class URLSessionTransfer: @unchecked Sendable {
    /// Who hears of the outcome.
    enum Listener {
        case transfer(TransportEvents)
        case stream(StreamEvents)
    }

    /// What the delegate calls received, on the delegate queue.
    struct Received {
        var response: HTTPURLResponse?
        var body = Data()
        /// A download's temporary file, open while its body arrives.
        var file: (url: URL, handle: FileHandle)?
        var progress: ProgressReporter.StateMachine
        /// The first URL and those redirects led to.
        var visited: [URL]
        /// What failed on this side (`Interruption.failedLocally`).
        var localError: Error?
        var channel: ChunkChannel?
        var feed = StreamFeed<ChunkChannel.Machine.Ending>()
    }

    struct Locked {
        var machine = StateMachine()
        var task: URLSessionTask?
        /// Interrupted before `task` was known: cancel it as soon as it is.
        var cancelWhenStarted = false
        var deadline: DelayedWork?
        /// A spooled multipart body, removed when the transfer ends.
        var spooledBody: URL?
    }

    let exchange: TransportExchange
    let listener: Listener
    let destination: UserValue<DownloadDestination>?
    let settings: URLSessionTransport.Settings
    let progressReporter: ProgressReporter
    let locked = NIOLockedValueBox(Locked())
    var received: Received

    init(
        exchange: TransportExchange,
        listener: Listener,
        destination: UserValue<DownloadDestination>?,
        uploadLength: Int64?,
        settings: URLSessionTransport.Settings
    ) {
        self.exchange = exchange
        self.listener = listener
        self.destination = destination
        self.settings = settings
        switch listener {
        case .transfer(let events):
            progressReporter = ProgressReporter(wantsProgress: events.wantsProgress, onProgress: events.progress)
        case .stream:
            progressReporter = ProgressReporter(wantsProgress: { false }, onProgress: { _ in })
        }
        received = Received(
            progress: ProgressReporter.StateMachine(uploadLength: uploadLength),
            visited: exchange.request.url.map { [$0] } ?? []
        )
    }

    // MARK: Starting

    /// Fails the whole request at `deadline`, wherever it is then.
    func schedule(deadline: NIODeadline?) {
        guard let deadline else { return }
        let remaining = Double(max(0, (deadline - .now()).nanoseconds)) / 1e9
        let timer = DelayedWork(after: remaining) { [weak self] in
            self?.interrupt(.timedOut)
        }
        locked.withLockedValue { $0.deadline = timer }
    }

    /// Starts the attempt with `task`, made by `makeTask` only once the body is ready and the
    /// transfer was not interrupted meanwhile; `spooledBody` is removed when it ends.
    /// `makeTask` answers `nil` when the transport was shut down: the attempt then fails with
    /// `MoyaClientError.Code.sessionShutDown`, as on the AsyncHTTPClient transport.
    func start(spooledBody: URL?, makeTask: () -> URLSessionTask?, router: URLSessionTaskRouter) {
        let action = locked.withLockedValue { state in
            state.spooledBody = spooledBody
            return state.machine.bodyReady()
        }
        guard case .resume = action else {
            if case .abandon(let interruption) = action {
                deliver(.failure(failure(for: interruption, reported: nil)))
            }
            return
        }
        guard let task = makeTask() else {
            _ = locked.withLockedValue { $0.machine.taskCompleted() }
            deliver(.failure(.underlying(MoyaClientError.sessionShutDown(url: exchange.request.url), nil)))
            return
        }
        router.register(self, for: task)
        let cancelNow = locked.withLockedValue { state in
            state.task = task
            return state.cancelWhenStarted
        }
        task.resume()
        if cancelNow {
            task.cancel()
        }
    }

    /// The attempt ends before a task was made: its body could not be prepared.
    func failBeforeStart(_ error: MoyaError) {
        if case .resume = locked.withLockedValue({ $0.machine.bodyReady() }) {
            _ = locked.withLockedValue { $0.machine.taskCompleted() }
        }
        deliver(.failure(error))
    }

    // MARK: Stopping

    /// Stops the running task for `reason`; its end then reports the reason. `cancellingTask`
    /// is `false` when URLSession ends the task soon anyway (a redirect not followed): URLSession
    /// on Linux traps when a task is cancelled while it waits for the redirect's answer.
    func interrupt(_ reason: StateMachine.Interruption, cancellingTask: Bool = true) {
        let task = locked.withLockedValue { state -> URLSessionTask? in
            guard state.machine.interrupt(reason), cancellingTask else { return nil }
            if state.task == nil {
                state.cancelWhenStarted = true
            }
            return state.task
        }
        task?.cancel()
    }

    // MARK: Ending

    /// URLSession ended the task: with `error`, or after the whole response.
    func completed(_ error: Error?) {
        let ending = locked.withLockedValue { $0.machine.taskCompleted() }
        // A download's file is kept only for a complete response, which `deliverResponse` moves.
        closeFile(keeping: error == nil && ending == .asReported)
        switch ending {
        case .asReported:
            if let error {
                let mapped = URLSessionErrors.map(error, url: exchange.request.url)
                deliver(.failure(.underlying(mapped, nil)))
            } else {
                deliverResponse()
            }
        case .interrupted(.deliverReceived):
            deliverResponse()
        case .interrupted(let interruption):
            deliver(.failure(failure(for: interruption, reported: error)))
        }
    }

    /// The error an interruption reports.
    func failure(for interruption: StateMachine.Interruption, reported: Error?) -> MoyaError {
        let url = exchange.request.url
        switch interruption {
        case .cancelled, .deliverReceived:
            return .cancelled
        case .timedOut:
            let seconds = settings.requestTimeout.map { Double($0.nanoseconds) / 1e9 } ?? 0
            return .underlying(TransferTimeout(limit: .wholeRequest, seconds: seconds).asURLError, nil)
        case .tooManyRedirects:
            return .underlying(settings.redirects.tooManyRedirects(url: url), nil)
        case .failedLocally:
            return .underlying(received.localError ?? reported ?? TransferError.noResponseHead, nil)
        }
    }

    /// Reports `result` (a cancel's included), once everything the attempt held is released.
    func end(with result: Result<Response, MoyaError>?) {
        let (report, spooled, deadline) = locked.withLockedValue { state in
            let report = state.machine.finish()
            defer {
                state.spooledBody = nil
                state.deadline = nil
                state.task = nil
            }
            return (report, state.spooledBody, state.deadline)
        }
        deadline?.cancel()
        if let spooled {
            try? FileManager.default.removeItem(at: spooled)
        }
        if report, let result, case .transfer(let events) = listener {
            events.completion(result)
        }
    }

    /// Whether the caller cancelled: a stream's head is then not handed over.
    var isCancelled: Bool {
        locked.withLockedValue { $0.machine.isCancelled }
    }
}
