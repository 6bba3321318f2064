// swift-format-ignore-file
// Moya 15 app code, kept exactly as apps write it: not formatted.
import Foundation
import Moya

/// A plugin with plain mutable state, as apps write them.
final class CountingPlugin: PluginType {
    var sent = 0
    var received = 0
    var lastTarget: String?

    func willSend(_ request: RequestType, target: TargetType) {
        sent += 1
        lastTarget = "\(target)"
    }

    func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
        received += 1
    }
}

/// A non-final plugin class that rewrites requests and results.
class HeaderPlugin: PluginType {
    var headerValue = "1"

    func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
        var request = request
        request.addValue(headerValue, forHTTPHeaderField: "X-App-Version")
        return request
    }

    func process(_ result: Result<Moya.Response, MoyaError>, target: TargetType) -> Result<Moya.Response, MoyaError> {
        result
    }
}

/// The response formatter of Moya's own demo, a plain global function.
func JSONResponseDataFormatter(_ data: Data) -> String {
    do {
        let dataAsJSON = try JSONSerialization.jsonObject(with: data)
        let prettyData = try JSONSerialization.data(withJSONObject: dataAsJSON, options: .prettyPrinted)
        return String(data: prettyData, encoding: .utf8) ?? String(data: data, encoding: .utf8) ?? ""
    } catch {
        return String(data: data, encoding: .utf8) ?? ""
    }
}

/// The token store an app keeps, read by `AccessTokenPlugin`'s closure.
final class TokenStore {
    var token = "t0ken"
}

enum Plugins {
    static func logger() -> NetworkLoggerPlugin {
        let formatter = NetworkLoggerPlugin.Configuration.Formatter(responseData: JSONResponseDataFormatter)
        let logger = NetworkLoggerPlugin(configuration: .init(formatter: formatter, logOptions: .verbose))
        logger.configuration.logOptions = .verbose
        return logger
    }

    static func accessToken(_ store: TokenStore) -> AccessTokenPlugin {
        AccessTokenPlugin { _ in store.token }
    }

    static func activity(_ log: ActivityLog) -> NetworkActivityPlugin {
        NetworkActivityPlugin { change, _ in
            switch change {
            case .began: log.began += 1
            case .ended: log.ended += 1
            }
        }
    }
}

final class ActivityLog {
    var began = 0
    var ended = 0
}
