/// Byte rules for ASCII text, which header names and values are in practice. The byte-wise
/// paths that use them check `isASCII` first, and read any other text as Unicode.
enum ASCII {
    /// Whether every byte of `text` is ASCII.
    static func isASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// A space or a tab: HTTP's optional white space, and the only Unicode white space in ASCII
    /// apart from line breaks.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// `byte` with an ASCII capital letter made small; any other byte unchanged.
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
