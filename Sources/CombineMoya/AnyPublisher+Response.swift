import Foundation
import Moya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension AnyPublisher where Output == Response, Failure == MoyaError {
    /// Passes on responses whose status code falls within `statusCodes`, and fails with
    /// `MoyaError.statusCode` on others.
    public func filter<R: RangeExpression>(statusCodes: R) -> AnyPublisher<Response, MoyaError> where R.Bound == Int {
        mapResponse { try $0.filter(statusCodes: statusCodes) }
    }

    /// Passes on responses with `statusCode`, and fails with `MoyaError.statusCode` on others.
    public func filter(statusCode: Int) -> AnyPublisher<Response, MoyaError> {
        mapResponse { try $0.filter(statusCode: statusCode) }
    }

    /// Passes on responses with a status code in 200...299, and fails with
    /// `MoyaError.statusCode` on others.
    public func filterSuccessfulStatusCodes() -> AnyPublisher<Response, MoyaError> {
        mapResponse { try $0.filterSuccessfulStatusCodes() }
    }

    /// Passes on responses with a status code in 200...399, and fails with
    /// `MoyaError.statusCode` on others.
    public func filterSuccessfulStatusAndRedirectCodes() -> AnyPublisher<Response, MoyaError> {
        mapResponse { try $0.filterSuccessfulStatusAndRedirectCodes() }
    }

    /// Maps each response's data into a JSON object, failing with `MoyaError.jsonMapping`.
    ///
    /// - Parameter failsOnEmptyData: Whether empty data is an error; when it is not, it maps to
    ///   `NSNull()`.
    public func mapJSON(failsOnEmptyData: Bool = true) -> AnyPublisher<Any, MoyaError> {
        mapResponse { try $0.mapJSON(failsOnEmptyData: failsOnEmptyData) }
    }

    #if canImport(UIKit) || canImport(AppKit)
    /// Maps each response's data into an image, failing with `MoyaError.imageMapping`.
    public func mapImage() -> AnyPublisher<Image, MoyaError> {
        mapResponse { try $0.mapImage() }
    }
    #endif

    /// Maps each response's data into a string — the whole body, or the string at `keyPath` of
    /// its JSON — failing with `MoyaError.stringMapping`.
    public func mapString(atKeyPath keyPath: String? = nil) -> AnyPublisher<String, MoyaError> {
        mapResponse { try $0.mapString(atKeyPath: keyPath) }
    }

    /// Decodes each response's data, or the value at `keyPath` of its JSON, into `type`;
    /// fails with `MoyaError.jsonMapping` or `MoyaError.objectMapping` as
    /// `Response.map(_:atKeyPath:using:failsOnEmptyData:)` throws them.
    public func map<D: Decodable>(
        _ type: D.Type,
        atKeyPath keyPath: String? = nil,
        using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) -> AnyPublisher<D, MoyaError> {
        mapResponse { try $0.map(type, atKeyPath: keyPath, using: decoder, failsOnEmptyData: failsOnEmptyData) }
    }

    /// Applies a `Response` mapping function; its errors are `MoyaError`s and stay so.
    private func mapResponse<T>(_ transform: @escaping (Response) throws -> T) -> AnyPublisher<T, MoyaError> {
        tryMap(transform)
            .mapError { error in error as? MoyaError ?? .underlying(error, nil) }
            .eraseToAnyPublisher()
    }
}
