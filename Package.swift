// swift-tools-version:6.0
// navsim: UIKit view-controller navigation as a headless HTTP service.
// Targets and their one-way dependencies are described in docs/architecture.md.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]
// Imports are internal unless marked `public import` (a public API shows an imported type), and a
// file sees only the members of modules it imports itself.
let imports: [SwiftSetting] =
    strict + [
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        // Release builds let one target specialise and inline another's generic code (the stores
        // call SessionStorage's row writers; the service calls the core and JSONValues on every
        // request), which otherwise runs unspecialised across the module boundary.
        .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
    ]

let package = Package(
    name: "navsim",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "navsim", targets: ["navsim"])
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        .target(name: "NavigationCore", swiftSettings: imports),
        .target(name: "Storyboards", dependencies: ["NavigationCore"], swiftSettings: imports),
        // `navsim lint` and `navsim refactor` (docs/lint.md, docs/refactor.md): no server, no database.
        .target(name: "StoryboardTools", dependencies: ["NavigationCore", "Storyboards"], swiftSettings: imports),
        // `navsim explore` (docs/explore.md): a breadth-first search over the core's pure apply; no I/O.
        .target(name: "Exploration", dependencies: ["NavigationCore", "Storyboards", "JSONValues"], swiftSettings: imports),
        .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: imports),
        .target(name: "PostgreSQL", dependencies: ["CLibPQ"], swiftSettings: imports),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"], swiftSettings: imports),
        // Starting programs (Graphviz's dot; the test suites' navsim) without Foundation's Process.
        .target(name: "ProcessSpawning", swiftSettings: imports),
        // Session and storyboard pictures (text, DOT, SVG through Graphviz) and the inspector page,
        // drawn from the routes' JSON replies (docs/pictures.md); the service does the HTTP side.
        .target(name: "Pictures", dependencies: ["ProcessSpawning"], swiftSettings: imports),
        // The store's contract (`SessionStoring`), its rows, group commit, reachability and the
        // migration files; no database of its own.
        .target(name: "SessionStorage", swiftSettings: imports),
        // JSON values, their parser and the compact byte writer (RFC 8259): what request bodies are
        // parsed into and what replies and stored rows are written with.
        .target(name: "JSONValues", swiftSettings: imports),
        // The stored format of sessions (docs/architecture.md "Storage"): the stored types, their
        // codec, turns as rows, history rebuilt from change-sets; nothing in it knows HTTP.
        .target(name: "SessionFormat", dependencies: ["NavigationCore", "SessionStorage", "JSONValues"], swiftSettings: imports),
        // The two stores: each on its own database wrapper, never on each other.
        .target(name: "SQLiteStore", dependencies: ["SessionStorage", "SQLite", "CSQLite"], swiftSettings: imports),
        .target(name: "PostgresStore", dependencies: ["SessionStorage", "PostgreSQL"], swiftSettings: imports),
        // The service sees only the contract; `navsim serve` picks the store.
        .target(
            name: "NavSimService",
            dependencies: [
                "NavigationCore", "Storyboards", "StoryboardTools", "SessionStorage", "HTTPServer",
                "ProcessSpawning", "Pictures", "JSONValues", "SessionFormat", "Exploration",
            ],
            swiftSettings: imports),
        // Flow files (docs/flows.md): `navsim test` and `navsim record`.
        .target(
            name: "Flows",
            dependencies: ["NavSimService", "NavigationCore", "Storyboards", "StoryboardTools", "SQLiteStore", "HTTPServer", "JSONValues"],
            swiftSettings: imports),
        .executableTarget(
            name: "navsim",
            dependencies: [
                "NavSimService", "SessionStorage", "SQLiteStore", "PostgresStore", "Flows", "Storyboards",
                "StoryboardTools", "HTTPServer", "JSONValues", "Exploration", "NavigationCore",
            ],
            swiftSettings: imports, plugins: ["EmbedOpenAPI"]),
        // The build plugin that compiles openapi.yaml into navsim (Plugins/EmbedOpenAPI), and its tool.
        .plugin(name: "EmbedOpenAPI", capability: .buildTool(), dependencies: ["embed-text"]),
        .executableTarget(name: "embed-text", path: "Sources/EmbedText", swiftSettings: imports),
        // Commit round trips and batched throughput of either store (scripts/pg-bench.sh); not a product.
        .executableTarget(
            name: "store-bench", dependencies: ["SessionStorage", "SQLiteStore", "PostgresStore", "PostgreSQL"], path: "Sources/StoreBench",
            swiftSettings: imports),
        // Helpers more than one test target reads (shared/ lookup, the storyboard corpus index).
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: imports),
        // Faults put around a store from outside (the stores carry no test hooks).
        .target(
            name: "StoreTestSupport", dependencies: ["SessionStorage"], path: "Tests/StoreTestSupport",
            swiftSettings: imports),
        .testTarget(name: "NavigationCoreTests", dependencies: ["NavigationCore", "TestSupport"], swiftSettings: imports),
        .testTarget(name: "StoryboardsTests", dependencies: ["Storyboards", "NavigationCore", "TestSupport"], swiftSettings: imports),
        .testTarget(
            name: "StoryboardToolsTests",
            dependencies: [
                "StoryboardTools", "Storyboards", "NavSimService", "SQLiteStore", "NavigationCore", "HTTPServer",
                "TestSupport", "JSONValues",
            ],
            swiftSettings: imports),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "SQLiteStore", "SessionStorage"], swiftSettings: imports),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"], swiftSettings: imports),
        .testTarget(name: "PicturesTests", dependencies: ["Pictures"], swiftSettings: imports),
        .testTarget(name: "ProcessSpawningTests", dependencies: ["ProcessSpawning"], swiftSettings: imports),
        .testTarget(
            name: "NavSimServiceTests",
            dependencies: [
                "NavSimService", "SessionStorage", "SQLiteStore", "PostgresStore", "TestSupport",
                "StoreTestSupport", "PostgreSQL", "SQLite", "Pictures", "JSONValues", "SessionFormat",
            ],
            swiftSettings: imports),
        .testTarget(
            name: "FlowsTests", dependencies: ["Flows", "NavSimService", "SQLiteStore", "HTTPServer", "ProcessSpawning", "JSONValues"],
            swiftSettings: imports),
        // One suite over both stores (SQLite always; PostgreSQL when NAVSIM_TEST_POSTGRES is set).
        .testTarget(
            name: "StoreTests",
            dependencies: [
                "SessionStorage", "SQLiteStore", "PostgresStore", "SQLite", "PostgreSQL", "NavSimService", "HTTPServer",
                "TestSupport", "StoreTestSupport",
            ],
            swiftSettings: imports),
        .testTarget(
            name: "ExplorationTests",
            dependencies: ["Exploration", "Storyboards", "NavigationCore", "ProcessSpawning", "JSONValues", "TestSupport"],
            swiftSettings: imports),
        .testTarget(name: "EndToEndTests", dependencies: ["NavSimService", "SQLite", "TestSupport", "ProcessSpawning", "JSONValues"], swiftSettings: imports),
    ],
    swiftLanguageModes: [.v6]
)
