import Foundation
import HTTPServer
import JSONValues
import NavigationCore

/// The routes under `/v1/sessions/{sid}/controllers`, `/turns` and `/transitions`: each decodes
/// its body into core commands and hands them to ``mutate(_:_:created:turn:_:)`` (Routes/Mutations.swift).
extension NavSimService {
    /// `PUT /v1/sessions/{sid}/rootViewController`: `{"viewController", "animated"?}`.
    func setRoot(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        try mutate(req, sid) { body, _, decoder throws(Problem) in
            let r = try BodyReader(body, allowed: ["viewController", "animated"])
            let ref = try decoder.ref(r.raw("viewController"), path: "viewController")
            return [.setRoot(ref, animated: try r.bool("animated") ?? false)]
        }
    }

    /// `POST /v1/sessions/{sid}/controllers`: a ControllerSpec; 201 with the controller.
    func createController(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        try mutate(req, sid, created: true) { body, _, decoder throws(Problem) in
            guard !body.isNull, let spec = try decoder.spec(body, path: "") else {
                throw Problem.invalidField("body", "The storyboard has no initial view controller (instantiateInitialViewController() returns nil).")
            }
            return [.createController(spec)]
        }
    }

    /// `GET /v1/sessions/{sid}/controllers/{cid}`.
    func getController(_ req: HTTPRequest, _ sid: String, _ cid: String) throws(Problem) -> HTTPResponse {
        try withSessionMutating(sid) { live throws(Problem) in
            guard live.state.controllers[cid] != nil else { throw Problem.unknownController(CommandError.unknown(cid).message) }
            let encoded = live.encoding(in: sessions)
            return Self.json(200, bytes: Array(encoded.piece(cid) ?? []), etag: encoded.etag)
        }
    }

    /// `PATCH /v1/sessions/{sid}/controllers/{cid}`: a ControllerPatch.
    func updateController(_ req: HTTPRequest, _ sid: String, _ cid: String) throws(Problem) -> HTTPResponse {
        try mutate(req, sid) { body, state, decoder throws(Problem) in
            [.updateController(cid, try decoder.patch(body, kind: state.controllers[cid]?.kind))]
        }
    }

    /// `POST /v1/sessions/{sid}/controllers/{cid}/{operation}`: one operation of ``Operations``;
    /// an unknown name is 404 `unknown-operation` before the session is looked up.
    func perform(_ req: HTTPRequest, _ sid: String, _ cid: String, _ name: String) throws(Problem) -> HTTPResponse {
        guard Operations.byName[name] != nil else { throw Problem.unknownOperation(name) }
        return try mutate(req, sid) { body, state, decoder throws(Problem) in
            var command = try decoder.operation(name, receiver: cid, body: body)
            command = try self.storyboards.resolveSegue(command, in: state, budget: decoder.budget)
            return [command]
        }
    }

    /// `POST /v1/sessions/{sid}/turns`: `{"operations": [{"controller", "operation", …}]}` as one turn.
    func runTurn(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        try mutate(req, sid, turn: true) { body, state, decoder throws(Problem) in
            let r = try BodyReader(body, allowed: ["operations"])
            guard let ops = r.raw("operations")?.array else { throw Problem.invalidField("operations", "operations must be an array.") }
            guard ops.count <= self.limits.operationsPerTurn else {
                throw Problem.limitExceeded(
                    "operationsPerTurn", max: self.limits.operationsPerTurn,
                    detail: "The turn has \(ops.count) operations; at most \(self.limits.operationsPerTurn) are allowed.")
            }
            var commands: [Command] = []
            for (i, op) in ops.enumerated() {
                guard case .object(let members) = op else { throw Problem.invalidField("operations[\(i)]", "Each operation is an object.") }
                guard let controller = op["controller"]?.string, let name = op["operation"]?.string else {
                    throw Problem.invalidField("operations[\(i)]", "Each operation needs controller and operation.")
                }
                let body = JSON.object(members.filter { $0.0 != "controller" && $0.0 != "operation" })
                // Storyboard segues find their destination scene as a single operation does,
                // from the session as the turn begins (a receiver created earlier in the same
                // turn has no storyboard yet, and answers 422 in place); the destinations
                // count against the request's budget like any other spec.
                // A refusal names the field from the turn's body, so the client knows which entry.
                do throws(Problem) {
                    let command = try decoder.operation(name, receiver: controller, body: body)
                    commands.append(try self.storyboards.resolveSegue(command, in: state, budget: decoder.budget))
                } catch {
                    throw error.within("operations[\(i)]")
                }
            }
            return commands
        }
    }

    /// `GET /v1/sessions/{sid}/transitions`: the transitions in flight.
    func transitions(_ sid: String) throws(Problem) -> HTTPResponse {
        try withSession(sid) { live throws(Problem) in
            var w = JSONWriter()
            w.openObject()
            w.key("transitions")
            w.raw(Encode.transitions(live.state.transitions.map(\.record)))
            w.closeObject()
            return Self.json(200, bytes: w.finish(), etag: "\"\(live.version)\"")
        }
    }

    /// `POST …/transitions/complete`, `…/transitions/{tid}/complete|cancel`: no body, or `{}`.
    func finishTransition(_ req: HTTPRequest, _ sid: String, _ command: Command) throws(Problem) -> HTTPResponse {
        try mutate(req, sid) { body, _, _ throws(Problem) in
            _ = try BodyReader(body, allowed: [])
            return [command]
        }
    }

    /// `DELETE /v1/sessions/{sid}/controllers/{cid}`: releases a controller nothing but the client
    /// holds, with what only it holds (`Command.release`, NavigationCore/Release.swift): 404 for an
    /// unknown id, 409 `controller-held` naming its holders. Recorded in history like any change.
    func releaseController(_ req: HTTPRequest, _ sid: String, _ cid: String) throws(Problem) -> HTTPResponse {
        try mutate(req, sid) { body, _, _ throws(Problem) in
            _ = try BodyReader(body, allowed: [])
            return [.release(cid)]
        }
    }

    /// A decoder for one request, whose budget starts from the `existing` controllers of the session.
    func decoder(existing: Int) -> Decoder {
        Decoder(instantiate: storyboards.instantiator, budget: SpecBudget(limits, existing: existing))
    }
}
