/// The demo's steps, in the order they build on one another.
public enum DemoSteps {
    /// Every step.
    public static let all: [DemoStep] = [
        target,
        decoding,
        query,
        logger,
        accessToken,
        upload,
        download,
        retry,
        resilience,
        refresh,
        stubbing,
        asyncCombine,
        streaming,
    ]

    /// The step `--step` names, if there is one.
    public static func named(_ name: String) -> DemoStep? {
        all.first { $0.name == name }
    }
}
