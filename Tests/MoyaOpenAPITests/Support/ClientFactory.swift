#if OpenAPI
import Foundation
import Moya
import MoyaOpenAPI

/// The generated client over a `MoyaTransport`, as a user builds it.
func makeClient(
    _ serverURL: URL,
    provider: MoyaProvider<OpenAPIOperation> = MoyaProvider<OpenAPIOperation>(),
    configuration: MoyaTransport.Configuration = MoyaTransport.Configuration()
) -> Client {
    Client(serverURL: serverURL, transport: MoyaTransport(provider: provider, configuration: configuration))
}

/// A session of its own, so that a test's connections and cache are its own.
func isolatedSession(cache: HTTPCache? = nil) -> Session {
    Session(configuration: .init(cache: cache, cookieStorage: nil))
}
#endif
