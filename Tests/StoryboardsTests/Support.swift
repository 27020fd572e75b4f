import Foundation
import Storyboards
import TestSupport

/// Small inline storyboards, shaped like Xcode's output.
enum XML {
    static let iOSType = StoryboardXML.iOSType

    static func document(initial: String? = nil, type: String = iOSType, _ scenes: String...) -> String {
        StoryboardXML.document(initial: initial, type: type, scenes: scenes)
    }

    /// A scene holding `objects` plus the first-responder placeholder, as Xcode writes it.
    static func scene(_ objects: String) -> String {
        """
                <scene sceneID="sc-\(objects.hashValue & 0xFFFF)">
                    <objects>
        \(objects)
                        <placeholder placeholderIdentifier="IBFirstResponder" id="fr-\(objects.hashValue & 0xFFFF)" \
        sceneMemberID="firstResponder"/>
                    </objects>
                    <point key="canvasLocation" x="0" y="0"/>
                </scene>
        """
    }

    /// A `<viewController>` scene whose controller has `connections` segues (manual) and a view
    /// with a button holding `buttonSegues`.
    static func viewController(
        _ id: String, attributes: String = "", buttonSegues: String = "",
        connections: String = "", extra: String = ""
    ) -> String {
        let button =
            buttonSegues.isEmpty
            ? ""
            : """
            <subviews><button opaque="NO" id="\(id)-btn"><connections>\(buttonSegues)</connections></button></subviews>
            """
        let own = connections.isEmpty ? "" : "<connections>\(connections)</connections>"
        return scene(
            """
            <viewController id="\(id)" \(attributes) sceneMemberID="viewController">
                <view key="view" contentMode="scaleToFill" id="\(id)-view">\(button)</view>
                \(own)
            </viewController>
            \(extra)
            """)
    }

    static func navigation(_ id: String, root: String?, attributes: String = "") -> String {
        let relationship =
            root.map {
                "<connections><segue destination=\"\($0)\" kind=\"relationship\" relationship=\"rootViewController\" id=\"\(id)-root\"/></connections>"
            } ?? ""
        return scene(
            """
            <navigationController id="\(id)" \(attributes) sceneMemberID="viewController">
                <navigationBar key="navigationBar" contentMode="scaleToFill" id="\(id)-bar"/>
                \(relationship)
            </navigationController>
            """)
    }

    static func placeholder(
        _ id: String, storyboardName: String?, referencedIdentifier: String? = nil,
        attributes: String = ""
    ) -> String {
        let name = storyboardName.map { " storyboardName=\"\($0)\"" } ?? ""
        let identifier = referencedIdentifier.map { " referencedIdentifier=\"\($0)\"" } ?? ""
        return scene("<viewControllerPlaceholder\(name)\(identifier) \(attributes) id=\"\(id)\" sceneMemberID=\"viewController\"/>")
    }
}

extension Storyboard {
    func codes(_ severity: StoryboardDiagnostic.Severity? = nil) -> [StoryboardDiagnostic.Code] {
        diagnostics.filter { severity == nil || $0.severity == severity }.map(\.code)
    }
}

func parse(_ xml: String, name: String = "Main") throws -> Storyboard {
    try StoryboardParser.parse(name: name, xml: xml)
}

/// The thrown ``StoryboardError``, or nil when parsing succeeded.
func parseError(_ xml: String) -> StoryboardError? {
    parseError(Array(xml.utf8))
}

func parseError(_ bytes: [UInt8]) -> StoryboardError? {
    do {
        _ = try StoryboardParser.parse(name: "Main", data: bytes)
        return nil
    } catch {
        return error
    }
}
