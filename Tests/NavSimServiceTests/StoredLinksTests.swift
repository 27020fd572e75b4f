import Foundation
import SQLite
import Testing

import NavSimService

/// A database that lost a controller's row (a restored backup, a hand edit, a faulty store) is
/// answered as unreadable, never followed into a crash: the core trusts every link it holds.
@Suite("Stored links")
struct StoredLinksTests {
    @Test func aSessionWhoseControllerRowIsGoneIsRefusedNotFollowed() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "pushed"}}"#)
        try h.restart()
        let db = try Connection(path: h.databasePath)
        try db.run("DELETE FROM controllers WHERE session_id = 's' AND id = 'pushed'")
        try h.restart()
        let read = h.send("GET", "/v1/sessions/s")
        #expect(read.status == 500, "\(read)")
        #expect(read.slug == "storage-failure", "\(read)")
        #expect(!read.text.contains("pushed") && !read.text.contains("controllers"), "no stored detail in the reply: \(read)")
        // Nothing was changed: a write is refused the same way, and the service still answers.
        #expect(h.send("POST", "/v1/sessions/s/controllers/nav/pop", "{}").status == 500)
        #expect(h.send("GET", "/healthz").status == 200)
    }
}
