import Foundation

/// Controls how stub responses are returned.
public enum EndpointSampleResponse {
    /// The network returned a response, including status code and data.
    case networkResponse(Int, Data)

    /// The network returned a response, including the full `HTTPURLResponse` and data.
    case response(HTTPURLResponse, Data)

    /// The network failed to send the request, or failed to retrieve a response (eg a timeout).
    case networkError(NSError)
}
