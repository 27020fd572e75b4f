import Foundation
import HTTPServer
import JSONValues
import Testing
import TestSupport

import NavSimService
import SQLiteStore

// MARK: - Harness (shared by the Storyboard*Tests files and FidelityRoundTwoServiceTests.swift)

/// The repository root, found from this file (`<repo>/Tests/NavSimServiceTests/…`).
let repositoryRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A service on a database in a fresh temporary directory (removed when the harness goes away,
/// unless another harness reopens the same directory: see ``reopened()``).
final class Harness {
    let directory: String
    let service: NavSimService
    private let ownsDirectory: Bool

    init(directory: String? = nil) throws {
        let dir = directory ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("StoryboardRoutesTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        self.directory = dir
        ownsDirectory = directory == nil
        service = try NavSimService(
            store: SessionStore(
                path: (dir as NSString).appendingPathComponent("navsim.sqlite"),
                migrationsDirectory: repositoryRoot.appendingPathComponent("migrations").path),
            openAPI: [])
    }

    /// A second service on the same database, as after a restart.
    func reopened() throws -> Harness { try Harness(directory: directory) }

    deinit { if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) } }

    func send(_ method: String, _ target: String, body: [UInt8] = [], contentType: String? = nil) -> Reply {
        var headers = HTTPHeaders()
        if let contentType { headers.add("Content-Type", contentType) }
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                query[kv[0]] = kv.count == 2 ? kv[1] : ""
            }
        }
        let response = service.handle(HTTPRequest(method: method, path: parts[0], query: query, headers: headers, body: body))
        return Reply(
            status: response.status, headers: response.headers,
            json: response.body.isEmpty ? .null : (try? JSON.parse(response.body)) ?? .null)
    }

    func send(_ method: String, _ target: String, json: JSON) -> Reply {
        send(method, target, body: json.bytes, contentType: "application/json")
    }

    /// `json` is JSON text.
    func send(_ method: String, _ target: String, _ json: String) -> Reply {
        send(method, target, body: Array(json.utf8), contentType: "application/json")
    }

    func upload(_ name: String, _ xml: String, contentType: String = "application/xml") -> Reply {
        send("PUT", "/v1/storyboards/\(name)", body: Array(xml.utf8), contentType: contentType)
    }

    func upload(_ name: String, data: [UInt8]) -> Reply {
        send("PUT", "/v1/storyboards/\(name)", body: data, contentType: "application/xml")
    }

    /// `POST /v1/sessions` with `root` (and `traits`), transitions immediate.
    func session(root: JSON, traits: JSON? = nil) -> Reply {
        var members: [(String, JSON)] = [("options", .object([("transitions", .string("immediate"))])), ("root", root)]
        if let traits { members.append(("traits", traits)) }
        return send("POST", "/v1/sessions", json: .object(members))
    }
}

struct Reply {
    var status: Int
    var headers: HTTPHeaders
    var json: JSON

    subscript(_ keys: Key...) -> JSON? { json.at(keys) }
    func string(_ keys: Key...) -> String? { json.at(keys)?.string }
    var slug: String? { json["type"]?.string.map { String($0.dropFirst("/v1/problems/".count)) } }
    var code: String? { json["uikit"]?["code"]?.string }
    var detail: String { json["detail"]?.string ?? "" }
}

/// A path step into a JSON value: a member name or an array index.
enum Key: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case name(String)
    case index(Int)
    init(stringLiteral value: String) { self = .name(value) }
    init(integerLiteral value: Int) { self = .index(value) }
}

extension JSON {
    func at(_ keys: [Key]) -> JSON? {
        var current: JSON? = self
        for key in keys {
            switch key {
            case let .name(n): current = current?[n]
            case let .index(i):
                guard let a = current?.array, a.indices.contains(i) else { return nil }
                current = a[i]
            }
        }
        return current
    }
    var strings: [String] { array?.compactMap(\.string) ?? [] }
}

/// A JSON member that is absent or null.
func isAbsent(_ value: JSON?) -> Bool { (value ?? .null) == .null }

// MARK: - Storyboard XML builders (shaped like Xcode's output)

enum SB {
    static func document(initial: String? = nil, type: String = StoryboardXML.iOSType, _ scenes: String...) -> String {
        StoryboardXML.document(initial: initial, type: type, scenes: scenes)
    }

    static func scene(_ id: String, _ objects: String) -> String {
        """
                <scene sceneID="\(id)-scene">
                    <objects>
        \(objects)
                        <placeholder placeholderIdentifier="IBFirstResponder" id="\(id)-fr" sceneMemberID="firstResponder"/>
                    </objects>
                </scene>
        """
    }

