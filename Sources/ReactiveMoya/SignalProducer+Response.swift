#if ReactiveMoya
import Foundation
import Moya
// ReactiveSwift has no Sendable annotations; these operators only chain synchronous transforms.
@preconcurrency import ReactiveSwift

extension SignalProducerProtocol where Value == Response, Error == MoyaError {
    /// Passes on responses whose status code falls within `statusCodes`, and fails with
    /// `MoyaError.statusCode` on others.
    public func filter<R: RangeExpression>(statusCodes: R) -> SignalProducer<Value, MoyaError> where R.Bound == Int {
        mapResponse { try $0.filter(statusCodes: statusCodes) }
    }

    /// Passes on responses with `statusCode`, and fails with `MoyaError.statusCode` on others.
    public func filter(statusCode: Int) -> SignalProducer<Value, MoyaError> {
        mapResponse { try $0.filter(statusCode: statusCode) }
    }

    /// Passes on responses with a status code in 200...299, and fails with
    /// `MoyaError.statusCode` on others.
    public func filterSuccessfulStatusCodes() -> SignalProducer<Value, MoyaError> {
        mapResponse { try $0.filterSuccessfulStatusCodes() }
    }

    /// Passes on responses with a status code in 200...399, and fails with
    /// `MoyaError.statusCode` on others.
    public func filterSuccessfulStatusAndRedirectCodes() -> SignalProducer<Value, MoyaError> {
        mapResponse { try $0.filterSuccessfulStatusAndRedirectCodes() }
    }

    /// Maps each response's data into a JSON object, failing with `MoyaError.jsonMapping`.
    ///
    /// - Parameter failsOnEmptyData: Whether empty data is an error; when it is not, it maps to
    ///   `NSNull()`.
    public func mapJSON(failsOnEmptyData: Bool = true) -> SignalProducer<Any, MoyaError> {
        mapResponse { try $0.mapJSON(failsOnEmptyData: failsOnEmptyData) }
    }

    #if canImport(UIKit) || canImport(AppKit)
    /// Maps each response's data into an image, failing with `MoyaError.imageMapping`.
    public func mapImage() -> SignalProducer<Image, MoyaError> {
        mapResponse { try $0.mapImage() }
    }
    #endif

    /// Maps each response's data into a string — the whole body, or the string at `keyPath` of
    /// its JSON — failing with `MoyaError.stringMapping`.
    public func mapString(atKeyPath keyPath: String? = nil) -> SignalProducer<String, MoyaError> {
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
    ) -> SignalProducer<D, MoyaError> {
        mapResponse { try $0.map(type, atKeyPath: keyPath, using: decoder, failsOnEmptyData: failsOnEmptyData) }
    }

    /// Applies a `Response` mapping function; its errors are `MoyaError`s and stay so.
    private func mapResponse<T>(_ transform: @escaping (Response) throws -> T) -> SignalProducer<T, MoyaError> {
        producer.attemptMap { response -> Result<T, MoyaError> in
            Result { try transform(response) }.mapError { $0 as? MoyaError ?? .underlying($0, nil) }
        }
    }
}
#endif
