import Foundation
import Moya
import NIOConcurrencyHelpers
import ServiceContextModule
import Tracing

/// Traces each request with swift-distributed-tracing, as OpenTelemetry's HTTP client
/// conventions ask: a span for the request, named after the target case (`GitHub.userProfile`),
/// child of the caller's `ServiceContext`; and under it one client span per attempt sent (the
/// first, each retry, each answer to an authentication challenge), named after the method.
///
/// Both carry `http.request.method`, `url.full` (credentials and query values redacted),
/// `server.address`, `server.port` and `http.response.status_code`; an attempt after the first
/// carries `http.request.resend_count`. A status of 400 or more, or a failure, marks a span as an
/// error, and failures are recorded on it. Each attempt's request carries the tracer's
/// propagation headers for its own span: with an OpenTelemetry tracer (swift-otel), that is the
/// W3C `traceparent`.
///
/// The spans live in the value the provider keeps per request (`AttemptObservingPlugin`).
public final class TracingPlugin: AttemptObservingPlugin {
    private let tracer: any Tracer

    /// Creates a plugin that starts spans with `tracer`: by default, the one bootstrapped in
    /// `InstrumentationSystem`.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    /// The spans of one request: its own, and the attempt's in flight.
    public final class Observation: Sendable {
        fileprivate let request: any Span
        fileprivate let attempt = NIOLockedValueBox<(any Span)?>(nil)

        fileprivate init(request: any Span) {
            self.request = request
        }
    }

    /// Starts the request's span, as a child of the caller's context.
    public func requestWillStart(_ request: URLRequest, target: TargetType) -> Observation {
        let span = tracer.startSpan(TargetName.of(target), context: ServiceContext.current ?? .topLevel)
        Self.describe(request, on: span)
        return Observation(request: span)
    }

    /// Starts the attempt's client span and adds its propagation headers to the request.
    public func attemptWillSend(_ attempt: Int, request: inout URLRequest, target: TargetType, observation: Observation)
    {
        let span = tracer.startSpan(request.httpMethod ?? "GET", context: observation.request.context, ofKind: .client)
        Self.describe(request, on: span)
        if attempt > 1 {
            span.attributes["http.request.resend_count"] = attempt - 1
        }
        observation.attempt.withLockedValue { $0 = span }
        tracer.inject(span.context, into: &request, using: URLRequestInjector())
    }

    /// Ends the attempt's span with its status, or its failure.
    public func attemptDidEnd(
        _ attempt: Int,
        result: Result<Response, MoyaError>,
        target: TargetType,
        observation: Observation
    ) {
        guard let span = observation.attempt.withLockedValue({ $0.take() }) else { return }
        Self.end(span, with: result)
    }

    /// Ends the request's span with the request's outcome.
    public func requestDidEnd(_ result: Result<Response, MoyaError>, target: TargetType, observation: Observation) {
        Self.end(observation.request, with: result)
    }

    private static func describe(_ request: URLRequest, on span: any Span) {
        span.updateAttributes { attributes in
            attributes["http.request.method"] = request.httpMethod ?? "GET"
            attributes["url.full"] = TelemetryURL.redacted(request.url)
            attributes["server.address"] = request.url?.host
            if let port = request.url?.port {
                attributes["server.port"] = port
            }
        }
    }

    private static func end(_ span: any Span, with result: Result<Response, MoyaError>) {
        switch result {
        case .success(let response):
            span.attributes["http.response.status_code"] = response.statusCode
            if response.statusCode >= 400 {
                span.setStatus(SpanStatus(code: .error))
            }
        case .failure(let error):
            if let statusCode = error.response?.statusCode {
                span.attributes["http.response.status_code"] = statusCode
            }
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: error.errorDescription))
        }
        span.end()
    }
}