    static func segue(
        _ id: String, to destination: String, kind: String, identifier: String? = nil,
        attributes: String = ""
    ) -> String {
        let ident = identifier.map { " identifier=\"\($0)\"" } ?? ""
        return "<segue destination=\"\(destination)\" kind=\"\(kind)\"\(ident) id=\"\(id)\" \(attributes)/>"
    }

    static func relationship(_ id: String, to destination: String, _ name: String) -> String {
        "<segue destination=\"\(destination)\" kind=\"relationship\" relationship=\"\(name)\" id=\"\(id)\"/>"
    }

    /// A leaf controller: `manual` segues on the controller, `button` segues on a button in its
    /// view, `embeds` in container views; `exit` adds the scene's exit object.
    static func controller(
        _ id: String, element: String = "viewController", storyboardID: String? = nil,
        customClass: String? = nil, title: String? = nil, attributes: String = "",
        manual: [String] = [], button: [String] = [], embeds: [String] = [], exit: Bool = false
    ) -> String {
        var attrs = ""
        if let storyboardID { attrs += " storyboardIdentifier=\"\(storyboardID)\"" }
        if let customClass { attrs += " customClass=\"\(customClass)\" customModule=\"App\"" }
        if let title { attrs += " title=\"\(title)\"" }
        var subviews = ""
        if !button.isEmpty {
            subviews += "<button opaque=\"NO\" id=\"\(id)-btn\"><connections>\(button.joined())</connections></button>"
        }
        for (n, embed) in embeds.enumerated() {
            subviews += "<containerView opaque=\"NO\" id=\"\(id)-cv\(n)\"><connections>\(embed)</connections></containerView>"
        }
        let view =
            "<view key=\"view\" contentMode=\"scaleToFill\" id=\"\(id)-view\">"
            + (subviews.isEmpty ? "" : "<subviews>\(subviews)</subviews>") + "</view>"
        let connections = manual.isEmpty ? "" : "<connections>\(manual.joined())</connections>"
        let exitObject = exit ? "<exit id=\"\(id)-exit\" userLabel=\"Exit\" sceneMemberID=\"exit\"/>" : ""
        return scene(
            id,
            """
            <\(element) id="\(id)"\(attrs) \(attributes) sceneMemberID="viewController">\(view)\(connections)</\(element)>
            \(exitObject)
            """)
    }

    static func container(
        _ id: String, element: String, storyboardID: String? = nil, attributes: String = "",
        relationships: [String]
    ) -> String {
        let sid = storyboardID.map { " storyboardIdentifier=\"\($0)\"" } ?? ""
        return scene(
            id,
            """
            <\(element) id="\(id)"\(sid) \(attributes) sceneMemberID="viewController">\
            <connections>\(relationships.joined())</connections></\(element)>
            """)
    }

    static func navigation(_ id: String, root: String?, storyboardID: String? = nil) -> String {
        container(
            id, element: "navigationController", storyboardID: storyboardID,
            relationships: root.map { [relationship("\(id)-root", to: $0, "rootViewController")] } ?? [])
    }

    static func placeholder(_ id: String, storyboardName: String, referencedIdentifier: String? = nil) -> String {
        let ref = referencedIdentifier.map { " referencedIdentifier=\"\($0)\"" } ?? ""
        return scene(id, "<viewControllerPlaceholder storyboardName=\"\(storyboardName)\"\(ref) id=\"\(id)\" sceneMemberID=\"viewController\"/>")
    }
}

/// The storyboard most tests use: A (Storyboard ID "A", initial) with a show "toB", a modal
/// "present" (formSheet, crossDissolve), a legacy push "legacyB" and a custom "customB"; B (ID "B")
/// with a manual unwind "back" to `unwindToA:`; and N, a navigation controller (ID "Nav") whose
/// root is A.
let mainXML = SB.document(
    initial: "a-vc",
    SB.controller(
        "a-vc", storyboardID: "A", customClass: "AViewController", title: "A",
        manual: [
            SB.segue("s-show", to: "b-vc", kind: "show", identifier: "toB"),
            SB.segue("s-push", to: "b-vc", kind: "push", identifier: "legacyB"),
            SB.segue(
                "s-custom", to: "b-vc", kind: "custom", identifier: "customB",
                attributes: "customClass=\"FancySegue\" customModule=\"App\""),
        ],
        button: [
            SB.segue(
                "s-present", to: "b-vc", kind: "presentation", identifier: "present",
                attributes: "modalPresentationStyle=\"overFullScreen\" modalTransitionStyle=\"crossDissolve\"")
        ]),
    SB.controller(
        "b-vc", storyboardID: "B", customClass: "BViewController", title: "B",
        manual: [
            SB.segue(
                "s-back", to: "b-vc-exit", kind: "unwind", identifier: "back",
                attributes: "unwindAction=\"unwindToA:\"")
        ],
        exit: true),
    SB.navigation("n-nav", root: "a-vc", storyboardID: "Nav"))
