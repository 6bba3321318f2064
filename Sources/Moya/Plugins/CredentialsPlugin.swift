import Foundation

/// Provides each request with optional URLCredentials.
///
/// The credential answers the server's `401` challenge (HTTP Basic or Digest): the request is
/// sent once without it and, when challenged, once more with it.
public final class CredentialsPlugin: PluginType {
    /// A closure returning the credential for a target, or `nil` for none.
    public typealias CredentialClosure = (TargetType) -> URLCredential?

    let credentialsClosure: CredentialClosure

    /// Initializes a CredentialsPlugin.
    public init(credentialsClosure: @escaping CredentialClosure) {
        self.credentialsClosure = credentialsClosure
    }

    /// Hands the target's credential to the request.
    public func willSend(_ request: RequestType, target: TargetType) {
        if let credentials = credentialsClosure(target) {
            _ = request.authenticate(with: credentials)
        }
    }
}
