import Foundation
import Moya

extension MoyaProvider {
    /// Creates a provider whose requests go through `recorder`: recorded to fixture files,
    /// replayed from them, or both, as its mode says.
    ///
    /// The recorder's plugin comes first, before `plugins`; the other parameters mean what they
    /// mean for `init(endpointClosure:requestClosure:stubClosure:callbackQueue:session:plugins:trackInflights:)`.
    ///
    /// - Parameters:
    ///   - recorder: The recorder to record with or replay from.
    ///   - endpointClosure: How targets become endpoints; the recorder only replaces their sample responses.
    ///   - requestClosure: How endpoints become requests.
    ///   - stubBehavior: How replayed requests are answered: `.immediate` or `.delayed(seconds:)`.
    ///   - callbackQueue: The queue completions run on when a call names none.
    ///   - session: The session recorded requests are sent through.
    ///   - plugins: More plugins, called after the recorder's.
    ///   - trackInflights: Whether identical endpoints in flight share one request.
    public convenience init(
        recorder: Recorder,
        endpointClosure: @escaping EndpointClosure = { MoyaProvider.defaultEndpointMapping(for: $0) },
        requestClosure: @escaping RequestClosure = { MoyaProvider.defaultRequestMapping(for: $0, closure: $1) },
        stubBehavior: StubBehavior = .immediate,
        callbackQueue: DispatchQueue? = nil,
        session: Session = MoyaProvider<Target>.defaultAlamofireSession(),
        plugins: [PluginType] = [],
        trackInflights: Bool = false
    ) {
        self.init(
            endpointClosure: recorder.endpointClosure(wrapping: endpointClosure),
            requestClosure: requestClosure,
            stubClosure: recorder.stubClosure(endpointClosure: endpointClosure, behavior: stubBehavior),
            callbackQueue: callbackQueue,
            session: session,
            plugins: [recorder.plugin] + plugins,
            trackInflights: trackInflights
        )
    }
}
