import Foundation

/// A user as the API returns it.
public struct User: Decodable, Sendable {
    /// The user's login name.
    public let login: String
    /// The user's numeric identifier.
    public let id: Int
}

/// A repository as the API returns it.
public struct Repository: Decodable, Sendable {
    /// The repository's name.
    public let name: String
}

/// What the embedded server received in a multipart upload.
struct UploadReceipt: Codable, Sendable {
    /// The body's size in bytes.
    let bytes: Int
    /// The form fields' names, in order.
    let parts: [String]
}

/// How many attempts the flaky endpoint saw before it answered.
struct FlakyReport: Codable, Sendable {
    let attempts: Int
}

/// A starred repository list, answered by the token-protected route.
struct Starred: Codable, Sendable {
    let repositories: [String]
}
