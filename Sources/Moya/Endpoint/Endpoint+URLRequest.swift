import Foundation

extension Endpoint {
    /// Returns the `Endpoint` converted to a `URLRequest`.
    ///
    /// A multipart task gives a request without a body, whatever the method, as in Moya: the
    /// parts are encoded when the request is sent, and sending is what refuses a method that
    /// cannot carry them (see `checkMultipartCanBeSent(_:method:)`).
    ///
    /// - Throws: `MoyaError.requestMapping` when `url` is not a valid URL,
    ///   `MoyaError.parameterEncoding` when parameters cannot be encoded, and
    ///   `MoyaError.encodableMapping` when an `Encodable` body cannot be encoded.
    public func urlRequest() throws -> URLRequest {
        guard let requestURL = Self.strictURL(url) else {
            throw MoyaError.requestMapping(url)
        }

        var request = URLRequest(url: requestURL)
        // A new URLRequest's method is GET already; Foundation's setter normalises the name,
        // which on Linux costs more than building the rest of the request.
        if method.rawValue != "GET" {
            request.httpMethod = method.rawValue
        }
        request.allHTTPHeaderFields = httpHeaderFields

        // Encoded in place: `request` is held by nothing else, so no change below copies it.
        switch task {
        case .requestPlain, .uploadFile, .uploadMultipart, .downloadDestination:
            break
        case .requestData(let data):
            request.httpBody = data
        case .requestJSONEncodable(let encodable):
            try request.encode(encodable: encodable)
        case let .requestCustomJSONEncodable(encodable, encoder):
            try request.encode(encodable: encodable, encoder: encoder)
        case let .requestParameters(parameters, parameterEncoding):
            try request.encode(parameters: parameters, parameterEncoding: parameterEncoding)
        case let .uploadCompositeMultipart(_, urlParameters):
            try request.encode(parameters: urlParameters, parameterEncoding: URLEncoding(destination: .queryString))
        case let .downloadParameters(parameters, parameterEncoding, _):
            try request.encode(parameters: parameters, parameterEncoding: parameterEncoding)
        case let .requestCompositeData(bodyData, urlParameters):
            request.httpBody = bodyData
            try request.encode(parameters: urlParameters, parameterEncoding: URLEncoding(destination: .queryString))
        case let .requestCompositeParameters(bodyParameters, bodyParameterEncoding, urlParameters):
            if let urlEncoding = bodyParameterEncoding as? URLEncoding, urlEncoding.destination != .httpBody {
                throw MoyaError.parameterEncoding(ParameterEncodingError.bodyEncodingMustTargetHTTPBody)
            }
            try request.encode(parameters: bodyParameters, parameterEncoding: bodyParameterEncoding)
            try request.encode(parameters: urlParameters, parameterEncoding: URLEncoding(destination: .queryString))
        }
        return request
    }

    /// Parses `string` as it is, as Moya did with Foundation's older `URL(string:)`: a string
    /// with characters a URL cannot hold ("some invalid URL") is not a URL. Newer Foundations
    /// (macOS 14, and on Linux) percent-encode such characters unless told not to, which would
    /// turn a typo into a request to a path nobody meant.
    static func strictURL(_ string: String) -> URL? {
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
            return URL(string: string, encodingInvalidCharacters: false)
        }
        return URL(string: string)
    }
}

extension URLRequest {
    /// The `timeoutInterval` of a request nobody set one on, as URLSession defines it.
    static let defaultTimeoutInterval: TimeInterval = 60

    /// Sets the JSON of `encodable` as the body, and `Content-Type: application/json` unless
    /// the request has one.
    ///
    /// - Throws: `MoyaError.encodableMapping` when `encoder` fails.
    mutating func encode(encodable: Encodable, encoder: JSONEncoder = JSONEncoder()) throws {
        do {
            httpBody = try encoder.encode(encodable)
        } catch {
            throw MoyaError.encodableMapping(error)
        }
        if value(forHTTPHeaderField: "Content-Type") == nil {
            setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
    }

    /// Applies `parameterEncoding`: the package's own URL and JSON encodings change the
    /// request in place; any other encoding's `encode(_:with:)` makes the new request.
    ///
    /// - Throws: `MoyaError.parameterEncoding` wrapping the encoding's error, or the
    ///   `MoyaError` it threw.
    mutating func encode(parameters: [String: Any], parameterEncoding: ParameterEncoding) throws {
        do {
            if let encoding = parameterEncoding as? URLEncoding {
                try encoding.encode(into: &self, with: parameters)
            } else if let encoding = parameterEncoding as? JSONEncoding {
                try encoding.encode(into: &self, withJSONObject: parameters)
            } else {
                self = try parameterEncoding.encode(self, with: parameters)
            }
        } catch let error as MoyaError {
            throw error
        } catch {
            throw MoyaError.parameterEncoding(error)
        }
    }
}
