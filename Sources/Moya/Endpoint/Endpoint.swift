import Foundation

/// Class for reifying a target of the `Target` enum unto a concrete `Endpoint`.
///
/// An endpoint holds everything needed to build a request: URL, method, task, headers, and the
/// sample response used when stubbing.
///
/// - Note: `@unchecked Sendable` because every stored property is an immutable `let`; the only
///   members not provably `Sendable` are the task's parameter dictionaries and `Encodable`
///   values, which Moya treats as values: it only ever reads them, to encode them.
open class Endpoint: @unchecked Sendable {
    /// A closure that returns the sample response of the endpoint.
    public typealias SampleResponseClosure = () -> EndpointSampleResponse

    /// A closure that returns what a stubbed stream of the endpoint answers; `nil` lets the
    /// sample response answer instead.
    public typealias SampleStreamClosure = () -> SampleStream?

    /// A string representation of the URL for the request.
    public let url: String

    /// A closure responsible for returning an `EndpointSampleResponse`.
    public let sampleResponseClosure: SampleResponseClosure

    /// The HTTP method for the request.
    public let method: Moya.Method

    /// The `Task` for the request.
    public let task: Task

    /// The HTTP header fields for the request.
    public let httpHeaderFields: [String: String]?

    /// What `stream(_:)` and `events(_:reconnect:)` answer when the request is stubbed; `nil`
    /// streams the sample response's data as one chunk.
    public let sampleStreamClosure: SampleStreamClosure?

    /// Creates an endpoint.
    public init(
        url: String,
        sampleResponseClosure: @escaping SampleResponseClosure,
        method: Moya.Method,
        task: Task,
        httpHeaderFields: [String: String]? = nil,
        sampleStreamClosure: SampleStreamClosure? = nil
    ) {
        self.url = url
        self.sampleResponseClosure = sampleResponseClosure
        self.method = method
        self.task = task
        self.httpHeaderFields = httpHeaderFields
        self.sampleStreamClosure = sampleStreamClosure
    }

    /// Convenience method for creating a new `Endpoint` with the same properties as the
    /// receiver, but with added HTTP header fields (which replace fields of the same name).
    open func adding(newHTTPHeaderFields: [String: String]) -> Endpoint {
        copy(httpHeaderFields: add(httpHeaderFields: newHTTPHeaderFields))
    }

    /// Convenience method for creating a new `Endpoint` with the same properties as the
    /// receiver, but with a replaced `task` parameter.
    open func replacing(task: Task) -> Endpoint {
        copy(task: task)
    }

    /// A copy of the endpoint with the parts given replaced and the others kept: what every
    /// `adding` and `replacing` method, here and in MoyaTesting, returns.
    package func copy(
        sampleResponseClosure: SampleResponseClosure? = nil,
        task: Task? = nil,
        httpHeaderFields: [String: String]? = nil,
        sampleStreamClosure: SampleStreamClosure? = nil
    ) -> Endpoint {
        Endpoint(
            url: url,
            sampleResponseClosure: sampleResponseClosure ?? self.sampleResponseClosure,
            method: method,
            task: task ?? self.task,
            httpHeaderFields: httpHeaderFields ?? self.httpHeaderFields,
            sampleStreamClosure: sampleStreamClosure ?? self.sampleStreamClosure
        )
    }

    private func add(httpHeaderFields headers: [String: String]?) -> [String: String]? {
        guard let unwrappedHeaders = headers, !unwrappedHeaders.isEmpty else {
            return self.httpHeaderFields
        }
        var newHTTPHeaderFields = self.httpHeaderFields ?? [:]
        for (key, value) in unwrappedHeaders {
            newHTTPHeaderFields[key] = value
        }
        return newHTTPHeaderFields
    }
}
