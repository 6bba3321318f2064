import CLibFuzzer
import Foundation

/// Turns the fuzzer's bytes into structured input, deterministically: the same bytes always
/// give the same values, and running out of bytes gives zeros and empty strings.
public struct FuzzInput {
    /// The byte that ends a string. Valid UTF-8 never holds it, so every other byte sequence
    /// (valid or not) can appear inside a string.
    public static let separator: UInt8 = 0xFF

    private let bytes: [UInt8]
    private var index = 0

    public init(_ start: UnsafeRawPointer, _ count: Int) {
        bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// A number below `bound` (which must be positive).
    public mutating func int(below bound: Int) -> Int { Int(byte()) % bound }

    /// Eight bytes, little-endian.
    public mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) {
            value |= UInt64(byte()) << UInt64(shift)
        }
        return value
    }

    /// The bytes up to the next separator (which is consumed) or the end.
    public mutating func chunk() -> [UInt8] {
        var result: [UInt8] = []
        while index < bytes.count {
            let next = bytes[index]
            index += 1
            if next == Self.separator { break }
            result.append(next)
        }
        return result
    }

    /// A string made of the next chunk; invalid UTF-8 becomes U+FFFD.
    public mutating func string() -> String {
        String(decoding: chunk(), as: UTF8.self)
    }

    /// Everything not read yet.
    public mutating func rest() -> [UInt8] {
        defer { index = bytes.count }
        return index < bytes.count ? Array(bytes[index...]) : []
    }
}

/// Stops the process with a message libFuzzer reports as a crash, with the input saved.
public func propertyFailed(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("Property failed: \(message())", file: file, line: line)
}

public func check(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    if !condition { propertyFailed(message(), file: file, line: line) }
}

/// Runs libFuzzer's driver with the process's arguments.
///
/// SwiftPM links an executable with its `main` symbol renamed to `<Module>_main`, so each
/// target exports that name and calls this, rather than relying on libFuzzer's own `main`.
public func runLibFuzzer(
    _ argc: CInt,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
}
