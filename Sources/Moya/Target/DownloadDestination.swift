import Foundation

/// A closure that decides where a downloaded file goes.
///
/// It receives the temporary file's URL and the response, and returns the final URL and the
/// options for moving the file there. The file is moved only when the download succeeds.
public typealias DownloadDestination = DownloadRequest.Destination

/// A namespace for download destinations and their options, named as in Alamofire so that
/// `DownloadRequest.Options` and `DownloadRequest.suggestedDownloadDestination` keep compiling.
public enum DownloadRequest {
    /// Options for moving a downloaded file into place.
    public struct Options: OptionSet, Sendable {
        /// Create the intermediate directories of the destination URL.
        public static let createIntermediateDirectories = Options(rawValue: 1 << 0)

        /// Remove a file already at the destination URL.
        public static let removePreviousFile = Options(rawValue: 1 << 1)

        /// Set on destinations whose file name the server chose: `removePreviousFile` then
        /// replaces a file, never a directory. Not public: only `suggestedDownloadDestination`
        /// sets it, so that an explicit destination keeps Alamofire's behaviour.
        static let neverReplaceDirectory = Options(rawValue: 1 << 30)

        /// The options' bits.
        public let rawValue: Int

        /// Creates options from their bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }
    }

    /// A closure that returns where a downloaded file goes and how to move it there.
    public typealias Destination = (_ temporaryURL: URL, _ response: HTTPURLResponse) -> (
        destinationURL: URL, options: Options
    )

    /// A destination in a system directory, named after the response's suggested file name.
    ///
    /// The name comes from the server, so it is made safe first (see `SafeFileName`): the file
    /// always lands inside the directory, under a name that is neither `.`, `..`, empty, a path
    /// nor full of control characters. With `.removePreviousFile`, a file of that name is
    /// replaced, but a directory of that name never is: the download then fails instead.
    ///
    /// - Parameters:
    ///   - directory: The search path directory. Defaults to `.documentDirectory`.
    ///   - domain: The search path domain mask. Defaults to `.userDomainMask`.
    ///   - options: The move options. Defaults to none.
    public static func suggestedDownloadDestination(
        for directory: FileManager.SearchPathDirectory = .documentDirectory,
        in domain: FileManager.SearchPathDomainMask = .userDomainMask,
        options: Options = []
    ) -> Destination {
        { temporaryURL, response in
            let directoryURL =
                FileManager.default.urls(for: directory, in: domain).first
                ?? temporaryURL.deletingLastPathComponent()
            return suggestedDestination(in: directoryURL, options: options)(temporaryURL, response)
        }
    }

    /// The destination `suggestedDownloadDestination` builds, in an explicit directory.
    static func suggestedDestination(in directoryURL: URL, options: Options) -> Destination {
        { _, response in
            let fileName = SafeFileName.make(from: response.suggestedFilename)
            return (
                directoryURL.appendingPathComponent(fileName, isDirectory: false), options.union(.neverReplaceDirectory)
            )
        }
    }
}
