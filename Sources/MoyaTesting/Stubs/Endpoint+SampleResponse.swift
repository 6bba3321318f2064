import Moya

extension Endpoint {
    /// A copy of the endpoint that answers stubbed requests with `sampleResponseClosure`.
    ///
    /// Use it in an endpoint closure to give the default endpoint a richer stub:
    ///
    /// ```swift
    /// let endpointClosure = { (target: API) -> Endpoint in
    ///     MoyaProvider.defaultEndpointMapping(for: target)
    ///         .replacing(sampleResponseClosure: sequence.sampleResponseClosure)
    /// }
    /// ```
    public func replacing(sampleResponseClosure: @escaping SampleResponseClosure) -> Endpoint {
        copy(sampleResponseClosure: sampleResponseClosure)
    }
}
