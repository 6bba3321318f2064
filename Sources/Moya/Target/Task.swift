import Foundation

/// Represents an HTTP task: what a request sends and how its response is received.
///
/// Inside a file that imports Moya, `Task` names this type. Use `_Concurrency.Task` for
/// Swift's structured-concurrency task there, or refer to this type as `HTTPTask`.
public enum Task {
    /// A request with no additional data.
    case requestPlain

    /// A request's body set with data.
    case requestData(Data)

    /// A request's body set with an `Encodable` type, encoded with a default `JSONEncoder`.
    case requestJSONEncodable(Encodable)

    /// A request's body set with an `Encodable` type and a custom encoder.
    case requestCustomJSONEncodable(Encodable, encoder: JSONEncoder)

    /// A request's parameters, encoded with the given encoding.
    case requestParameters(parameters: [String: Any], encoding: ParameterEncoding)

    /// A request's body set with data, combined with URL parameters.
    case requestCompositeData(bodyData: Data, urlParameters: [String: Any])

    /// A request's body set with encoded parameters, combined with URL parameters.
    ///
    /// A `URLEncoding` used as `bodyEncoding` must have the `.httpBody` destination.
    case requestCompositeParameters(
        bodyParameters: [String: Any],
        bodyEncoding: ParameterEncoding,
        urlParameters: [String: Any]
    )

    /// A file upload task, streamed from disk.
    case uploadFile(URL)

    /// A "multipart/form-data" upload task.
    case uploadMultipart([MultipartFormData])

    /// A "multipart/form-data" upload task combined with URL parameters.
    case uploadCompositeMultipart([MultipartFormData], urlParameters: [String: Any])

    /// A file download task to a destination.
    case downloadDestination(DownloadDestination)

    /// A file download task to a destination with extra parameters, using the given encoding.
    case downloadParameters(parameters: [String: Any], encoding: ParameterEncoding, destination: DownloadDestination)
}

/// Moya's `Task`, under a name that does not shadow Swift's `Task`.
public typealias HTTPTask = Task
