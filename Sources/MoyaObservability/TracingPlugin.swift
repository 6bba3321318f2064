import Foundation
import Moya
import NIOConcurrencyHelpers
import ServiceContextModule
import Tracing

/// Traces each request with swift-distributed-tracing: one client span per request, named after
/// the target case (`GitHub.userProfile`), child of the caller's `ServiceContext`.
///
/// The span carries `http.request.method`, `url.full` (credentials and query values redacted),
/// `server.address`, `server.port` and `http.response.status_code`; a status of 400 or more, or
/// a failure, marks it as an error, and failures are recorded on it. The tracer's propagation
/// headers are added to the request: with an OpenTelemetry tracer (swift-otel), that is the
/// W3C `traceparent`.
public final class TracingPlugin: PluginType {
    private let tracer: any Tracer
    /// Spans in flight, by request identifier (see `RequestContext`).
    private let spans = NIOLockedValueBox<[String: any Span]>([:])

    /// Creates a plugin that starts spans with `tracer`: by default, the one bootstrapped in
    /// `InstrumentationSystem`.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    /// Starts the request's span and adds the tracer's propagation headers to the request.
    public func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
        guard let requestID = RequestContext.current?.requestID else { return request }
        let span = tracer.startSpan(
            TargetName.of(target),
            context: ServiceContext.current ?? .topLevel,
            ofKind: .client
        )
        span.updateAttributes { attributes in
            attributes["http.request.method"] = request.httpMethod ?? "GET"
            attributes["url.full"] = TelemetryURL.redacted(request.url)
            attributes["server.address"] = request.url?.host
            if let port = request.url?.port {
                attributes["server.port"] = port
            }
        }
        spans.withLockedValue { $0[requestID] = span }
        var request = request
        tracer.inject(span.context, into: &request, using: URLRequestInjector())
        return request
    }

    /// Ends the request's span with the response's status, or the failure.
    public func didReceive(_ result: Result<Response, MoyaError>, target: TargetType) {
        guard let span = takeSpan() else { return }
        end(span, with: result)
    }

    /// Ends the span of a request that failed before it was sent; returns `result` unchanged.
    public func process(_ result: Result<Response, MoyaError>, target: TargetType) -> Result<Response, MoyaError> {
        // A request that failed before it was sent (an illegal header, say) has no `didReceive`.
        if let span = takeSpan() {
            end(span, with: result)
        }
        return result
    }

    private func takeSpan() -> (any Span)? {
        guard let requestID = RequestContext.current?.requestID else { return nil }
        return spans.withLockedValue { $0.removeValue(forKey: requestID) }
    }

    private func end(_ span: any Span, with result: Result<Response, MoyaError>) {
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
