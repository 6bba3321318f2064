import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking

/// Foundation's response, with the file name Apple's platforms suggest for it.
///
/// Foundation on Linux names every response without a `Content-Disposition` file name
/// "Unknown", where Apple's platforms take the URL's last path component (the host's name when
/// the path has none), so code saving downloads under the suggested name
/// (`DownloadRequest.suggestedDownloadDestination`) wrote every file to the same name. Callers
/// still see an `HTTPURLResponse`; only the name differs.
///
/// - Note: `@unchecked Sendable` as its superclass is: immutable once made, and it adds no
///   stored state.
final class NamedHTTPURLResponse: HTTPURLResponse, @unchecked Sendable {
    override var suggestedFilename: String? {
        let named = super.suggestedFilename
        guard named == nil || named == "Unknown", value(forHTTPHeaderField: "Content-Disposition") == nil else {
            return named
        }
        let last = url?.lastPathComponent ?? ""
        guard !last.isEmpty, last != "/" else { return url?.host ?? named }
        return last
    }
}
#else
/// Foundation's response: Apple's platforms already suggest a file name from the URL.
typealias NamedHTTPURLResponse = HTTPURLResponse
#endif
