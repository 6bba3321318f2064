/// The session's default headers, checked once, when the transport is made, instead of on every
/// request: the session's headers do not change, and checking them cost about 6,000
/// instructions a request.
///
/// A header that would corrupt a request is kept as `problem`, which every request then fails
/// with (`Session.Configuration` cannot throw, and a request that overrides the bad header
/// still fails, so that the mistake is found at once). Of two names that differ only in case,
/// the first met is kept: sending both would give the server one field twice.
struct SessionHeaders: Sendable {
    /// The headers to add to a request that does not set the same name, one per name.
    let fields: [(name: String, value: String)]
    /// The first header that would corrupt a request, as the error every request fails with.
    let problem: MoyaClientError?

    init(_ headers: [String: String]) {
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(headers.count)
        var problem: MoyaClientError?
        for (name, value) in headers {
            if problem == nil, let found = HeaderSyntax.problem(name: name, value: value) {
                problem = found
            }
            if !fields.contains(where: { HeaderValidation.isSameName($0.name, name) }) {
                fields.append((name, value))
            }
        }
        self.fields = fields
        self.problem = problem
    }

    /// Whether there are none.
    var isEmpty: Bool { fields.isEmpty }

    /// How many there are, once each.
    var count: Int { fields.count }
}
