import Foundation

/// Where a response came from, as far as the HTTP cache is concerned: `Response.cacheStatus`.
public enum CacheStatus: Sendable, Hashable, CustomStringConvertible {
    /// The cache was not involved: no cache is configured, the policy is `.disabled`, or the
    /// request is one a cache never answers (a download, an upload, an unsafe method). The
    /// status of every response when no cache is configured.
    case network

    /// The cache had no response it could use; this one came from the network (and was stored
    /// if the protocol allows it).
    case miss

    /// Served from the cache without contacting the server; `age` is its age in seconds
    /// (RFC 9111 4.2.3), also sent in its `Age` header.
    case hit(age: TimeInterval)

    /// The server confirmed the stored response with `304 Not Modified`: the stored body was
    /// served with the updated headers. `age` is the age after the update.
    case revalidated(age: TimeInterval)

    /// The network failed, and a stale stored response was served instead (see
    /// `CachePolicy.staleIfError(maxStale:)`); `age` is its age in seconds.
    case staleIfError(age: TimeInterval)

    /// The request asked for a cached response only (`Cache-Control: only-if-cached`) and the
    /// cache had none it could use: the response is a `504 Gateway Timeout` the cache made.
    case unsatisfiable

    /// Whether the body came from the cache: a hit, a revalidation or a stale response.
    public var isFromCache: Bool {
        switch self {
        case .hit, .revalidated, .staleIfError: true
        case .network, .miss, .unsatisfiable: false
        }
    }

    /// The age of a response served from the cache, in seconds; `nil` otherwise.
    public var age: TimeInterval? {
        switch self {
        case .hit(let age), .revalidated(let age), .staleIfError(let age): age
        case .network, .miss, .unsatisfiable: nil
        }
    }

    /// `hit (age 12 s)`, `revalidated (age 0 s)`, `miss` and so on: what the logger prints.
    public var description: String {
        switch self {
        case .network: "network"
        case .miss: "miss"
        case .hit(let age): "hit (age \(Self.seconds(age)) s)"
        case .revalidated(let age): "revalidated (age \(Self.seconds(age)) s)"
        case .staleIfError(let age): "stale after a network failure (age \(Self.seconds(age)) s)"
        case .unsatisfiable: "unsatisfiable (only-if-cached, nothing stored)"
        }
    }

    /// Whole seconds, for display; never traps, whatever the value.
    private static func seconds(_ age: TimeInterval) -> Int {
        age.isFinite ? Int(min(max(age, 0), 1e15)) : 0
    }
}
