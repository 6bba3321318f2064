import Foundation

/// Entity tags (RFC 9110 8.8.3), compared as a cache compares a `304`'s tag with the stored one.
enum EntityTag {
    /// The weak comparison (8.8.3.2): the same tags once any `W/` mark is dropped, white space
    /// around them ignored.
    static func weaklyMatch(_ lhs: String, _ rhs: String) -> Bool {
        opaqueTag(lhs) == opaqueTag(rhs)
    }

    /// `tag` without the white space around it and without its weakness mark. An ASCII tag
    /// (every valid one) is trimmed in place; another is trimmed of Unicode white space.
    static func opaqueTag(_ tag: String) -> Substring {
        let trimmed: Substring
        if ASCII.isASCII(tag) {
            // In ASCII, Unicode white space is the space and the tab.
            let utf8 = tag.utf8
            var start = utf8.startIndex
            var end = utf8.endIndex
            while start < end, ASCII.isBlank(utf8[start]) {
                start = utf8.index(after: start)
            }
            while end > start, ASCII.isBlank(utf8[utf8.index(before: end)]) {
                end = utf8.index(before: end)
            }
            trimmed = tag[start..<end]
        } else {
            trimmed = tag.trimmingCharacters(in: .whitespaces)[...]
        }
        return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
    }
}
