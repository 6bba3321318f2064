#if RxMoya
import Foundation
import Moya
// RxSwift has no Sendable annotations; these operators only chain synchronous transforms.
@preconcurrency import RxSwift

extension PrimitiveSequence where Trait == SingleTrait, Element == Response {
    /// Passes on the response whose status code falls within `statusCodes`, and fails with
    /// `MoyaError.statusCode` on others.
    public func filter<R: RangeExpression>(statusCodes: R) -> Single<Element> where R.Bound == Int {
        map { try $0.filter(statusCodes: statusCodes) }
    }

    /// Passes on the response with `statusCode`, and fails with `MoyaError.statusCode` on others.
    public func filter(statusCode: Int) -> Single<Element> {
        map { try $0.filter(statusCode: statusCode) }
    }

    /// Passes on the response with a status code in 200...299, and fails with
    /// `MoyaError.statusCode` on others.
    public func filterSuccessfulStatusCodes() -> Single<Element> {
        map { try $0.filterSuccessfulStatusCodes() }
    }

    /// Passes on the response with a status code in 200...399, and fails with
    /// `MoyaError.statusCode` on others.
    public func filterSuccessfulStatusAndRedirectCodes() -> Single<Element> {
        map { try $0.filterSuccessfulStatusAndRedirectCodes() }
    }

    /// Maps the response's data into a JSON object, failing with `MoyaError.jsonMapping`.
    ///
    /// - Parameter failsOnEmptyData: Whether empty data is an error; when it is not, it maps to
    ///   `NSNull()`.
    public func mapJSON(failsOnEmptyData: Bool = true) -> Single<Any> {
        map { try $0.mapJSON(failsOnEmptyData: failsOnEmptyData) }
    }

    #if canImport(UIKit) || canImport(AppKit)
    /// Maps the response's data into an image, failing with `MoyaError.imageMapping`.
    public func mapImage() -> Single<Image> {
        map { try $0.mapImage() }
    }
    #endif

    /// Maps the response's data into a string — the whole body, or the string at `keyPath` of
    /// its JSON — failing with `MoyaError.stringMapping`.
    public func mapString(atKeyPath keyPath: String? = nil) -> Single<String> {
        map { try $0.mapString(atKeyPath: keyPath) }
    }

    /// Decodes the response's data, or the value at `keyPath` of its JSON, into `type`;
    /// fails with `MoyaError.jsonMapping` or `MoyaError.objectMapping` as
    /// `Response.map(_:atKeyPath:using:failsOnEmptyData:)` throws them.
    public func map<D: Decodable>(
        _ type: D.Type,
        atKeyPath keyPath: String? = nil,
        using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) -> Single<D> {
        map { try $0.map(type, atKeyPath: keyPath, using: decoder, failsOnEmptyData: failsOnEmptyData) }
    }
}
#endif
