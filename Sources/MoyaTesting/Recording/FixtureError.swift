import Foundation
import Moya

/// Why a `Recorder` could not answer or record a request. Requests report it as
/// `MoyaError.underlying(_, _)`; read it back with `MoyaError.fixtureError`.
public struct FixtureError: Error, LocalizedError, CustomNSError, Sendable, Equatable {
    /// What went wrong.
    public enum Kind: Int, Sendable, Equatable {
        /// In replay, no fixture file exists for the request.
        case missing = 1
        /// The fixture file exists but cannot be read or decoded.
        case unreadable = 2
        /// The fixture file could not be written while recording.
        case unwritable = 3
    }

    /// The error domain of the `NSError` form of this error.
    public static let errorDomain = "MoyaTesting.FixtureError"

    /// What went wrong.
    public let kind: Kind

    /// The fixture file concerned.
    public let fileURL: URL

    /// Details: the request that had no fixture, or the cause of a read or write failure.
    public let reason: String

    /// Creates a fixture error.
    public init(kind: Kind, fileURL: URL, reason: String) {
        self.kind = kind
        self.fileURL = fileURL
        self.reason = reason
    }

    /// A sentence naming the file, fit for a test failure message.
    public var errorDescription: String? {
        switch kind {
        case .missing:
            return "No fixture file \(fileURL.path) for \(reason). Record it in the .record or .recordMissing mode."
        case .unreadable:
            return "The fixture file \(fileURL.path) cannot be read: \(reason)."
        case .unwritable:
            return "The fixture file \(fileURL.path) cannot be written: \(reason)."
        }
    }

    /// The error's code: its kind.
    public var errorCode: Int { kind.rawValue }

    /// The description, the file path and the reason, for the `NSError` form.
    public var errorUserInfo: [String: Any] {
        [
            NSLocalizedDescriptionKey: errorDescription ?? reason,
            NSFilePathErrorKey: fileURL.path,
            Self.reasonKey: reason,
        ]
    }

    /// The `NSError` a stub's `.networkError` carries. Built field by field rather than
    /// bridged: bridged Swift errors do not round-trip the same way on every platform.
    var nsError: NSError {
        NSError(domain: Self.errorDomain, code: errorCode, userInfo: errorUserInfo)
    }

    private static let reasonKey = "MoyaTestingFixtureReason"

    /// Reads a fixture error back from either form.
    init?(_ error: Error) {
        if let fixtureError = error as? FixtureError {
            self = fixtureError
            return
        }
        let nsError = error as NSError
        guard nsError.domain == Self.errorDomain, let kind = Kind(rawValue: nsError.code),
            let path = nsError.userInfo[NSFilePathErrorKey] as? String
        else { return nil }
        self.init(
            kind: kind,
            fileURL: URL(fileURLWithPath: path),
            reason: nsError.userInfo[Self.reasonKey] as? String ?? ""
        )
    }
}

extension MoyaError {
    /// The recorder's error this error carries, if any: a missing, unreadable or unwritable
    /// fixture file.
    public var fixtureError: FixtureError? {
        guard case .underlying(let error, _) = self else { return nil }
        return FixtureError(error)
    }
}
