/// The `<document>` shell of a `.storyboard` file as Xcode writes it, around `scenes`; the test
/// targets build their small inline storyboards in it.
public enum StoryboardXML {
    /// The document type of an iOS storyboard.
    public static let iOSType = "com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB"

    public static func document(initial: String? = nil, type: String = iOSType, scenes: [String]) -> String {
        let initialAttribute = initial.map { " initialViewController=\"\($0)\"" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="\(type)" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" \
            propertyAccessControl="none" useAutolayout="YES"\(initialAttribute)>
                <device id="retina6_12" orientation="portrait" appearance="light"/>
                <dependencies><deployment identifier="iOS"/></dependencies>
                <scenes>
            \(scenes.joined(separator: "\n"))
                </scenes>
            </document>
            """
    }

    /// A scene of one plain view controller: storyboard identifier `Home`, class
    /// `HomeViewController`, object id `vc1`.
    public static let homeScene = """
                <scene sceneID="sc1">
                    <objects>
                        <viewController storyboardIdentifier="Home" id="vc1" customClass="HomeViewController" sceneMemberID="viewController"/>
                    </objects>
                </scene>
        """

    /// The smallest storyboard a route needs: ``homeScene``, initial. `paddedTo` grows it with an
    /// XML comment to about that many bytes (upload limits).
    public static func home(paddedTo bytes: Int = 0) -> String {
        let plain = document(initial: "vc1", scenes: [homeScene])
        let line = String(repeating: "padding ", count: 15) + "\n"
        let missing = bytes - plain.utf8.count - "<!--\n-->".utf8.count
        guard missing > 0 else { return plain }
        let padding = String(repeating: line, count: (missing + line.utf8.count - 1) / line.utf8.count)
        return document(initial: "vc1", scenes: [homeScene, "<!--\n" + padding + "-->"])
    }
}
