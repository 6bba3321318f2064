import Foundation

/// Logs network activity (outgoing requests and incoming responses).
///
/// Header values that carry credentials (`Authorization`, `Proxy-Authorization`, `Cookie`,
/// `Set-Cookie`) are redacted unless the configuration says otherwise.
public final class NetworkLoggerPlugin: Sendable {
    /// The plugin's configuration.
    public let configuration: Configuration

    /// Initializes a NetworkLoggerPlugin.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Initializes a NetworkLoggerPlugin as older Moya versions did: `verbose` logs bodies
    /// too, `cURL` renders requests as cURL commands.
    public convenience init(verbose: Bool, cURL: Bool = false) {
        var options: Configuration.LogOptions = verbose ? .verbose : .default
        if cURL {
            options.insert(.formatRequestAscURL)
        }
        self.init(configuration: Configuration(logOptions: options))
    }
}

extension NetworkLoggerPlugin: PluginType {
    /// Logs the request.
    public func willSend(_ request: RequestType, target: TargetType) {
        configuration.output(target, requestEntries(request, target: target))
    }

    /// Logs the response or the error.
    public func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
        switch result {
        case .success(let response):
            configuration.output(target, responseEntries(response, target: target, isFromError: false))
        case .failure(let error):
            if let response = error.response {
                configuration.output(target, responseEntries(response, target: target, isFromError: true))
            } else {
                configuration.output(target, [entry("Error", "\(error.errorDescription ?? "\(error)")", target)])
            }
        }
    }
}

extension NetworkLoggerPlugin {
    func requestEntries(_ requestType: RequestType, target: TargetType) -> [String] {
        guard let request = requestType.request else {
            return [entry("Request", "(invalid request)", target)]
        }
        let options = configuration.logOptions
        var output: [String] = []

        if options.contains(.formatRequestAscURL) {
            let command = CURLCommand(
                request: request,
                sessionHeaders: requestType.sessionHeaders,
                redactedHeaders: configuration.redactedHeaders
            )
            // As in Moya 15: the command already holds the method, headers and body.
            return [entry("Request", command.render(), target)]
        } else {
            output.append(entry("Request", request.url?.absoluteString ?? "(no URL)", target))
        }

        if options.contains(.requestHeaders) {
            var headers = requestType.sessionHeaders
            for (name, value) in request.allHTTPHeaderFields ?? [:] {
                headers[name] = value
            }
            let lines = HeaderRedaction.lines(headers, redacting: configuration.redactedHeaders)
            output.append(entry("Request Headers", "[" + lines.joined(separator: ", ") + "]", target))
        }

        if options.contains(.requestBody) {
            if let body = request.httpBody {
                output.append(entry("Request Body", configuration.formatter.requestData(body), target))
            } else if let stream = request.httpBodyStream {
                output.append(entry("Request Body Stream", "\(stream)", target))
            }
        }

        if options.contains(.requestMethod), let method = request.httpMethod {
            output.append(entry("HTTP Request Method", method, target))
        }
        return output
    }

    func responseEntries(_ response: Response, target: TargetType, isFromError: Bool) -> [String] {
        var output: [String] = []
        if let httpResponse = response.response {
            var headers: [String: String] = [:]
            for (name, value) in httpResponse.allHeaderFields {
                headers["\(name)"] = "\(value)"
            }
            let lines = HeaderRedaction.lines(headers, redacting: configuration.redactedHeaders)
            let url = httpResponse.url?.absoluteString ?? "(no URL)"
            output.append(entry(
                "Response",
                "\(httpResponse.statusCode) \(url) [" + lines.joined(separator: ", ") + "]",
                target
            ))
        } else {
            output.append(entry("Response", "Status Code: \(response.statusCode) for \(target) (no HTTP response)", target))
        }

        let options = configuration.logOptions
        if (isFromError && options.contains(.errorResponseBody)) || (!isFromError && options.contains(.successResponseBody)) {
            output.append(entry("Response Body", configuration.formatter.responseData(response.data), target))
        }
        return output
    }

    private func entry(_ identifier: String, _ message: String, _ target: TargetType) -> String {
        configuration.formatter.entry(identifier, message, target)
    }
}
