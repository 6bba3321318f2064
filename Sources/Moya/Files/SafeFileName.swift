/// Turns a file name a server suggested (`Content-Disposition`) into one that names a new file
/// inside the folder it is appended to.
///
/// A server is not trusted with paths: `..` would name the folder's parent, `.` or an empty
/// name the folder itself, and `a/../../b` a file elsewhere. Only the last path component is
/// kept, control characters (NUL among them) are dropped, and a name that is still unusable
/// is replaced by `fallback`.
enum SafeFileName {
    /// The name used when the suggested one is missing or unusable.
    static let fallback = "download"

    /// The longest name most file systems accept, in bytes.
    static let maximumLength = 255

    static func make(from suggested: String?) -> String {
        guard let suggested else { return fallback }
        // Both separators: a name written on Windows may use backslashes.
        let lastComponent = suggested.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: lastComponent.unicodeScalars.filter { !isControl($0) })
        var name = String(scalars).trimmingWhitespace()
        while name.utf8.count > maximumLength {
            name.removeFirst()
        }
        guard !name.isEmpty, name != ".", name != ".." else { return fallback }
        return name
    }

    /// C0 and C1 controls and DEL: nothing a person means to see in a file name.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var result = Substring(self)
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return String(result)
    }
}
