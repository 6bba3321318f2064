// swift-tools-version:6.2
import PackageDescription

/// Platforms without Apple's Combine, where `CombineMoya` uses OpenCombine.
let nonApplePlatforms: [Platform] = [.linux, .windows, .android, .openbsd, .wasi]

let package = Package(
    name: "Moya",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Moya", targets: ["Moya"]),
        .library(name: "CombineMoya", targets: ["CombineMoya"]),
        .library(name: "MoyaTesting", targets: ["MoyaTesting"]),
        .library(name: "MoyaObservability", targets: ["MoyaObservability"]),
        // Empty modules unless their trait is enabled: a product cannot depend on a trait.
        .library(name: "RxMoya", targets: ["RxMoya"]),
        .library(name: "ReactiveMoya", targets: ["ReactiveMoya"]),
        .library(name: "MoyaOpenAPI", targets: ["MoyaOpenAPI"]),
    ],
    // All off by default, so that a package using Moya alone never resolves RxSwift,
    // ReactiveSwift or the OpenAPI runtime: SwiftPM skips a dependency that only disabled
    // traits use.
    traits: [
        .trait(name: "RxMoya", description: "The RxMoya product: Moya's RxSwift extensions (needs RxSwift)."),
        .trait(
            name: "ReactiveMoya",
            description: "The ReactiveMoya product: Moya's ReactiveSwift extensions (needs ReactiveSwift)."
        ),
        .trait(
            name: "OpenAPI",
            description:
                "The MoyaOpenAPI product: a ClientTransport for swift-openapi-generator's clients (needs swift-openapi-runtime)."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.4.1"),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // Used only with the traits of the same names (see `traits`).
        .package(url: "https://github.com/ReactiveX/RxSwift.git", from: "6.0.0"),
        .package(url: "https://github.com/ReactiveCocoa/ReactiveSwift.git", "6.0.0"..<"8.0.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
    ],
    targets: [
        .target(
            name: "Moya",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // `TracingPlugin` and `MetricsPlugin`: a product of its own, so that a package using
        // `Moya` alone never builds swift-metrics or sees the tracing and metrics APIs.
        .target(
            name: "MoyaObservability",
            dependencies: [
                "Moya",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "CombineMoya",
            dependencies: [
                "Moya",
                // Apple's platforms have Combine itself.
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: nonApplePlatforms)),
            ]
        ),
        // `provider.rx`: compiled only with the `RxMoya` trait, an empty module otherwise.
        .target(
            name: "RxMoya",
            dependencies: [
                "Moya",
                .product(name: "RxSwift", package: "RxSwift", condition: .when(traits: ["RxMoya"])),
            ]
        ),
        // `provider.reactive`: compiled only with the `ReactiveMoya` trait, an empty module otherwise.
        .target(
            name: "ReactiveMoya",
            dependencies: [
                "Moya",
                .product(name: "ReactiveSwift", package: "ReactiveSwift", condition: .when(traits: ["ReactiveMoya"])),
            ]
        ),
        // `MoyaTransport`: compiled only with the `OpenAPI` trait, an empty module otherwise.
        .target(
            name: "MoyaOpenAPI",
            dependencies: [
                "Moya",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
            ]
        ),
        // Record/replay, richer stubs and request assertions for users' own tests.
        .target(
            name: "MoyaTesting",
            dependencies: [
                "Moya",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // The Hummingbird server on loopback that every test target starts.
        .target(
            name: "LoopbackServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Tests/LoopbackServer"
        ),
        .testTarget(
            name: "MoyaTestingTests",
            dependencies: [
                "MoyaTesting",
                "LoopbackServer",
                "Moya",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            exclude: ["Example/Fixtures"]
        ),
        // The demo's steps, embedded server and printing, a library so that tests can run them.
        .target(
            name: "MoyaDemoKit",
            dependencies: [
                "Moya",
                "CombineMoya",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: nonApplePlatforms)),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // The demo: an executable target with no product, so that packages depending on this
        // one never resolve Hummingbird or ArgumentParser for it; `swift run moya-demo` runs it.
        .executableTarget(
            name: "moya-demo",
            dependencies: [
                "MoyaDemoKit",
                "Moya",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/MoyaDemo"
        ),
        .testTarget(
            name: "MoyaDemoTests",
            dependencies: [
                "MoyaDemoKit",
                "Moya",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MoyaTests",
            dependencies: [
                "Moya",
                "LoopbackServer",
                // The cache's tests check what `MetricsPlugin` counts of it.
                "MoyaObservability",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "MoyaObservabilityTests",
            dependencies: [
                "MoyaObservability",
                "LoopbackServer",
                "Moya",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "CombineMoyaTests",
            dependencies: [
                "CombineMoya",
                "LoopbackServer",
                "Moya",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: nonApplePlatforms)),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The stubbed API, loopback routes and plugin the reactive extensions' tests share.
        .target(
            name: "ReactiveTestSupport",
            dependencies: [
                "Moya",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/ReactiveTestSupport"
        ),
        // The reactive extensions' tests; their sources are empty without the traits.
        .testTarget(
            name: "RxMoyaTests",
            dependencies: [
                "RxMoya",
                "LoopbackServer",
                "ReactiveTestSupport",
                "Moya",
                .product(name: "RxSwift", package: "RxSwift", condition: .when(traits: ["RxMoya"])),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "ReactiveMoyaTests",
            dependencies: [
                "ReactiveMoya",
                "LoopbackServer",
                "ReactiveTestSupport",
                "Moya",
                .product(name: "ReactiveSwift", package: "ReactiveSwift", condition: .when(traits: ["ReactiveMoya"])),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // The generated client of a small OpenAPI document through `MoyaTransport`, against the
        // loopback server; its sources are empty without the `OpenAPI` trait.
        .testTarget(
            name: "MoyaOpenAPITests",
            dependencies: [
                "MoyaOpenAPI",
                "MoyaTesting",
                "LoopbackServer",
                "Moya",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml"]
        ),
        // Moya 15 RxMoya and ReactiveMoya app code, as `Moya15AppCode` keeps the core's: no
        // diagnostic in either language mode (the Swift 5 target links to the same folder).
        .testTarget(
            name: "Moya15ReactiveAppCode",
            dependencies: [
                "RxMoya",
                "ReactiveMoya",
                "Moya",
                .product(name: "RxSwift", package: "RxSwift", condition: .when(traits: ["RxMoya"])),
                .product(name: "ReactiveSwift", package: "ReactiveSwift", condition: .when(traits: ["ReactiveMoya"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-warnings-as-errors"])]
        ),
        .testTarget(
            name: "Moya15ReactiveAppCodeSwift5",
            dependencies: [
                "RxMoya",
                "ReactiveMoya",
                "Moya",
                .product(name: "RxSwift", package: "RxSwift", condition: .when(traits: ["RxMoya"])),
                .product(name: "ReactiveSwift", package: "ReactiveSwift", condition: .when(traits: ["ReactiveMoya"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-warnings-as-errors"])]
        ),
        // Moya 15 app code and unit tests, unchanged, which must build without a single
        // diagnostic in both language modes: one folder, compiled twice (the Swift 5 target
        // reaches it through a symbolic link).
        .testTarget(
            name: "Moya15AppCode",
            dependencies: ["Moya"],
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-warnings-as-errors"])]
        ),
        .testTarget(
            name: "Moya15AppCodeSwift5",
            dependencies: ["Moya"],
            swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-warnings-as-errors"])]
        ),
        // Code as a Moya user writes it under Swift 6, which must build without a single warning.
        .testTarget(
            name: "MoyaSwift6UserTests",
            dependencies: [
                "Moya",
                "CombineMoya",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: nonApplePlatforms)),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-warnings-as-errors"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
