import Moya

extension NetworkBehavior {
    /// An endpoint closure whose stubbed answers follow this behaviour: the endpoint's sample
    /// response, the network failure, or the error response, as drawn.
    ///
    /// - Parameter base: The endpoint closure to wrap; its endpoints are kept, only their sample
    ///   responses change. Pass `recorder.endpointClosure()` to replay fixtures through the
    ///   behaviour.
    public func endpointClosure<Target: TargetType>(
        wrapping base: @escaping MoyaProvider<Target>.EndpointClosure = {
            MoyaProvider<Target>.defaultEndpointMapping(for: $0)
        }
    ) -> MoyaProvider<Target>.EndpointClosure {
        { [self] target in applied(to: base(target)) }
    }

    /// A stub closure that answers every request that `base` stubs after this behaviour's drawn
    /// delay (in place of `base`'s own), and sends the ones `base` does not stub (`.never`).
    ///
    /// - Parameter base: Which requests are stubbed; by default all of them. Pass
    ///   `recorder.stubClosure()` to delay replayed fixtures and leave recorded requests alone.
    public func stubClosure<Target: TargetType>(
        wrapping base: @escaping MoyaProvider<Target>.StubClosure = { MoyaProvider<Target>.immediatelyStub($0) }
    ) -> MoyaProvider<Target>.StubClosure {
        { [self] target in base(target) == .never ? .never : nextStubBehavior() }
    }

    /// An endpoint closure giving each target the behaviour `behavior` chooses for it; a target
    /// given `nil` keeps its endpoint as `base` makes it.
    ///
    /// Return behaviours created once, outside the closure (a new behaviour for each request
    /// would start its sequence again each time). A target can opt in with a property of its
    /// own, passed as `{ $0.networkBehavior }`.
    ///
    /// - Parameters:
    ///   - behavior: The behaviour of a target's requests, or `nil` for none.
    ///   - base: The endpoint closure to wrap.
    public static func endpointClosure<Target: TargetType>(
        for behavior: @escaping (Target) -> NetworkBehavior?,
        wrapping base: @escaping MoyaProvider<Target>.EndpointClosure = {
            MoyaProvider<Target>.defaultEndpointMapping(for: $0)
        }
    ) -> MoyaProvider<Target>.EndpointClosure {
        { target in
            let endpoint = base(target)
            return behavior(target)?.applied(to: endpoint) ?? endpoint
        }
    }

    /// A stub closure delaying each request that `base` stubs as the behaviour `behavior`
    /// chooses for its target; a target given `nil` is stubbed as `base` says.
    ///
    /// Pass the same `behavior` as to `endpointClosure(for:wrapping:)`.
    ///
    /// - Parameters:
    ///   - behavior: The behaviour of a target's requests, or `nil` for none.
    ///   - base: Which requests are stubbed, and how for targets without a behaviour; by default
    ///     all of them, at once.
    public static func stubClosure<Target: TargetType>(
        for behavior: @escaping (Target) -> NetworkBehavior?,
        wrapping base: @escaping MoyaProvider<Target>.StubClosure = { MoyaProvider<Target>.immediatelyStub($0) }
    ) -> MoyaProvider<Target>.StubClosure {
        { target in
            let stub = base(target)
            guard stub != .never, let chosen = behavior(target) else { return stub }
            return chosen.nextStubBehavior()
        }
    }
}
