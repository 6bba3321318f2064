import Crypto
import Foundation

/// Answers an HTTP `401` challenge (RFC 9110 section 11) with a credential: HTTP Basic
/// (RFC 7617) or Digest (RFC 7616, MD5 and SHA-256, `qop=auth`).
struct AuthenticationChallenge: Equatable {
    /// The scheme, lower-cased (`basic`, `digest`).
    var scheme: String
    /// The challenge's parameters, names lower-cased.
    var parameters: [String: String]

    /// The challenges of `WWW-Authenticate` header values, in order.
    static func parse(_ headerValue: String) -> [AuthenticationChallenge] {
        var challenges: [AuthenticationChallenge] = []
        var scanner = ChallengeScanner(headerValue)
        while let scheme = scanner.token() {
            var challenge = AuthenticationChallenge(scheme: scheme.lowercased(), parameters: [:])
            while let (name, value) = scanner.parameter() {
                challenge.parameters[name.lowercased()] = value
            }
            challenges.append(challenge)
            scanner.skipSeparators()
        }
        return challenges
    }

    /// The `Authorization` value answering the best challenge we support, or `nil`.
    static func authorization(
        for headerValue: String,
        credential: URLCredential,
        method: String,
        uri: String,
        clientNonce: String = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    ) -> String? {
        guard let user = credential.user, let password = credential.password else { return nil }
        let challenges = parse(headerValue)
        if let digest = challenges.first(where: { $0.scheme == "digest" && $0.digestAlgorithm != nil }) {
            return digest.digestAuthorization(
                user: user,
                password: password,
                method: method,
                uri: uri,
                clientNonce: clientNonce
            )
        }
        if challenges.contains(where: { $0.scheme == "basic" }) {
            return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        }
        return nil
    }

    private enum DigestAlgorithm: String {
        case md5 = "MD5"
        case sha256 = "SHA-256"

        func hash(_ string: String) -> String {
            let data = Data(string.utf8)
            switch self {
            case .md5:
                return Insecure.MD5.hash(data: data).map { String(format: "%02x", $0) }.joined()
            case .sha256:
                return SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
            }
        }
    }

    private var digestAlgorithm: DigestAlgorithm? {
        DigestAlgorithm(rawValue: (parameters["algorithm"] ?? "MD5").uppercased())
    }

    private func digestAuthorization(
        user: String,
        password: String,
        method: String,
        uri: String,
        clientNonce: String
    ) -> String? {
        guard let algorithm = digestAlgorithm, let nonce = parameters["nonce"] else { return nil }
        let realm = parameters["realm"] ?? ""
        let ha1 = algorithm.hash("\(user):\(realm):\(password)")
        let ha2 = algorithm.hash("\(method):\(uri)")
        let offersAuth = (parameters["qop"] ?? "").split(separator: ",").contains {
            $0.trimmingCharacters(in: .whitespaces) == "auth"
        }
        let nonceCount = "00000001"

        var fields = [
            "username=\"\(Self.quoted(user))\"",
            "realm=\"\(Self.quoted(realm))\"",
            "nonce=\"\(Self.quoted(nonce))\"",
            "uri=\"\(Self.quoted(uri))\"",
            "algorithm=\(algorithm.rawValue)",
        ]
        if offersAuth {
            let response = algorithm.hash("\(ha1):\(nonce):\(nonceCount):\(clientNonce):auth:\(ha2)")
            fields += ["qop=auth", "nc=\(nonceCount)", "cnonce=\"\(clientNonce)\"", "response=\"\(response)\""]
        } else {
            fields.append("response=\"\(algorithm.hash("\(ha1):\(nonce):\(ha2)"))\"")
        }
        if let opaque = parameters["opaque"] {
            fields.append("opaque=\"\(Self.quoted(opaque))\"")
        }
        return "Digest " + fields.joined(separator: ", ")
    }

    private static func quoted(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}

/// Reads `scheme param=value, param="quoted value", scheme2 ...` one piece at a time.
private struct ChallengeScanner {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) {
        characters = Array(text)
    }

    private mutating func skipSpaces() {
        while index < characters.count, characters[index] == " " || characters[index] == "\t" {
            index += 1
        }
    }

    mutating func skipSeparators() {
        while index < characters.count,
            characters[index] == " " || characters[index] == "," || characters[index] == "\t"
        {
            index += 1
        }
    }

    private func isTokenCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || "!#$%&'*+-.^_`|~".contains(character)
    }

    /// A scheme: a token not followed by `=`.
    mutating func token() -> String? {
        skipSeparators()
        let start = index
        while index < characters.count, isTokenCharacter(characters[index]) {
            index += 1
        }
        guard index > start else { return nil }
        return String(characters[start..<index])
    }

    /// A `name=value` parameter, or `nil` (without consuming) when the next piece is a scheme.
    mutating func parameter() -> (String, String)? {
        let saved = index
        skipSeparators()
        let start = index
        while index < characters.count, isTokenCharacter(characters[index]) {
            index += 1
        }
        let name = String(characters[start..<index])
        skipSpaces()
        guard !name.isEmpty, index < characters.count, characters[index] == "=" else {
            index = saved
            return nil
        }
        index += 1
        skipSpaces()
        var value = ""
        if index < characters.count, characters[index] == "\"" {
            index += 1
            while index < characters.count, characters[index] != "\"" {
                if characters[index] == "\\", index + 1 < characters.count {
                    index += 1
                }
                value.append(characters[index])
                index += 1
            }
            index = min(index + 1, characters.count)
        } else {
            while index < characters.count, characters[index] != ",", characters[index] != " " {
                value.append(characters[index])
                index += 1
            }
        }
        return (name, value)
    }
}
