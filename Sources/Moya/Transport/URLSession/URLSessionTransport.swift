import Foundation
import NIOConcurrencyHelpers
import NIOCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests through the platform's `URLSession` (on Linux, FoundationNetworking's, which
/// is built on libcurl), keeping the `Transport` contract as the AsyncHTTPClient transport
/// keeps it, from the same session settings: the default on Apple's platforms, as in Moya.
///
/// URLSession keeps cookies itself (the configuration's `httpCookieStorage` is the session's
/// `cookieStorage`) and follows the system's proxy settings (on Linux, the environment's, as
/// curl does). What it cannot do on a platform is refused before sending, never silently
/// skipped: custom trust roots (`tlsConfiguration`), pinned hosts (`serverTrustPolicies`) and a
/// named proxy (`asyncHTTPClient.proxy`) need the AsyncHTTPClient transport. Its own settings
/// are `Session.Configuration.urlSession`.
///
/// ```swift
/// let session = Session(transport: URLSessionTransport(configuration: configuration), configuration: configuration)
/// ```
public final class URLSessionTransport: StreamTransport {
    /// What every transfer of the transport reads.
    struct Settings: Sendable {
        var defaultHeaders: SessionHeaders
        var readTimeout: TimeAmount
        var requestTimeout: TimeAmount?
        var redirects: RedirectRule
        /// The session's cookie storage, which URLSession keeps cookies in.
        var cookieStorage: HTTPCookieStorage?
        var temporaryDirectory: URL
        /// Whether the session asks for TLS settings URLSession cannot apply here.
        var tlsUnsupported: @Sendable (_ host: String) -> Bool
        /// Whether the session names a proxy itself, which URLSession cannot take.
        var namesAProxy: Bool
        /// The serial queue URLSession calls its delegate on.
        var delegateQueue: OperationQueue
    }

    let urlSession: URLSession
    let settings: Settings
    private let router: URLSessionTaskRouter
    /// Set by `shutdown()`. Tasks are made under this lock, so that none is ever made on the
    /// invalidated URLSession, which Foundation does not allow.
    private let isShutDown = NIOLockedValueBox(false)

