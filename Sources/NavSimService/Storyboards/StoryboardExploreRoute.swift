import Exploration
import HTTPServer
import JSONValues
import NavigationCore
import Storyboards
import StoryboardTools

extension StoryboardCatalog {
    /// Bounds of `POST /v1/storyboards/{name}/explore`: a request explores at most this many
    /// states and steps, on one thread, whatever the body asks (docs/explore.md "Over HTTP").
    static let exploreMaxStates = 5_000
    static let exploreMaxDepth = 50

    /// `POST /v1/storyboards/{name}/explore {"maxStates", "maxDepth", "idiom", "iOS", "races"}` (every field
    /// optional): `navsim explore` over the uploaded storyboard, its references followed across the
    /// uploads and its class and custom segue declarations applied. 200 with the report of
    /// docs/explore.md "JSON" (lines of the uploaded XML, no file; `setup` is the launch step);
    /// 404 for an unknown storyboard; 409 `explore-refused` when the storyboard has no entry point
    /// or its initial scene cannot be installed; 422 `invalid-body` for a bad field or a bound
    /// past the route's.
    func explore(_ name: String, _ req: HTTPRequest) throws(Problem) -> HTTPResponse {
        var body = JSON.object([])
        if !req.body.isEmpty {
            guard let type = req.mediaType, NavSimService.jsonMediaTypes.contains(type) else {
                throw Problem.unsupportedMediaType(req.headers["content-type"], expected: "application/json")
            }
            body = try NavSimService.parseJSON(req.body, limits: serviceLimits)
        }
        let r = try BodyReader(body, path: "", allowed: ["maxStates", "maxDepth", "idiom", "iOS", "races"])
        let maxStates = try r.int("maxStates") ?? 1_000
        guard (1...Self.exploreMaxStates).contains(maxStates) else {
            throw Problem.invalidField("maxStates", "maxStates is a whole number from 1 to \(Self.exploreMaxStates).")
        }
        let maxDepth = try r.int("maxDepth") ?? 30
        guard (0...Self.exploreMaxDepth).contains(maxDepth) else {
            throw Problem.invalidField("maxDepth", "maxDepth is a whole number from 0 to \(Self.exploreMaxDepth).")
        }
        let idiomName = try r.string("idiom") ?? "phone"
        guard let idiom = Traits.Idiom(rawValue: idiomName) else {
            throw Problem.invalidField("idiom", "idiom is phone or pad.", allowed: Traits.Idiom.allCases.map(\.rawValue))
        }
        let release = try r.string("iOS") ?? IOSRelease.default.rawValue
        guard let iOS = IOSRelease(rawValue: release) else {
            throw Problem.invalidField("iOS", "iOS is 12, 17, 18 or 26.", allowed: IOSRelease.allCases.map(\.rawValue))
        }
        let races = try r.bool("races") ?? false
        let (snapshot, xml) = withContents { ($0.snapshot, $0.xml[name]) }
        guard snapshot.library[name] != nil, let xml else { throw Self.unknownStoryboard(name) }
        let explorer = Explorer(
            instantiation: snapshot.scenes, entry: name, reported: [name], traits: Traits.defaults(for: idiom),
            options: Options(iOS: iOS), maxStates: maxStates, maxDepth: maxDepth, races: races)
        let report: ExploreReport
        do {
            report = try explorer.explore()
        } catch {
            throw Problem(status: 409, slug: "explore-refused", title: "The storyboard cannot be explored", detail: "\(error)")
        }
        let positions = (try? StoryboardParser.parseWithPositions(name: name, data: xml).positions) ?? [:]
        let launch = JSON.object([
            ("name", .string("launch on \(name)'s initial scene")), ("do", .string("POST /v1/sessions")),
            (
                "body",
                .object([
                    ("id", .string("explore-${run}")), ("traits", .object([("userInterfaceIdiom", .string(idiom.rawValue))])),
                    ("options", .object([("iOS", .string(iOS.rawValue)), ("release", .string("automatic"))])),
                    ("root", .object([("storyboard", .string(name))])),
                ])
            ),
            ("expect", .object([("status", .number(201))])), ("save", .object([("sid", .string("id"))])),
        ])
        let json = ExploreJSON.report(
            report,
            locate: { storyboard, element in
                // Only the storyboard explored has its lines here; another's element says line 1.
                guard storyboard == name else { return (nil, 1, 1) }
                let p = Linter.position(of: element, in: xml, positions: positions)
                return (nil, p.line, p.column)
            }, setup: [launch])
        return NavSimService.json(200, json)
    }
}
