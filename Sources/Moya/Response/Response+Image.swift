// Moya 15's image mapping, on the platforms that have an image type. Linux has none, and no
// machine this package is tested on compiles this file: it is kept as small as Moya's own.
#if canImport(UIKit)
import UIKit

/// The platform's image type: `UIImage` on iOS, tvOS and watchOS.
public typealias ImageType = UIImage
#elseif canImport(AppKit)
import AppKit

/// The platform's image type: `NSImage` on macOS.
public typealias ImageType = NSImage
#endif

#if canImport(UIKit) || canImport(AppKit)
/// An alias for the platform's image type, as Moya 15 names it.
public typealias Image = ImageType

extension Response {
    /// Maps the response's data into an image.
    ///
    /// - Throws: `MoyaError.imageMapping` when the data is not an image.
    public func mapImage() throws -> Image {
        guard let image = Image(data: data) else {
            throw MoyaError.imageMapping(self)
        }
        return image
    }
}
#endif