    /// A transport over a URLSession of its own, set up from `configuration`'s timeouts, default
    /// headers, redirects, cookies and temporary directory, and its own `urlSession` settings.
    public init(configuration: Session.Configuration = Session.Configuration()) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Moya.URLSessionTransport"
        let pinnedHosts = Set(configuration.serverTrustPolicies.keys)
        let customTLS = configuration.tlsConfiguration != nil
        settings = Settings(
            defaultHeaders: SessionHeaders(configuration.defaultHeaders),
            readTimeout: TimeAmount(configuration.readTimeout),
            requestTimeout: configuration.requestTimeout.map(TimeAmount.init),
            redirects: RedirectRule(configuration.redirectConfiguration),
            cookieStorage: configuration.cookieStorage,
            temporaryDirectory: configuration.temporaryDirectory ?? FileManager.default.temporaryDirectory,
            tlsUnsupported: { host in customTLS || pinnedHosts.contains(host.lowercased()) },
            namesAProxy: configuration.asyncHTTPClient.proxy != nil,
            delegateQueue: queue
        )
        router = URLSessionTaskRouter()
        urlSession = URLSession(
            configuration: Self.makeConfiguration(configuration),
            delegate: router,
            delegateQueue: queue
        )
    }

    /// URLSession keeps its own cookies, in its configuration's `httpCookieStorage`.
    public var keepsCookies: Bool { true }

    /// Cancels the requests in flight and invalidates the URLSession; later requests fail with
    /// `MoyaClientError.Code.sessionShutDown`. `Session.shutdown()` calls it.
    public func shutdown() {
        let first = isShutDown.withLockedValue { shutDown in
            defer { shutDown = true }
            return !shutDown
        }
        if first {
            urlSession.invalidateAndCancel()
        }
    }

    /// A new task from `make`, unless the transport was shut down.
    private func task(_ make: () -> URLSessionTask) -> URLSessionTask? {
        isShutDown.withLockedValue { shutDown in shutDown ? nil : make() }
    }

    deinit {
        // URLSession keeps its delegate until it is invalidated; requests in flight finish.
        urlSession.finishTasksAndInvalidate()
    }

    /// URLSession's configuration for the session's settings. The idle timeout goes on each
    /// request (`timeoutInterval`); the whole-request deadline is the transfer's own timer,
    /// since URLSession on Linux does not enforce `timeoutIntervalForResource` (checked: a 3 s
    /// response under a 1 s resource timeout completes).
    static func makeConfiguration(_ configuration: Session.Configuration) -> URLSessionConfiguration {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpCookieStorage = configuration.cookieStorage
        sessionConfiguration.httpShouldSetCookies = configuration.cookieStorage != nil
        sessionConfiguration.httpCookieAcceptPolicy =
            configuration.cookieStorage == nil ? .never : .onlyFromMainDocumentDomain
        // The session's HTTP cache is the decorator above; authentication is the lifecycle's.
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCredentialStorage = nil
        sessionConfiguration.timeoutIntervalForRequest = configuration.readTimeout.timeInterval
        sessionConfiguration.timeoutIntervalForResource =
            configuration.requestTimeout?.timeInterval ?? .greatestFiniteMagnitude
        // URLSession takes no limit below one connection.
        sessionConfiguration.httpMaximumConnectionsPerHost = max(1, configuration.urlSession.maximumConnectionsPerHost)
        return sessionConfiguration
    }

    /// Sends one attempt through URLSession, keeping the `Transport` contract.
    public func send(_ exchange: TransportExchange, events: TransportEvents) {
        start(exchange, listener: .transfer(events))
    }

    func open(_ exchange: TransportExchange, events: StreamEvents) {
        start(exchange, listener: .stream(events))
    }

    private func start(_ exchange: TransportExchange, listener: URLSessionTransfer.Listener) {
        let prepared: URLSessionPreparedRequest
        do {
            prepared = try prepare(exchange)
        } catch {
            let transfer = URLSessionTransfer(
                exchange: exchange,
                listener: listener,
                destination: nil,
                uploadLength: nil,
                settings: settings
            )
            transfer.failBeforeStart(MoyaError.wrapping(error))
            return
        }
        let transfer = URLSessionTransfer(
            exchange: exchange,
            listener: listener,
            // A stream is read as it arrives: it has no file to move.
            destination: { if case .transfer = listener { prepared.destination } else { nil } }(),
            uploadLength: prepared.reportsUploadProgress ? prepared.uploadLength : nil,
            settings: settings
        )
        transfer.schedule(deadline: exchange.nioDeadline)
        // At once when the attempt was cancelled already: the transfer then never starts a task.
        exchange.cancellation.onCancel { transfer.interrupt(.cancelled) }
        let session = urlSession
        let router = router
        switch prepared.body {
        case .none:
            transfer.start(
                spooledBody: nil,
                makeTask: { task { session.dataTask(with: prepared.request) } },
                router: router
            )
        case .data(let data):
            var request = prepared.request
            request.httpBody = data
            transfer.start(spooledBody: nil, makeTask: { task { session.dataTask(with: request) } }, router: router)
        case .file(let file):
            transfer.start(
                spooledBody: nil,
                makeTask: { task { session.uploadTask(with: prepared.request, fromFile: file) } },
                router: router
            )
        case .spooled(let body):
            let directory = settings.temporaryDirectory
            let request = prepared.request
            // Reading the parts blocks: off the caller's thread, which may be a cooperative one.
            DispatchQueue.global().async {
                do {
                    let file = try URLSessionPreparedRequest.spool(body, in: directory)
                    transfer.start(
                        spooledBody: file,
                        makeTask: { self.task { session.uploadTask(with: request, fromFile: file) } },
                        router: router
                    )
                } catch {
                    transfer.failBeforeStart(MoyaError.underlying(error, nil))
                }
            }
        }
    }

    private func prepare(_ exchange: TransportExchange) throws -> URLSessionPreparedRequest {
        if let host = exchange.request.url?.host, settings.tlsUnsupported(host) {
            throw MoyaError.underlying(URLSessionUnsupportedSetting.tls, nil)
        }
        if settings.namesAProxy {
            throw MoyaError.underlying(URLSessionUnsupportedSetting.proxy, nil)
        }
        if let deadline = exchange.nioDeadline, deadline <= .now() {
            let seconds = settings.requestTimeout.map { Double($0.nanoseconds) / 1e9 } ?? 0
            throw MoyaError.underlying(TransferTimeout(limit: .wholeRequest, seconds: seconds).asURLError, nil)
        }
        return try URLSessionPreparedRequest(
            exchange: exchange,
            sessionHeaders: settings.defaultHeaders,
            idleTimeout: PoolTrips.idleTimeout(for: exchange.request, default: settings.readTimeout)
        )
    }
}
