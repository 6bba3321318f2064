/// Fits the demo's text into 80 columns.
enum TextLayout {
    /// The widest line the demo writes.
    static let width = 80

    /// Breaks `text` into lines of at most `width` characters, at spaces where it can and
    /// mid-word only for words longer than a line (a URL, a header dump).
    static func wrap(_ text: String, width: Int = TextLayout.width) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(word)
            let separator = current.isEmpty ? 0 : 1
            if current.count + separator + word.count <= width {
                current += (separator == 1 ? " " : "") + word
                continue
            }
            if !current.isEmpty {
                lines.append(current)
                current = ""
            }
            while word.count > width {
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            current = String(word)
        }
        lines.append(current)
        return lines
    }
}
