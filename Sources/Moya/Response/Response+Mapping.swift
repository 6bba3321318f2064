import Foundation

extension Response {
    /// Returns the `Response` if the `statusCode` falls within the specified range.
    ///
    /// - Throws: `MoyaError.statusCode` when others are encountered.
    public func filter<R: RangeExpression>(statusCodes: R) throws -> Response where R.Bound == Int {
        guard statusCodes.contains(statusCode) else {
            throw MoyaError.statusCode(self)
        }
        return self
    }

    /// Returns the `Response` if it has the specified `statusCode`.
    ///
    /// - Throws: `MoyaError.statusCode` when others are encountered.
    public func filter(statusCode: Int) throws -> Response {
        try filter(statusCodes: statusCode...statusCode)
    }

    /// Returns the `Response` if the `statusCode` falls within 200...299.
    ///
    /// - Throws: `MoyaError.statusCode` when others are encountered.
    public func filterSuccessfulStatusCodes() throws -> Response {
        try filter(statusCodes: 200...299)
    }

    /// Returns the `Response` if the `statusCode` falls within 200...399.
    ///
    /// - Throws: `MoyaError.statusCode` when others are encountered.
    public func filterSuccessfulStatusAndRedirectCodes() throws -> Response {
        try filter(statusCodes: 200...399)
    }

    /// Maps data received from the signal into a JSON object.
    ///
    /// - Parameter failsOnEmptyData: A Boolean value determining whether the mapping should
    ///   fail if the data is empty; when it does not, empty data maps to `NSNull()`.
    /// - Throws: `MoyaError.jsonMapping` when the data is not JSON.
    public func mapJSON(failsOnEmptyData: Bool = true) throws -> Any {
        if data.isEmpty {
            if failsOnEmptyData { throw MoyaError.jsonMapping(self) }
            return NSNull()
        }
        do {
            return try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            throw MoyaError.jsonMapping(self)
        }
    }

    /// Maps data received from the signal into a String.
    ///
    /// - Parameter keyPath: Optional key path at which to parse a string from JSON.
    /// - Throws: `MoyaError.jsonMapping` when a key path is given and the data is not JSON;
    ///   `MoyaError.stringMapping` when the data is not UTF-8 text, or when no string lies at
    ///   the key path.
    public func mapString(atKeyPath keyPath: String? = nil) throws -> String {
        if let keyPath {
            guard let string = JSONKeyPath.value(at: keyPath, in: try mapJSON()) as? String else {
                throw MoyaError.stringMapping(self)
            }
            return string
        }
        guard let string = String(data: data, encoding: .utf8) else {
            throw MoyaError.stringMapping(self)
        }
        return string
    }

    /// Maps data received from the signal into a Decodable object.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - keyPath: Optional key path at which to find the value; it may be a nested object,
    ///     an array or a top-level fragment such as a string or a number.
    ///   - decoder: The decoder to use. Defaults to a new `JSONDecoder`.
    ///   - failsOnEmptyData: Whether empty data is an error; when it is not, the value is
    ///     decoded from `{}` (or `[{}]`) if the type allows it, and a key path that leads
    ///     nowhere decodes the whole body instead, as in Moya.
    /// - Throws: `MoyaError.jsonMapping` when the data or key path is unusable,
    ///   `MoyaError.objectMapping` when decoding fails.
    public func map<D: Decodable>(
        _ type: D.Type,
        atKeyPath keyPath: String? = nil,
        using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) throws -> D {
        var jsonData = data
        if let keyPath {
            let json = try mapJSON(failsOnEmptyData: failsOnEmptyData)
            if let value = JSONKeyPath.value(at: keyPath, in: json) {
                jsonData = try serialize(value)
            } else if failsOnEmptyData {
                throw MoyaError.jsonMapping(self)
            }
        }

        if jsonData.isEmpty && !failsOnEmptyData {
            return try decodeEmpty(type, using: decoder)
        }
        do {
            return try decoder.decode(D.self, from: jsonData)
        } catch {
            throw MoyaError.objectMapping(error, self)
        }
    }

    /// Serializes a value found at a key path back to JSON; fragments (strings, numbers, null)
    /// are serialized as such.
    private func serialize(_ value: Any) throws -> Data {
        do {
            try SerializableValueCheck.validateJSON(value)
            return try JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed)
        } catch {
            throw MoyaError.jsonMapping(self)
        }
    }

    private func decodeEmpty<D: Decodable>(_ type: D.Type, using decoder: JSONDecoder) throws -> D {
        if let value = try? decoder.decode(D.self, from: Data("{}".utf8)) {
            return value
        }
        if let value = try? decoder.decode(D.self, from: Data("[{}]".utf8)) {
            return value
        }
        do {
            return try decoder.decode(D.self, from: data)
        } catch {
            throw MoyaError.objectMapping(error, self)
        }
    }
}
