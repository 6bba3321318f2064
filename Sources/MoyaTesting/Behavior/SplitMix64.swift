/// A small seeded generator: Steele, Lea and Flood's SplitMix64.
///
/// A network behaviour's draws come from here rather than the system generator so that one seed
/// gives the same delays, failures and error responses on every platform and toolchain, which is
/// what lets a failing run be replayed.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates the generator; the same `seed` always gives the same sequence.
    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<1`, from the next value's top 53 bits.
    ///
    /// Mapped here rather than with `Double.random(in:using:)`, whose algorithm the standard
    /// library does not promise to keep: a recorded seed must replay the same values.
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
