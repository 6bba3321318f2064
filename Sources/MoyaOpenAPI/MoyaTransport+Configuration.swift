#if OpenAPI
import Foundation
import HTTPTypes

extension MoyaTransport {
    /// How a `MoyaTransport` handles bodies.
    public struct Configuration: Sendable {
        /// The default `requestBodyMemoryLimit`: 1 MiB.
        public static let defaultRequestBodyMemoryLimit = 1 << 20

        /// The most bytes of a request body held in memory; a larger body is spooled to a
        /// temporary file in `temporaryDirectory`, and sent from there.
        public var requestBodyMemoryLimit: Int

        /// Where request bodies larger than `requestBodyMemoryLimit` are spooled. Each file is
        /// removed once its request can no longer read it.
        public var temporaryDirectory: URL

        /// Decides, for each operation, whether its response is received whole or streamed;
        /// `ResponseDelivery.default(for:)` unless set.
        public var delivery: @Sendable (OpenAPIOperation) -> ResponseDelivery

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - requestBodyMemoryLimit: The most bytes of a request body held in memory.
        ///   - temporaryDirectory: Where larger request bodies are spooled; the system's
        ///     temporary directory by default.
        ///   - delivery: Whether each operation's response is received whole or streamed.
        public init(
            requestBodyMemoryLimit: Int = Configuration.defaultRequestBodyMemoryLimit,
            temporaryDirectory: URL = FileManager.default.temporaryDirectory,
            delivery: @escaping @Sendable (OpenAPIOperation) -> ResponseDelivery = {
                ResponseDelivery.default(for: $0.request)
            }
        ) {
            self.requestBodyMemoryLimit = max(0, requestBodyMemoryLimit)
            self.temporaryDirectory = temporaryDirectory
            self.delivery = delivery
        }

        /// The spool these settings describe.
        var spool: RequestBodySpool {
            RequestBodySpool(memoryLimit: requestBodyMemoryLimit, directory: temporaryDirectory)
        }
    }
}
#endif
