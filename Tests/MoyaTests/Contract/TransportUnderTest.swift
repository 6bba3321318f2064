import Foundation
import Testing

@testable import Moya

/// The transports every contract test runs against: the same test, the same server, the same
/// expectations, so that both keep the one `Transport` contract.
enum TransportUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case asyncHTTPClient
    case urlSession

    var testDescription: String { rawValue }

    /// A session with `configuration` that sends through this transport.
    func session(
        _ configuration: Session.Configuration = Session.Configuration(cookieStorage: nil),
        interceptor: RequestInterceptor? = nil
    ) -> Session {
        let transport: any Transport =
            switch self {
            case .asyncHTTPClient: AsyncHTTPClientTransport(configuration: configuration)
            case .urlSession: URLSessionTransport(configuration: configuration)
            }
        return Session(transport: transport, configuration: configuration, interceptor: interceptor)
    }

    /// A provider over `session(configuration, interceptor:)`, with `plugins`.
    func provider(
        _ configuration: Session.Configuration = Session.Configuration(cookieStorage: nil),
        interceptor: RequestInterceptor? = nil,
        plugins: [PluginType] = []
    ) -> MoyaProvider<DynamicTarget> {
        MoyaProvider<DynamicTarget>(session: session(configuration, interceptor: interceptor), plugins: plugins)
    }

    /// Whether the transport follows a `307` without the request's body: URLSession on Linux
    /// does (see `URLSessionLinuxRedirects`).
    var dropsTheBodyOnA307: Bool {
        #if canImport(FoundationNetworking)
        self == .urlSession
        #else
        false
        #endif
    }

    /// A new empty directory, for a test's temporary or downloaded files.
    static func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("moya-contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
