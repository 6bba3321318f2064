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

        switch task {
        case .requestPlain, .uploadFile, .uploadMultipart, .downloadDestination:
            return request
        case .requestData(let data):
            request.httpBody = data
            return request
        case .requestJSONEncodable(let encodable):
            return try request.encoded(encodable: encodable)
        case let .requestCustomJSONEncodable(encodable, encoder):
            return try request.encoded(encodable: encodable, encoder: encoder)
        case let .requestParameters(parameters, parameterEncoding):
            return try request.encoded(parameters: parameters, parameterEncoding: parameterEncoding)
        case let .uploadCompositeMultipart(_, urlParameters):
            return try request.encoded(
                parameters: urlParameters,
                parameterEncoding: URLEncoding(destination: .queryString)
            )
        case let .downloadParameters(parameters, parameterEncoding, _):
            return try request.encoded(parameters: parameters, parameterEncoding: parameterEncoding)
        case let .requestCompositeData(bodyData, urlParameters):
            request.httpBody = bodyData
            return try request.encoded(
                parameters: urlParameters,
                parameterEncoding: URLEncoding(destination: .queryString)
            )
        case let .requestCompositeParameters(bodyParameters, bodyParameterEncoding, urlParameters):
            if let urlEncoding = bodyParameterEncoding as? URLEncoding, urlEncoding.destination != .httpBody {
                throw MoyaError.parameterEncoding(ParameterEncodingError.bodyEncodingMustTargetHTTPBody)
            }
            let bodyfulRequest = try request.encoded(
                parameters: bodyParameters,
                parameterEncoding: bodyParameterEncoding
            )
            return try bodyfulRequest.encoded(
                parameters: urlParameters,
                parameterEncoding: URLEncoding(destination: .queryString)
            )
        }
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

    func encoded(encodable: Encodable, encoder: JSONEncoder = JSONEncoder()) throws -> URLRequest {
        do {
            var request = self
            request.httpBody = try encoder.encode(encodable)
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            return request
        } catch {
            throw MoyaError.encodableMapping(error)
        }
    }

    func encoded(parameters: [String: Any], parameterEncoding: ParameterEncoding) throws -> URLRequest {
        do {
            return try parameterEncoding.encode(self, with: parameters)
        } catch let error as MoyaError {
            throw error
        } catch {
            throw MoyaError.parameterEncoding(error)
        }
    }
}
