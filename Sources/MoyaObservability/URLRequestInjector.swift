import Foundation
import Instrumentation
import Moya

/// Writes a tracer's propagation headers (W3C `traceparent`, with an OpenTelemetry tracer)
/// into a request.
struct URLRequestInjector: Injector {
    func inject(_ value: String, forKey key: String, into request: inout URLRequest) {
        request.setValue(value, forHTTPHeaderField: key)
    }
}
