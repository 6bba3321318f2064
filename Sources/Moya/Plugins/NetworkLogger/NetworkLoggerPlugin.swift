import Foundation

/// Logs network activity (outgoing requests and incoming responses).
///
/// Entries read as Moya 15 writes them (`Moya_Logger: [<date>] Request: <url>`), with two
/// differences that keep secrets out of logs: the values of the headers named in
/// ``Configuration/redactedHeaders`` (by default `Authorization`, `Proxy-Authorization`,
/// `Cookie` and `Set-Cookie`) are replaced by `<redacted>`, and the password of a URL such as
/// `http://user:password@host/` is replaced by `redacted`.
///
/// As in Moya, ``configuration`` is a `var` and the plugin is not `Sendable`: set the
/// configuration before handing the plugin to a provider, and leave it alone while requests run.
public final class NetworkLoggerPlugin {
    /// The plugin's configuration: what is logged, how it is formatted and where it goes.
    public var configuration: Configuration

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

    /// A plugin that logs the method and headers of requests.
    public class var `default`: NetworkLoggerPlugin {
        NetworkLoggerPlugin(configuration: Configuration(logOptions: .default))
    }

    /// A plugin that logs requests and responses with their bodies.
    public class var verbose: NetworkLoggerPlugin {
        NetworkLoggerPlugin(configuration: Configuration(logOptions: .verbose))
    }
}

extension NetworkLoggerPlugin: PluginType {
    /// Logs the request.
    public func willSend(_ request: RequestType, target: TargetType) {
        logRequest(request, target: target) { [configuration] entries in
            configuration.output(target, entries)
        }
    }

    /// Logs the response, or the error when there is no response.
    public func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
        switch result {
        case .success(let response):
            configuration.output(target, responseEntries(response, target: target, isFromError: false))
        case .failure(let error):
            // An error from validation still carries the response; a transport error does not.
            if let response = error.response {
                configuration.output(target, responseEntries(response, target: target, isFromError: true))
            } else {
                configuration.output(target, [entry("Error", "Error calling \(target) : \(error)", target)])
            }
        }
    }
}

extension NetworkLoggerPlugin {
    /// Hands the request's entries to `completion`, which a cURL description may call later.
    func logRequest(_ requestType: RequestType, target: TargetType, completion: @escaping ([String]) -> Void) {
        let configuration = configuration
        if configuration.logOptions.contains(.formatRequestAscURL) {
            if let sent = requestType as? MoyaRequest, let request = sent.request {
                // The provider's own request: the command its `cURLDescription` gives, rendered
                // with the secrets replaced.
                let command = CURLCommand(
                    request: request,
                    sessionHeaders: sent.sessionHeaders,
                    logRedaction: configuration.redactedHeaders
                )
                completion([entry("Request", command.render(), target)])
            } else {
                // Another `RequestType` renders itself, as Moya lets it.
                _ = requestType.cURLDescription { description in
                    completion([configuration.formatter.entry("Request", description, target)])
                }
            }
            return
        }
        completion(requestEntries(requestType, target: target))
    }

    func requestEntries(_ requestType: RequestType, target: TargetType) -> [String] {
        guard let request = requestType.request else {
            return [entry("Request", "(invalid request)", target)]
        }
        let options = configuration.logOptions
        // Printed from a copy so that its description keeps URLRequest's shape.
        var printed = request
        printed.url = request.url.map(URLRedaction.hidingPassword)
        var output = [entry("Request", printed.description, target)]

        if options.contains(.requestHeaders) {
            let headers = HeaderRedaction.merged(
                session: requestType.sessionHeaders,
                request: request.allHTTPHeaderFields ?? [:],
                redacting: configuration.redactedHeaders
            )
            output.append(entry("Request Headers", HeaderRedaction.dictionaryDescription(headers), target))
        }

        if options.contains(.requestBody) {
            if let stream = request.httpBodyStream {
                output.append(entry("Request Body Stream", stream.description, target))
            }
            if let body = request.httpBody {
                output.append(entry("Request Body", configuration.formatter.requestData(body), target))
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
            let shown = HeaderRedaction.redacted(httpResponse, redacting: configuration.redactedHeaders)
            // Without a URL there is no password to hide, but the headers still are.
            let description = shown?.description ?? "HTTP status \(httpResponse.statusCode) (no URL, headers not shown)"
            output.append(entry("Response", description, target))
        } else {
            output.append(entry("Response", "Received empty network response for \(target).", target))
        }
        // Only when a cache took part, so that the entries stay Moya 15's without one.
        if response.cacheStatus != .network {
            output.append(entry("Cache", response.cacheStatus.description, target))
        }

        let options = configuration.logOptions
        let logsBody = isFromError ? options.contains(.errorResponseBody) : options.contains(.successResponseBody)
        if logsBody {
            output.append(entry("Response Body", configuration.formatter.responseData(response.data), target))
        }
        return output
    }

    private func entry(_ identifier: String, _ message: String, _ target: TargetType) -> String {
        configuration.formatter.entry(identifier, message, target)
    }
}
