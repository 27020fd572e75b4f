import Foundation
import HTTPServer
@testable import NavSimService
import Testing
import TestSupport
@testable import SessionStorage
@testable import SQLiteStore
import Synchronization
import Storyboards

/// A storyboard whose entry point is the scene `initial` (class `AViewController`), with a
/// second scene `other` reachable by identifier.
private func document(initial: String) -> [UInt8] {
    func scene(_ id: String) -> String {
        """
                <scene sceneID="\(id)-scene">
                    <objects>
                        <viewController storyboardIdentifier="\(id)" customClass="AViewController" customModule="App" sceneMemberID="viewController" id="\(id)"/>
                        <placeholder placeholderIdentifier="IBFirstResponder" id="\(id)-fr" sceneMemberID="firstResponder"/>
                    </objects>
                </scene>
        """
    }
    return Array(StoryboardXML.document(initial: initial, scenes: [scene("first"), scene("second")]).utf8)
}

private func upload(_ xml: [UInt8]) -> HTTPRequest {
    HTTPRequest(method: "PUT", path: "/v1/storyboards/Main", headers: ["Content-Type": "application/xml"], body: xml)
}

private func json(_ text: String) -> HTTPRequest {
    HTTPRequest(
        method: "PUT", path: "/v1/storyboards/Main/classes", headers: ["Content-Type": "application/json"],
        body: Array(text.utf8))
}

/// The problem `body` throws, or nil when it returns.
private func problem(_ body: () throws -> Void) -> Problem? {
    do { try body() } catch { return error as? Problem }
    return nil
}

/// A catalog write's reply once it is complete (the writes answer deferred).
private func answered(_ response: HTTPResponse) -> HTTPResponse { response.deferred?.wait() ?? response }

/// Storyboards written through one instance are seen by every instance on its next use.
@Suite("Storyboards shared by instances")
struct StoryboardSharingTests {
    @Test(
        "every storyboard-changing transaction moves the revision by one; SQLite reports none to check",
        arguments: stores)
    func revision(_ kind: StoreKind) throws {
        try kind.with { db in
            let store = try db.open()
            let board = StoredStoryboard(name: "Main", xml: document(initial: "first"), updatedAt: "2026-01-01T00:00:00Z")
            guard kind == .postgres else {
                try store.putStoryboard(board)
                #expect(try store.storyboardRevision() == nil)
                return
            }
            let other = try db.open()
            let start = try #require(try store.storyboardRevision())
            try store.putStoryboard(board)
            #expect(try store.storyboardRevision() == start + 1)
            // Several documents in one transaction (a refactor): one step.
            try store.putStoryboards([board, StoredStoryboard(name: "Second", xml: [], updatedAt: "2026-01-01T00:00:00Z")])
            #expect(try other.storyboardRevision() == start + 2)
            #expect(try !store.deleteStoryboard("Nothing"))
            #expect(try store.storyboardRevision() == start + 2)
            #expect(try other.deleteStoryboard("Second"))
            #expect(try store.storyboardRevision() == start + 3)
        }
    }

    @Test(
        "two catalogs on one database: an upload, a class declaration and a delete on A are seen by B on its next use",
        .enabled(if: postgresURL != nil, "NAVSIM_TEST_POSTGRES is not set: several instances share only a PostgreSQL database"))
    func twoCatalogs() throws {
        try StoreKind.postgres.with { db in
            let a = try StoryboardCatalog(store: try db.open())
            let b = try StoryboardCatalog(store: try db.open())
            #expect(b.snapshot.library["Main"] == nil)

            #expect(answered(try a.put("Main", upload(document(initial: "first")))).status == 201)
            // B's next use: the new storyboard, instantiable by identifier and as its entry point.
            #expect(b.snapshot.library["Main"]?.initialViewController == "first")
            let budget = SpecBudget(.defaults, existing: 0)
            #expect(try b.snapshot.instantiate(storyboard: "Main", identifier: "second", budget: budget) != nil)
            #expect(try b.get("Main", HTTPRequest(method: "GET", path: "/v1/storyboards/Main")).status == 200)

            // A replacement and a declaration on A.
            #expect(answered(try a.put("Main", upload(document(initial: "second")))).status == 200)
            #expect(answered(try a.putClasses("Main", json(#"{"AViewController": {"modalPresentationStyle": "fullScreen"}}"#))).status == 200)
            let seen = b.snapshot
            #expect(seen.library["Main"]?.initialViewController == "second")
            #expect(seen.classes["Main"]?.given.keys.sorted() == ["AViewController"])

            // B writes too: A sees it, and B's own write does not hide A's later one.
            #expect(
                answered(
                    try b.put(
                        "Other",
                        HTTPRequest(
                            method: "PUT", path: "/v1/storyboards/Other",
                            headers: ["Content-Type": "application/xml"],
                            body: document(initial: "first")))
                ).status == 201)
            #expect(a.snapshot.library.names.sorted() == ["Main", "Other"])

            // A deletes: B answers as for a storyboard never uploaded.
            #expect(answered(a.delete("Main")).status == 204)
            #expect(problem { _ = try b.get("Main", HTTPRequest(method: "GET", path: "/v1/storyboards/Main")) }?.status == 404)
            let deleted = answered(b.delete("Main"))
            #expect(deleted.status == 404)
            #expect(String(decoding: deleted.body, as: UTF8.self).contains("/v1/problems/unknown-storyboard"))
            let unknown = problem { _ = try b.snapshot.instantiate(storyboard: "Main", identifier: nil, budget: budget) }
            #expect(unknown?.status == 409)
            #expect(b.snapshot.library.names == ["Other"])
        }
    }

    @Test("a catalog on SQLite never checks the store: its contents carry no revision")
    func sqliteDoesNotCheck() throws {
        try StoreKind.sqlite.with { db in
            let catalog = try StoryboardCatalog(store: try db.open())
            #expect(catalog.contents.withLock { $0.revision } == nil)
        }
    }
}
