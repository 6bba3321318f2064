/// One titled walk through a Moya feature: what it is, the code, and the real result.
public struct DemoStep: Sendable {
    /// The name `--step` selects it by.
    public let name: String
    /// The step's heading.
    public let title: String
    /// One or two sentences on the Moya concept.
    let explanation: String
    /// The code the step runs, shown briefly.
    let code: String
    /// Whether the step needs a route only the embedded server has.
    public let needsEmbeddedServer: Bool
    private let body: @Sendable (DemoContext) async throws -> Void

    init(
        name: String,
        title: String,
        explanation: String,
        code: String,
        needsEmbeddedServer: Bool = false,
        body: @escaping @Sendable (DemoContext) async throws -> Void
    ) {
        self.name = name
        self.title = title
        self.explanation = explanation
        self.code = code
        self.needsEmbeddedServer = needsEmbeddedServer
        self.body = body
    }

    /// Runs the step's requests, writing their results to the context's output.
    ///
    /// - Throws: the error that made the step fail.
    public func run(in context: DemoContext) async throws {
        try await body(context)
    }
}

/// A step's result was not what the step shows.
struct DemoStepError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
