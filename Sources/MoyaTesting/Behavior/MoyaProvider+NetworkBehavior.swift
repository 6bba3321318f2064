import Foundation
import Moya

extension MoyaProvider {
    /// Creates a provider that stubs every request through `networkBehavior`: after its drawn
    /// delay, with the endpoint's sample response, its network failure, or its error response.
    ///
    /// The other parameters mean what they mean for
    /// `init(endpointClosure:requestClosure:stubClosure:callbackQueue:session:plugins:trackInflights:)`.
    ///
    /// - Parameters:
    ///   - networkBehavior: The delays, failures and error responses of the stubbed network.
    ///   - endpointClosure: How targets become endpoints; the behaviour only changes their sample responses.
    ///   - requestClosure: How endpoints become requests.
    ///   - callbackQueue: The queue completions run on when a call names none.
    ///   - session: The session the provider would send requests through.
    ///   - plugins: The plugins.
    ///   - trackInflights: Whether identical endpoints in flight share one request.
    public convenience init(
        networkBehavior: NetworkBehavior,
        endpointClosure: @escaping EndpointClosure = { MoyaProvider.defaultEndpointMapping(for: $0) },
        requestClosure: @escaping RequestClosure = { MoyaProvider.defaultRequestMapping(for: $0, closure: $1) },
        callbackQueue: DispatchQueue? = nil,
        session: Session = MoyaProvider<Target>.defaultAlamofireSession(),
        plugins: [PluginType] = [],
        trackInflights: Bool = false
    ) {
        self.init(
            endpointClosure: networkBehavior.endpointClosure(wrapping: endpointClosure),
            requestClosure: requestClosure,
            stubClosure: networkBehavior.stubClosure(),
            callbackQueue: callbackQueue,
            session: session,
            plugins: plugins,
            trackInflights: trackInflights
        )
    }

    /// Creates a provider whose requests go through `recorder`, and whose replayed requests go
    /// through `networkBehavior` too: fixtures answer after its drawn delay, and some fail or
    /// are its error response. Requests sent to the network (recorded) are left alone.
    ///
    /// - Parameters:
    ///   - recorder: The recorder to record with or replay from.
    ///   - networkBehavior: The delays, failures and error responses of replayed requests.
    ///   - endpointClosure: How targets become endpoints; the recorder and the behaviour only
    ///     replace their sample responses.
    ///   - requestClosure: How endpoints become requests.
    ///   - callbackQueue: The queue completions run on when a call names none.
    ///   - session: The session recorded requests are sent through.
    ///   - plugins: More plugins, called after the recorder's.
    ///   - trackInflights: Whether identical endpoints in flight share one request.
    public convenience init(
        recorder: Recorder,
        networkBehavior: NetworkBehavior,
        endpointClosure: @escaping EndpointClosure = { MoyaProvider.defaultEndpointMapping(for: $0) },
        requestClosure: @escaping RequestClosure = { MoyaProvider.defaultRequestMapping(for: $0, closure: $1) },
        callbackQueue: DispatchQueue? = nil,
        session: Session = MoyaProvider<Target>.defaultAlamofireSession(),
        plugins: [PluginType] = [],
        trackInflights: Bool = false
    ) {
        self.init(
            endpointClosure: networkBehavior.endpointClosure(
                wrapping: recorder.endpointClosure(wrapping: endpointClosure)
            ),
            requestClosure: requestClosure,
            stubClosure: networkBehavior.stubClosure(wrapping: recorder.stubClosure(endpointClosure: endpointClosure)),
            callbackQueue: callbackQueue,
            session: session,
            plugins: [recorder.plugin] + plugins,
            trackInflights: trackInflights
        )
    }
}
