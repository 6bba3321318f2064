extension CachingTransport {
    /// A streamed response passes the cache by: it is read once, as it arrives, so it is never
    /// stored, and never answered from what is stored. A stream requested with an unsafe method
    /// (a `POST` answered with events, say) still removes what is stored for its URL once its
    /// head succeeds, as every unsafe request does (RFC 9111 4.4).
    func open(_ exchange: TransportExchange, events: StreamEvents) {
        guard case .invalidate(let url) = Route(exchange, policy: policy) else {
            base.open(exchange, events: events)
            return
        }
        var invalidating = events
        invalidating.head = { [cache] result in
            guard case .success(let opened) = result, (200..<400).contains(opened.head.statusCode) else {
                events.head(result)
                return
            }
            let keys = Self.invalidatedKeys(requestURL: url, response: opened.head)
            cache.perform {
                for key in keys {
                    cache.store.remove(key)
                }
                events.head(result)
            }
        }
        base.open(exchange, events: invalidating)
    }
}
