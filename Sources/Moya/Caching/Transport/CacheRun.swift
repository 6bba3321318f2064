import Foundation
import NIOHTTP1

/// One request through `CachingTransport`: performs what the cache rules decide.
///
/// Its steps run one after another (cache work, perhaps the network, cache work again), so the
/// completion is called once by construction. A cancel reaches the base transport through the
/// exchange's cancellation, which the base answers with its cancelled error; between two steps
/// of cache work, the run checks the cancellation and stops there.
struct CacheRun: Sendable {
    private let transport: CachingTransport
    private let exchange: TransportExchange
    private let events: TransportEvents
    private let url: URL

    private var cache: HTTPCache { transport.cache }

    init(transport: CachingTransport, exchange: TransportExchange, events: TransportEvents, url: URL) {
        self.transport = transport
        self.exchange = exchange
        self.events = events
        self.url = url
    }

    // MARK: Unsafe methods

    /// Sends the request, then removes what is stored for its URL if it succeeded.
    func sendInvalidating() {
        send(exchange, for: .invalidation)
    }

    private func invalidated(by result: Result<Response, MoyaError>) {
        guard case .success(let response) = result, (200..<400).contains(response.statusCode) else {
            complete(result)
            return
        }
        let keys = CachingTransport.invalidatedKeys(requestURL: url, response: response)
        cache.perform { [self] in
            for key in keys {
                cache.store.remove(key)
            }
            complete(result)
        }
    }

    // MARK: GET

    /// Looks the request up and acts on what the rules decide.
    func lookUp(_ key: CacheKey) {
        let request = exchange.request
        let requestControl = CacheDecision.requestControl(of: request)
        // A request with its own validators expects the server's answer to them.
        guard !Self.hasConditionalHeader(request) else {
            fetch(key, stored: nil, validating: false)
            return
        }
        // A memory store's work runs here: as a local function called directly, it needs no
        // closure on the heap, which `perform` (for a disk store's queue) would.
        @Sendable func decide() {
            let stored = cache.store.entry(for: key).flatMap { entry in
                entry.variant.matches(request, sessionHeaders: transport.sessionHeaders) ? entry : nil
            }
            guard !exchange.cancellation.isCancelled else {
                complete(.failure(TransportCancellation.error(url: url)))
                return
            }
            let decision = CacheDecision.decide(
                requestControl: requestControl,
                policy: transport.policy,
                stored: stored,
                now: cache.now()
            )
            switch decision {
            case let .serve(stored, age):
                reportProgress(of: stored)
                complete(.success(CacheResponses.response(from: stored, age: age, status: .hit(age: age), exchange)))
            case .unsatisfiable:
                complete(.success(CacheResponses.gatewayTimeout(for: exchange, url: url)))
            case .validate(let stored):
                fetch(key, stored: stored, validating: true)
            case .fetch(let stored):
                fetch(key, stored: stored, validating: false)
            }
        }
        if cache.performsInline {
            decide()
        } else {
            cache.perform(decide)
        }
    }

    static let conditionalHeaders = [
        "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range",
    ]

    /// Whether `request` carries one of the `conditionalHeaders`: one pass over its fields, where
    /// a `value(forHTTPHeaderField:)` per name would make lower-cased copies of every field name
    /// five times on Linux. Names compare as ASCII, as the conditional names are.
    static func hasConditionalHeader(_ request: URLRequest) -> Bool {
        guard let fields = request.allHTTPHeaderFields, !fields.isEmpty else { return false }
        return fields.keys.contains { name in
            conditionalHeaders.contains { HeaderValidation.isSameName($0, name) }
        }
    }

    /// Asks the server, with `stored`'s validators when `validating`.
    private func fetch(_ key: CacheKey, stored: CachedResponse?, validating: Bool) {
        var sent = exchange
        if validating, let stored {
            sent.request.addValidators(entityTag: stored.entityTag, lastModified: stored.lastModified)
        }
        send(sent, for: .fetch(key: key, stored: stored, validating: validating, requestTime: cache.now()))
    }

