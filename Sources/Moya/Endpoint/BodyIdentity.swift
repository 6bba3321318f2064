import Foundation

/// The form of a request body that endpoint equality compares and hashes.
///
/// A JSON body is compared by what it means, not by its bytes: the encoders that build one
/// (`JSONEncoding`, `requestJSONEncodable`, `JSONSerialization` in a target) write a
/// dictionary's keys in the dictionary's order, which on Linux changes from one encoding of the
/// same value to the next. Comparing bytes would make an endpoint unequal to itself, and
/// in-flight tracking would stop sharing requests. Any other body is compared byte for byte.
enum BodyIdentity {
    /// `body` with a JSON object or array re-serialised with sorted keys; any other body as it is.
    ///
    /// Depends on the body alone, so that two equal bodies always hash alike. Fragments (a bare
    /// string or number) are left as bytes: only containers have a key order to lose.
    static func canonical(_ body: Data?) -> Data? {
        guard let body, let first = body.first(where: { !isJSONWhitespace($0) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        else { return body }
        guard let object = try? JSONSerialization.jsonObject(with: body),
            let sorted = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else { return body }
        return sorted
    }

    /// JSON's insignificant whitespace, skipped to find out cheaply whether a body may be JSON.
    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
