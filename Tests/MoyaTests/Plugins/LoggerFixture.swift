import Foundation
import Moya

/// Short names for the logger's nested types.
typealias LogOptions = NetworkLoggerPlugin.Configuration.LogOptions
/// See `LogOptions`.
typealias LogFormatter = NetworkLoggerPlugin.Configuration.Formatter

/// Plugins, requests and responses shared by the logger's suites.
enum LoggerFixture {
    static let url = URL(string: "https://api.example.test/zen?x=1")!

    /// A plugin whose entries read `identifier: message` and land in the returned log.
    static func logger(
        _ options: LogOptions,
        redactedHeaders: Set<String> = NetworkLoggerPlugin.Configuration.defaultRedactedHeaders,
        requestData: @escaping LogFormatter.DataFormatterType = LogFormatter.defaultDataFormatter,
        responseData: @escaping LogFormatter.DataFormatterType = LogFormatter.defaultDataFormatter
    ) -> (NetworkLoggerPlugin, EventLog) {
        let log = EventLog()
        let formatter = LogFormatter(
            entry: { identifier, message, _ in "\(identifier): \(message)" },
            requestData: requestData,
            responseData: responseData
        )
        let configuration = NetworkLoggerPlugin.Configuration(
            formatter: formatter,
            output: { _, items in items.forEach(log.record) },
            logOptions: options,
            redactedHeaders: redactedHeaders
        )
        return (NetworkLoggerPlugin(configuration: configuration), log)
    }

    static func request(
        _ method: Moya.Method = .post,
        url: URL = url,
        headers: [String: String] = [:],
        body: Data? = nil
    ) -> URLRequest {
        var request = URLRequest(url: url)
        request.method = method
        request.allHTTPHeaderFields = headers
        request.httpBody = body
        return request
    }

    static func httpResponse(_ statusCode: Int, url: URL = url, headers: [String: String] = [:]) -> HTTPURLResponse {
        HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers)!
    }

    static func response(_ statusCode: Int, body: String, url: URL = url, headers: [String: String] = [:]) -> Response {
        Response(
            statusCode: statusCode,
            data: Data(body.utf8),
            response: httpResponse(statusCode, url: url, headers: headers)
        )
    }

    static func entries(_ log: EventLog, _ identifier: String) -> [String] {
        log.all.filter { $0.hasPrefix(identifier + ": ") }
    }

    /// `text` with object addresses (`0x00005571c2a0`) blanked: a description of a copy of a
    /// response differs from the original's only there.
    static func withoutAddresses(_ text: String) -> String {
        text.replacingOccurrences(of: "0x[0-9a-fA-F]+", with: "0x…", options: .regularExpression)
    }
}
