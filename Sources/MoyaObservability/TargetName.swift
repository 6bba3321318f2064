import Foundation
import Moya

/// A short, stable name for a target, for span names and metric dimensions: `GitHub.zen` for
/// an enum case (associated values, which may hold user data, are left out), the type's name
/// otherwise. A `MultiTarget` is named after the target it wraps.
enum TargetName {
    static func of(_ target: TargetType) -> String {
        if let multi = target as? MultiTarget {
            return of(multi.target)
        }
        let typeName = String(describing: type(of: target))
        guard Mirror(reflecting: target).displayStyle == .enum else {
            return typeName
        }
        let description = String(describing: target)
        let caseName = description.prefix { $0 != "(" }
        return "\(typeName).\(caseName)"
    }
}