    private func answered(
        _ result: Result<Response, MoyaError>,
        key: CacheKey,
        stored: CachedResponse?,
        validating: Bool,
        requestTime: Date
    ) {
        let now = cache.now()
        let response: Response
        switch result {
        case .failure(let error):
            if !error.isCancellation, let stored,
                let age = CacheDecision.staleIfError(stored, policy: transport.policy, now: now)
            {
                reportProgress(of: stored)
                complete(
                    .success(CacheResponses.response(from: stored, age: age, status: .staleIfError(age: age), exchange))
                )
            } else {
                complete(result)
            }
            return
        case .success(let received):
            response = received
        }

        if validating, let stored, response.statusCode == 304 {
            revalidated(stored, by: response, key: key, requestTime: requestTime, responseTime: now)
            return
        }
        if CacheDecision.serverErrors.contains(response.statusCode), let stored,
            let age = CacheDecision.staleIfError(stored, policy: transport.policy, now: now)
        {
            complete(
                .success(CacheResponses.response(from: stored, age: age, status: .staleIfError(age: age), exchange))
            )
            return
        }
        let entry = CacheResponses.entry(
            for: response,
            method: key.method,
            exchange: exchange,
            cache: cache,
            sessionHeaders: transport.sessionHeaders,
            requestTime: requestTime,
            responseTime: now
        )
        // A newer answer that may not be stored outdates the stored response, unless it is a
        // server error, which says nothing about it.
        let outdatesStored = stored != nil && response.statusCode < 500
        guard entry != nil || outdatesStored else {
            complete(.success(response.with(cacheStatus: .miss)))
            return
        }
        cache.perform { [self] in
            if let entry {
                cache.store.store(entry, for: key)
            } else {
                cache.store.remove(key)
            }
            complete(.success(response.with(cacheStatus: .miss)))
        }
    }

    /// A `304` confirmed `stored`: its headers are updated (RFC 9111 4.3.4) and it is served,
    /// unless the `304` names another representation, which is then fetched in full.
    private func revalidated(
        _ stored: CachedResponse,
        by notModified: Response,
        key: CacheKey,
        requestTime: Date,
        responseTime: Date
    ) {
        let headers = notModified.receivedHead?.head.headers ?? HTTPHeaders()
        if let tag = headers.first(name: "ETag"), let storedTag = stored.entityTag,
            !EntityTag.weaklyMatch(tag, storedTag)
        {
            cache.perform { [self] in
                cache.store.remove(key)
                fetch(key, stored: nil, validating: false)
            }
            return
        }
        let updated = stored.refreshed(by: headers, requestTime: requestTime, responseTime: responseTime)
        let age = CacheFreshness.age(of: updated, now: responseTime)
        @Sendable func serve() {
            cache.store.store(updated, for: key)
            reportProgress(of: updated)
            complete(
                .success(CacheResponses.response(from: updated, age: age, status: .revalidated(age: age), exchange))
            )
        }
        if cache.performsInline {
            serve()
        } else {
            cache.perform(serve)
        }
    }

    // MARK: Steps

    /// Hands `exchange` to the base transport; its answer is taken in for `purpose`.
    private func send(_ exchange: TransportExchange, for purpose: Purpose) {
        guard !exchange.cancellation.isCancelled else {
            complete(.failure(TransportCancellation.error(url: url)))
            return
        }
        let baseEvents = TransportEvents(
            wantsProgress: events.wantsProgress,
            progress: events.progress,
            completion: { [self] result in answer(result, for: purpose) }
        )
        transport.base.send(exchange, events: baseEvents)
    }

    /// The base transport answered the request sent for `purpose`.
    private func answer(_ result: Result<Response, MoyaError>, for purpose: Purpose) {
        switch purpose {
        case .invalidation:
            invalidated(by: result)
        case let .fetch(key, stored, validating, requestTime):
            answered(result, key: key, stored: stored, validating: validating, requestTime: requestTime)
        }
    }

    /// Ends the run.
    private func complete(_ result: Result<Response, MoyaError>) {
        events.completion(result)
    }

    /// A body served from the cache arrives whole: one report, as a transfer's last.
    private func reportProgress(of stored: CachedResponse) {
        guard events.wantsProgress() else { return }
        let progress = Progress(totalUnitCount: Int64(stored.body.count))
        progress.completedUnitCount = Int64(stored.body.count)
        events.progress(progress)
    }
}
