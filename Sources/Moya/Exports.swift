@_exported import Foundation

// On Linux `URLRequest`, `HTTPURLResponse` and `URLCredential` live in FoundationNetworking.
// Moya users' targets and plugins name these types after `import Moya` alone, so the module
// re-exports it: their code compiles unchanged on every platform.
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
