import Foundation

extension Redaction {
    private var redactedHeaderNames: Set<String> {
        Set((Self.alwaysRedactedHeaders.union(headers)).map { $0.lowercased() })
    }

    private var redactedParameterNames: Set<String> {
        Set(queryParameters.map { $0.lowercased() })
    }

    private var redactedFieldNames: Set<String> {
        Set(jsonFields.map { $0.lowercased() })
    }

    /// `headers` with the values of secret headers replaced.
    func redact(headers: [String: String]) -> [String: String] {
        let secret = redactedHeaderNames
        var result: [String: String] = [:]
        for (name, value) in headers {
            result[name] = secret.contains(name.lowercased()) ? placeholder : value
        }
        return result
    }

    /// `url` with the values of secret query parameters, and any password, replaced.
    func redact(url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        if components.password != nil {
            components.password = placeholder
        }
        if let items = components.percentEncodedQueryItems, !redactedParameterNames.isEmpty {
            let encodedPlaceholder =
                placeholder.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? ""
            components.percentEncodedQueryItems = items.map { item in
                guard isSecretParameter(item.name) else { return item }
                return URLQueryItem(name: item.name, value: encodedPlaceholder)
            }
        }
        return components.url ?? url
    }

    /// `body` with secret JSON fields (or form parameters) replaced. The bytes come back
    /// unchanged when there is nothing to replace, so a fixture keeps the body as it was sent.
    func redact(body: Data, contentType: String?) -> Data {
        if !redactedFieldNames.isEmpty,
            let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            json is [String: Any] || json is [Any]
        {
            let (redacted, changed) = redact(json: json)
            guard changed else { return body }
            return (try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys])) ?? body
        }
        if !redactedParameterNames.isEmpty, contentType?.lowercased().contains("x-www-form-urlencoded") == true,
            let text = String(data: body, encoding: .utf8)
        {
            return Data(redact(form: text).utf8)
        }
        return body
    }

    private func redact(json: Any) -> (Any, Bool) {
        if let object = json as? [String: Any] {
            var changed = false
            var result: [String: Any] = [:]
            for (key, value) in object {
                if redactedFieldNames.contains(key.lowercased()) {
                    result[key] = placeholder
                    changed = true
                } else {
                    let (inner, innerChanged) = redact(json: value)
                    result[key] = inner
                    changed = changed || innerChanged
                }
            }
            return (result, changed)
        }
        if let array = json as? [Any] {
            var changed = false
            let result = array.map { element -> Any in
                let (inner, innerChanged) = redact(json: element)
                changed = changed || innerChanged
                return inner
            }
            return (result, changed)
        }
        return (json, false)
    }

    private func redact(form: String) -> String {
        let encodedPlaceholder = placeholder.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? ""
        return form.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            guard isSecretParameter(name) else { return String(pair) }
            return "\(name)=\(encodedPlaceholder)"
        }.joined(separator: "&")
    }

    private func isSecretParameter(_ encodedName: String) -> Bool {
        let name = (encodedName.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? encodedName)
            .lowercased()
        return redactedParameterNames.contains(name)
    }
}

extension CharacterSet {
    /// What may stand unescaped in a query value: `&`, `=`, `+` and `#` would change its meaning.
    static let urlQueryValueAllowed: CharacterSet = {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#")
        return allowed
    }()
}
