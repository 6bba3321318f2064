import Foundation
import Logging
import NIOConcurrencyHelpers

extension NetworkLoggerPlugin {
    /// What the logger writes, how, and where.
    public struct Configuration {
        /// Receives the formatted entries of one request or response.
        public typealias OutputType = (_ target: TargetType, _ items: [String]) -> Void

        /// Formats entries and bodies.
        public var formatter: Formatter

        /// Where entries go. Defaults to standard output.
        public var output: OutputType

        /// What is logged.
        public var logOptions: LogOptions

        /// Header names (case-insensitive) whose values are replaced by `<redacted>`.
        public var redactedHeaders: Set<String> {
            get { lowercasedRedactedHeaders }
            // Lower-cased once here, so that every lookup is a plain `contains`.
            set { lowercasedRedactedHeaders = Set(newValue.map { $0.lowercased() }) }
        }

        private var lowercasedRedactedHeaders: Set<String>

        /// The headers redacted by default: `Authorization`, `Proxy-Authorization`, `Cookie`
        /// and `Set-Cookie`.
        public static var defaultRedactedHeaders: Set<String> { HeaderRedaction.defaultHeaders }

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - formatter: Turns entries and bodies into text.
        ///   - output: Where entries go. Defaults to standard output.
        ///   - logOptions: What is logged. Defaults to the method and headers of requests.
        ///   - redactedHeaders: Header names whose values are hidden; pass `[]` to log
        ///     every value.
        public init(
            formatter: Formatter = Formatter(),
            output: @escaping OutputType = defaultOutput,
            logOptions: LogOptions = .default,
            redactedHeaders: Set<String> = defaultRedactedHeaders
        ) {
            self.formatter = formatter
            self.output = output
            self.logOptions = logOptions
            self.lowercasedRedactedHeaders = Set(redactedHeaders.map { $0.lowercased() })
        }

        /// Prints every entry on its own line.
        public static func defaultOutput(target: TargetType, items: [String]) {
            for item in items {
                print(item, separator: ",", terminator: "\n")
            }
        }

        /// An output that writes every entry to a swift-log `Logger` at `level`, with the
        /// target (`moya.target`) and the request's identifier (`moya.request-id`, the same on
        /// every line of one request; see `RequestContext`) in the metadata.
        public static func logger(_ logger: Logger, level: Logger.Level = .info) -> OutputType {
            { target, items in
                var metadata: Logger.Metadata = ["moya.target": "\(target)"]
                if let requestID = RequestContext.current?.requestID {
                    metadata["moya.request-id"] = "\(requestID)"
                }
                for item in items {
                    logger.log(level: level, "\(item)", metadata: metadata)
                }
            }
        }
    }
}

extension NetworkLoggerPlugin.Configuration {
    /// Which parts of requests and responses are logged.
    public struct LogOptions: OptionSet, Sendable {
        /// The option set's bits.
        public let rawValue: Int

        /// Creates options from their bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The request's method.
        public static let requestMethod = LogOptions(rawValue: 1 << 0)
        /// The request's body.
        public static let requestBody = LogOptions(rawValue: 1 << 1)
        /// The request's headers.
        public static let requestHeaders = LogOptions(rawValue: 1 << 2)
        /// The request as a cURL command instead of its URL.
        public static let formatRequestAscURL = LogOptions(rawValue: 1 << 3)
        /// The body of successful responses.
        public static let successResponseBody = LogOptions(rawValue: 1 << 4)
        /// The body of responses that produced an error.
        public static let errorResponseBody = LogOptions(rawValue: 1 << 5)

        /// The method and headers of requests.
        public static let `default`: LogOptions = [requestMethod, requestHeaders]
        /// Everything but cURL rendering.
        public static let verbose: LogOptions = [
            requestMethod, requestHeaders, requestBody, successResponseBody, errorResponseBody,
        ]
    }
}

extension NetworkLoggerPlugin.Configuration {
    /// Turns entries and bodies into text.
    public struct Formatter {
        /// Turns a body into text.
        public typealias DataFormatterType = (Data) -> String
        /// Turns an identifier and a message into one log line.
        public typealias EntryFormatterType = (_ identifier: String, _ message: String, _ target: TargetType) -> String

        /// Formats entries.
        public var entry: EntryFormatterType
        /// Formats request bodies.
        public var requestData: DataFormatterType
        /// Formats response bodies.
        public var responseData: DataFormatterType

        /// Creates a formatter.
        public init(
            entry: @escaping EntryFormatterType = defaultEntryFormatter,
            requestData: @escaping DataFormatterType = defaultDataFormatter,
            responseData: @escaping DataFormatterType = defaultDataFormatter
        ) {
            self.entry = entry
            self.requestData = requestData
            self.responseData = responseData
        }

        /// UTF-8 text, or a note giving the size of a body that is not text.
        public static func defaultDataFormatter(_ data: Data) -> String {
            String(data: data, encoding: .utf8) ?? "## Cannot map data to String (\(data.count) bytes) ##"
        }

        /// `Moya_Logger: [<date>] <identifier>: <message>`, the date in the short date and time
        /// styles of the current locale, as Moya writes it.
        public static func defaultEntryFormatter(identifier: String, message: String, target: TargetType) -> String {
            let date = defaultEntryDateFormatter.withLockedValue { $0.string(from: Date()) }
            return "Moya_Logger: [\(date)] \(identifier): \(message)"
        }

        /// Made once because a `DateFormatter` is costly to create, and used under a lock
        /// because entries are formatted on whichever thread a request reports from.
        static let defaultEntryDateFormatter: NIOLockedValueBox<DateFormatter> = {
            let formatter = DateFormatter()
            formatter.dateStyle = .short
            formatter.timeStyle = .short
            return NIOLockedValueBox(formatter)
        }()
    }
}
