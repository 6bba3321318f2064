import AsyncHTTPClient
import Foundation
import NIOHTTP1

extension AsyncHTTPClientTransport {
    /// What follows a redirect a trip received.
    enum AfterRedirect {
        /// Not reached: a delegate keeps a head as a redirect only when `RedirectHops` would
        /// follow it (`Route.redirectBase`). The response is delivered as it is.
        case deliver
        /// A redirect: the exchange goes on with these trips, to the URL it named.
        case follow(PoolTrips)
        /// Too many redirects.
        case fail(MoyaError)
    }

    /// What follows `head`, a redirect the transport follows (its delegate said so), received
    /// from `url` in answer to `trips`' request: the trips of the request it leads to, with the
    /// session's cookies kept on the hop (`RedirectCookies`), or the failure URLSession reports
    /// for too many redirects.
    func afterRedirect(_ head: HTTPResponseHead, from url: URL, of trips: PoolTrips) -> AfterRedirect {
        guard var hops = trips.hops else { return .deliver }
        let exchange = trips.exchange
        let step = hops.next(
            status: Int(head.status.code),
            location: head.headers.first(name: "Location"),
            after: exchange.request
        )
        switch step {
        case .deliver:
            return .deliver
        case .tooManyRedirects:
            return .fail(.underlying(hops.rule.tooManyRedirects(url: url), nil))
        case .follow(var request, let keepsBody):
            exchange.redirectCookies?.hop(setting: head.headers["Set-Cookie"], from: url, to: &request)
            var next = exchange
            next.request = request
            if !keepsBody {
                next.endpoint = exchange.endpoint.replacing(task: exchange.endpoint.task.withoutBody)
            }
            return .follow(PoolTrips(redirectedTo: next, after: trips, hops: hops))
        }
    }
}

extension RedirectHops {
    /// Whether `head` is a redirect the transport follows (or fails on, past the limit) from
    /// `base`, `nil` when it follows none: its body is of no use then.
    static func isFollowed(_ head: HTTPResponseHead, from base: URL?) -> Bool {
        guard let base else { return false }
        return target(status: Int(head.status.code), location: head.headers.first(name: "Location"), from: base) != nil
    }
}

extension Task {
    /// The task of a request a redirect turned into a `GET`: no body, the same destination for
    /// a download.
    fileprivate var withoutBody: Task {
        switch self {
        case .downloadDestination(let destination), .downloadParameters(_, _, let destination):
            return .downloadDestination(destination)
        default:
            return .requestPlain
        }
    }
}
