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
}
