import CMicroHTTPD
import Synchronization

/// What the C callbacks need, shared by every pool thread.
final class ServerContext: Sendable {
    let handler: HTTPHandler
    let screen: HTTPScreen?
    let refusals: HTTPRefusalHook?
    let limits: HTTPServerConfiguration
    let deadlines: ConnectionDeadlines
    /// Set by `stop`; replies then ask the client to close, and requests that arrive after it
    /// are answered ``stoppingReply``.
    let closing = Atomic<Bool>(false)
    /// The reply for requests refused because the server is stopping; set by `stop` before
    /// ``closing``.
    let stoppingReply = Mutex(HTTPServer.defaultStoppingReply)
    /// Connections suspended while their ``DeferredResponse`` is pending, in shards by token:
    /// `MHD_suspend_connection` runs under a shard's lock (an `epoll_ctl` inside), and with one
    /// table for all, the pool threads suspending and the thread resuming waited on each other
    /// under many connections.
    let suspended: [SuspendedShard] = (0..<SuspendedShard.count).map { _ in SuspendedShard() }
    /// The next suspension's token; its low bits pick the shard.
    let nextSuspension = Atomic<Int>(0)
    /// Reply bodies lent to libmicrohttpd and not yet given back (``ResponseBytes``); 0 once
    /// the daemon has stopped, or a response leaked.
    let lentBodies = Atomic<Int>(0)
    /// Request states of this server allocated and not yet released (``RequestState``): 0 once
    /// the daemon has stopped, or a request skipped `NOTIFY_COMPLETED` cleanup. Per server, so
    /// that tests of one server are not disturbed by others running in the same process.
    let liveRequestStates = Atomic<Int>(0)

    /// `limits`' body limits, kept apart: reading them through `limits` copied the whole
    /// configuration (its strings and dictionary retained and released) on every request.
    private let bodyLimit: Int
    private let bodyLimitByMediaType: [String: Int]
    let maxDiscardBytes: Int

    init(handler: @escaping HTTPHandler, screen: HTTPScreen?, refusals: HTTPRefusalHook? = nil, limits: HTTPServerConfiguration) {
        self.handler = handler
        self.screen = screen
        self.refusals = refusals
        self.limits = limits
        bodyLimit = limits.maxBodyBytes
        bodyLimitByMediaType = limits.maxBodyBytesByMediaType
        maxDiscardBytes = limits.maxDiscardBytes
        deadlines = ConnectionDeadlines(
            headerSeconds: limits.headerTimeoutSeconds,
            requestSeconds: limits.requestTimeoutSeconds)
    }
}

extension ServerContext {
    /// ``HTTPServerConfiguration/maxBodyBytes(for:)`` of `limits`.
    func maxBodyBytes(for contentType: String?) -> Int {
        guard let contentType else { return bodyLimit }
        return bodyLimitByMediaType[HTTPHeaders.mediaType(contentType)] ?? bodyLimit
    }
}

/// The connections suspended on a ``DeferredResponse``, by token. A connection is kept as its
/// address (`Int(bitPattern:)`), a plain integer, so no pointer crosses threads as a value; it
/// is turned back into the pointer only under the lock, to resume it. An entry leaves the table
/// exactly when `MHD_resume_connection` is called for it, and `stop` empties the table (every
/// reply completed, every connection resumed) before `MHD_stop_daemon`, which must not find a
/// suspended connection (libmicrohttpd's manual).
struct SuspendedConnections {
    var connections: [Int: Int] = [:]
    var replies: [Int: DeferredResponse] = [:]
    /// Set by `stop` once the table is empty: nothing may be suspended any more.
    var stopped = false
}

/// One shard of ``ServerContext/suspended``: the suspensions whose token is its index modulo ``count``.
final class SuspendedShard: Sendable {
    /// A power of two above the pool sizes in use (8 threads), so that two threads rarely share one.
    static let count = 16
    let table = Mutex(SuspendedConnections())
}

extension ServerContext {
    /// Suspends `connection` until `deferred` completes; false (nothing suspended) once the
    /// server is stopping. Call from the access handler only (MHD_suspend_connection's rule).
    func suspend(_ connection: OpaquePointer, until deferred: DeferredResponse) -> Bool {
        let token = nextSuspension.add(1, ordering: .relaxed).oldValue
        let suspendedNow = shard(token).table.withLock { table -> Bool in
            guard !table.stopped else { return false }
            MHD_suspend_connection(connection)
            table.connections[token] = Int(bitPattern: connection)
            table.replies[token] = deferred
            return true
        }
        guard suspendedNow else { return false }
        // Possibly at once, on this thread: the connection is resumed on its next turn.
        deferred.whenComplete { [self] in resume(token) }
        return true
    }

    /// Resumes the connection of `token`, if it is still suspended; any thread.
    func resume(_ token: Int) {
        shard(token).table.withLock { table in
            guard let address = table.connections.removeValue(forKey: token) else { return }
            table.replies[token] = nil
            if let connection = OpaquePointer(bitPattern: address) { MHD_resume_connection(connection) }
        }
    }

    /// The shard that holds `token`'s suspension.
    private func shard(_ token: Int) -> SuspendedShard {
        suspended[token & (SuspendedShard.count - 1)]
    }

    /// For `stop`: answers every pending reply with `reply` (which resumes its connection) and
    /// refuses suspensions from now on. Returns how many were still pending.
    @discardableResult
    func resumeAll(with reply: HTTPResponse) -> Int {
        var pending: [DeferredResponse] = []
        for shard in suspended { pending += shard.table.withLock { Array($0.replies.values) } }
        for deferred in pending { deferred.complete(reply) }
        for shard in suspended {
            shard.table.withLock { table in
                table.stopped = true
                // Completed meanwhile by another thread and not yet resumed: resume here.
                for (_, address) in table.connections {
                    if let connection = OpaquePointer(bitPattern: address) { MHD_resume_connection(connection) }
                }
                table.connections.removeAll()
                table.replies.removeAll()
            }
        }
        return pending.count
    }

    /// Connections suspended now.
    var suspendedCount: Int { suspended.reduce(0) { $0 + $1.table.withLock { $0.connections.count } } }
}

/// One request that needs state across access-handler calls, stored in `*req_cls` as a +1
/// reference until `MHD_OPTION_NOTIFY_COMPLETED`: one with a body, or one refused on its head.
/// libmicrohttpd serves a connection on one thread at a time, so it is never touched concurrently.
private final class RequestState {
    var bytes: [UInt8] = []
    /// The body is being thrown away: over `limit`, or the request was refused.
    var tooLarge = false
    var limit: Int
    /// The screen's answer; sent once the body has been discarded.
    var refusal: HTTPResponse?
    var discarded = 0
    /// The handler's reply, pending while the connection is suspended; queued when
    /// libmicrohttpd calls again after `MHD_resume_connection`.
    var deferred: DeferredResponse?

    /// Counts this state in ``ServerContext/liveRequestStates``.
    private let context: ServerContext

    init(limit: Int, context: ServerContext) {
        self.limit = limit
        self.context = context
        context.liveRequestStates.add(1, ordering: .relaxed)
    }
    deinit { context.liveRequestStates.subtract(1, ordering: .relaxed) }

    var discarding: Bool { tooLarge || refusal != nil }
}

/// `*req_cls` of a request that has no state (yet): bodiless requests allocate nothing
/// (one of the two costs of a naive adapter).
/// Never a valid object
/// address. Computed because a global `let` of a raw pointer is not Sendable.
private var noBodyYet: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1)! }

/// `MHD_AccessHandlerCallback`. Called (1) after the headers, (2) per body chunk, (3) once more
/// with `*upload_data_size == 0` when the request is complete (libmicrohttpd's manual).
///
/// Answering in call 1 makes libmicrohttpd skip `100 Continue` and close the connection without
/// reading the body, so a client that is still sending sees a reset, not the reply. Call 1
/// therefore answers only when the request cannot go on (ambiguous framing), when the client
/// waits for `100 Continue`, or when the body is beyond `maxDiscardBytes`; otherwise a refused
/// or oversized request has its body read and dropped, and is answered in call 3.
let mhdAccessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, version, uploadData, uploadDataSize, reqCls in
    guard let cls, let connection, let url, let method, let uploadDataSize, let reqCls else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()

    guard let state = reqCls.pointee else {
        return head(context, connection, url, method, version, reqCls)
    }

    let size = uploadDataSize.pointee
    if size > 0 {
        // Call 2: upload_data is valid only during this call; copy it and mark it consumed.
        let body: RequestState
        if state == noBodyYet {
            body = RequestState(limit: context.maxBodyBytes(for: header(connection, "Content-Type")), context: context)
            if let length = contentLength(connection) {
                body.bytes.reserveCapacity(length)  // <= limit, checked in call 1
            }
            reqCls.pointee = Unmanaged.passRetained(body).toOpaque()
        } else {
            body = Unmanaged<RequestState>.fromOpaque(state).takeUnretainedValue()
        }
        uploadDataSize.pointee = 0
        if !body.discarding, size > body.limit - body.bytes.count {
            // Chunked bodies have no Content-Length: enforce the cap here, keep consuming.
            body.tooLarge = true
            body.bytes = []
        }
        if body.discarding {
            body.discarded += size
            // Past the bound nothing readable can be sent any more (MHD refuses replies
            // mid-body): drop the connection.
            return body.discarded > context.maxDiscardBytes ? .NO : .YES
        }
        if let uploadData {
            body.bytes.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: size))
        }
        return .YES
    }

    // Call 3: the request is complete (or, with a deferred reply, its connection was resumed).
    if state == noBodyYet {
        connectionClock(connection)?.requestReceived()
        return respond(
            context, connection, url, method, body: [],
            limit: context.maxBodyBytes(for: header(connection, "Content-Type")), reqCls: reqCls)
    }
    let body = Unmanaged<RequestState>.fromOpaque(state).takeUnretainedValue()
    if let deferred = body.deferred {
        guard let reply = deferred.response else {
            // Resumed before the reply exists (not expected): wait again.
            return context.suspend(connection, until: deferred)
                ? .YES
                : queue(context, connection, context.stoppingReply.withLock { $0 }, close: true)
        }
        body.deferred = nil
        return queue(context, connection, reply, close: body.tooLarge)
    }
    connectionClock(connection)?.requestReceived()
    if let refusal = body.refusal {
        return queue(context, connection, refusal, close: body.tooLarge)
    }
    var bytes: [UInt8] = []
    swap(&bytes, &body.bytes)
    return respond(
        context, connection, url, method, body: bytes, limit: body.limit, tooLarge: body.tooLarge,
        reqCls: reqCls)
}

/// Call 1: the header section is in. Checks framing, runs the screen, checks the announced size.
private func head(
    _ context: ServerContext, _ connection: OpaquePointer,
    _ url: UnsafePointer<CChar>, _ method: UnsafePointer<CChar>, _ version: UnsafePointer<CChar>?,
    _ reqCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>
) -> MHD_Result {
    reqCls.pointee = noBodyYet
    connectionClock(connection)?.headReceived()

    // RFC 9112 §6.1: a message with both is a smuggling vector; libmicrohttpd 0.9.75 silently
    // lets Transfer-Encoding win. §6.1 also: a coding the server does not know is 501.
    let length = contentLength(connection)
    if let coding = header(connection, "Transfer-Encoding") {
        if header(connection, "Content-Length") != nil {
            return refuse(
                context, connection, url, method,
                transportProblem(
                    400, "Bad Request", "A request must not carry both Transfer-Encoding and Content-Length (RFC 9112 §6.1)."))
        }
        if HTTPHeaders.mediaType(coding) != "chunked" {
            return refuse(
                context, connection, url, method,
                transportProblem(
                    501, "Not Implemented", "The only transfer coding accepted is chunked (RFC 9112 §7)."))
        }
    }
    // RFC 9112 §6.3 item 5 (differing Content-Length) and §3.2 (Host): RequestValidation.swift.
    if let refusal = HeadFields(connection).refusal(version: version.map(cString) ?? "") {
        return refuse(context, connection, url, method, refusal)
    }
    let chunked = header(connection, "Transfer-Encoding") != nil
    let hasBody = chunked || (length ?? 0) > 0
    let waitsForContinue = header(connection, "Expect").map { HTTPHeaders.mediaType($0) == "100-continue" } ?? false
    let contentType = header(connection, "Content-Type")
    let limit = context.maxBodyBytes(for: contentType)
    let beyondDiscard = (length ?? 0) > context.maxDiscardBytes

    // A request that arrives once the server is stopping is not handled: it is answered the
    // stopping reply, after its body (if any) has been read and dropped like a screened-out
    // one's, so that the client reads the 503 rather than a reset; the reply closes.
    let refusal: HTTPResponse?
    if context.closing.load(ordering: .acquiring) {
        let stopping = context.stoppingReply.withLock { $0 }
        refusal = context.refusals.map { $0(request(connection, url, method, body: [], limit: limit), stopping) } ?? stopping
    } else if let screen = context.screen {
        refusal = screen(request(connection, url, method, body: [], limit: limit))
    } else {
        refusal = nil
    }
    if let refusal {
        if hasBody && (waitsForContinue || beyondDiscard) {
            return queue(context, connection, refusal, close: true)
        }
        let state = RequestState(limit: limit, context: context)
        state.refusal = refusal
        state.tooLarge = hasBody && (length ?? 0) > limit
        reqCls.pointee = Unmanaged.passRetained(state).toOpaque()
        return .YES
    }
    if let length, length > limit {
        if waitsForContinue || beyondDiscard {
            return respond(context, connection, url, method, body: [], limit: limit, tooLarge: true, reqCls: reqCls)
        }
        let state = RequestState(limit: limit, context: context)
        state.tooLarge = true
        reqCls.pointee = Unmanaged.passRetained(state).toOpaque()
    } else if hasBody {
        // The body's state now, with the limit just computed: call 2 would otherwise look the
        // media type up again.
        let state = RequestState(limit: limit, context: context)
        if let length { state.bytes.reserveCapacity(length) }  // <= limit
        reqCls.pointee = Unmanaged.passRetained(state).toOpaque()
    }
    return .YES
}

/// `MHD_RequestCompletedCallback`: runs for every request that reached the access handler,
/// including aborted and timed-out ones, so this is the one place that frees request state.
let mhdRequestCompleted: MHD_RequestCompletedCallback = { _, connection, reqCls, _ in
    guard let reqCls, let state = reqCls.pointee else { return }
    if state != noBodyYet {
        Unmanaged<RequestState>.fromOpaque(state).release()
    }
    reqCls.pointee = nil
    if let connection { connectionClock(connection)?.requestFinished(now: monotonicMilliseconds()) }
}

/// Sends a reply the server made itself on the head alone, through ``ServerContext/refusals``
/// (which adds the request id the handler's replies carry), and closes the connection: each such
/// refusal leaves the framing in doubt.
private func refuse(
    _ context: ServerContext, _ connection: OpaquePointer, _ url: UnsafePointer<CChar>,
    _ method: UnsafePointer<CChar>, _ reply: HTTPResponse
) -> MHD_Result {
    let sent = context.refusals.map { $0(request(connection, url, method, body: [], limit: context.maxBodyBytes(for: nil)), reply) } ?? reply
    return queue(context, connection, sent, close: true)
}

/// A problem+json (RFC 9457) for errors the transport finds before any handler runs.
func transportProblem(_ status: Int, _ title: String, _ detail: String) -> HTTPResponse {
    let body = #"{"type":"about:blank","title":"\#(title)","status":\#(status),"detail":"\#(detail)"}"#
    return HTTPResponse(status: status, headers: ["Content-Type": "application/problem+json"], body: Array(body.utf8))
}

private func request(
    _ connection: OpaquePointer, _ url: UnsafePointer<CChar>, _ method: UnsafePointer<CChar>,
    body: [UInt8], limit: Int, tooLarge: Bool = false
) -> HTTPRequest {
    var path = cString(url)
    var headers = HTTPHeaders(values(connection, .HEADER_KIND, expected: 8))
    if let absolute = absoluteFormTarget(path) {  // RFC 9112 §3.2.2
        path = absolute.path
        headers["Host"] = absolute.authority
    }
    let query = queryParameters(connection)
    return HTTPRequest(
        method: cString(method),
        path: path,
        query: query.values,
        repeatedQueryNames: query.repeated,
        malformedQueryEscape: query.malformed,
        headers: headers,
        body: body,
        bodyTooLarge: tooLarge,
        bodyLimit: limit,
        rawQuery: query.raw,
        peerAddress: peerAddress(connection))
}

/// The connection's peer as text (`mhd_shim_client_address`): at most 45 bytes for IPv6
/// (`INET6_ADDRSTRLEN` less the NUL), so Swift keeps an IPv4 one inline, without allocating.
private func peerAddress(_ connection: OpaquePointer) -> String? {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
        let length = mhd_shim_client_address(connection, buffer.baseAddress, buffer.count)
        guard length > 0 else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: length), as: UTF8.self)
    }
}

/// Builds the request, runs the handler, queues its reply. An oversized body closes the
/// connection after the reply. A deferred reply suspends the connection instead; the request
/// state in `*req_cls` (allocated now for a bodiless request) holds it until libmicrohttpd
/// calls again after the resume.
private func respond(
    _ context: ServerContext, _ connection: OpaquePointer,
    _ url: UnsafePointer<CChar>, _ method: UnsafePointer<CChar>,
    body: [UInt8], limit: Int, tooLarge: Bool = false,
    reqCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>
) -> MHD_Result {
    let reply = context.handler(request(connection, url, method, body: body, limit: limit, tooLarge: tooLarge))
    guard let deferred = reply.deferred else { return queue(context, connection, reply, close: tooLarge) }
    let state: RequestState
    if let raw = reqCls.pointee, raw != noBodyYet {
        state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    } else {
        state = RequestState(limit: limit, context: context)
        reqCls.pointee = Unmanaged.passRetained(state).toOpaque()
    }
    state.tooLarge = tooLarge
    state.deferred = deferred
    guard context.suspend(connection, until: deferred) else {
        state.deferred = nil
        return queue(context, connection, context.stoppingReply.withLock { $0 }, close: true)
    }
    return .YES
}

/// Queues `reply`, asking the client to close when `close` is set or the server is stopping.
///
/// The body is not copied: libmicrohttpd sends it from the array's own storage
/// (`MHD_create_response_from_buffer_with_free_callback_cls`, in 0.9.75's header), which a
/// ``ResponseBytes`` keeps alive until libmicrohttpd calls `releaseResponseBytes` as it destroys
/// the response, after the last byte is sent or the connection is gone. A cached session body is
/// then sent from the cache's own bytes.
private func queue(
    _ context: ServerContext, _ connection: OpaquePointer, _ reply: HTTPResponse,
    close: Bool
) -> MHD_Result {
    let created: OpaquePointer?
    if reply.body.isEmpty {
        var none: UInt8 = 0
        created = MHD_create_response_from_buffer(0, &none, .RESPMEM_MUST_COPY)
    } else {
        let holder = ResponseBytes(reply.body, context)
        let retained = Unmanaged.passRetained(holder).toOpaque()
        created = MHD_create_response_from_buffer_with_free_callback_cls(
            holder.bytes.count, holder.address, releaseResponseBytes, retained)
        if created == nil { Unmanaged<ResponseBytes>.fromOpaque(retained).release() }
    }
    guard let response = created else { return .NO }
    defer { MHD_destroy_response(response) }
    for (name, value) in reply.headers.pairs {
        // Refused fields (CR/LF inside, Content-Length, ...) are dropped, not fatal.
        // `withCString`, not the implicit String-to-pointer conversion: that one copies a small
        // string into a fresh heap array (`utf8CString`), two allocations per field.
        _ = name.withCString { name in value.withCString { MHD_add_response_header(response, name, $0) } }
    }
    if close || context.closing.load(ordering: .acquiring) {
        _ = MHD_add_response_header(response, "Connection", "close")
    }
    let status = (200...999).contains(reply.status) ? UInt32(reply.status) : 500
    return MHD_queue_response(connection, status, response)
}

/// A reply body lent to libmicrohttpd: a +1 reference from `queue` until `releaseResponseBytes`.
///
/// `bytes` is a `let` that nothing mutates, so its storage is neither reallocated nor copied on
/// write while this object holds it, and the elements stay at `address`, taken once from
/// `withUnsafeBytes` (never empty here: `queue` sends an empty body another way).
private final class ResponseBytes {
    let bytes: [UInt8]
    let address: UnsafeMutableRawPointer?
    /// Counts the lent bodies (``ServerContext/lentBodies``).
    let context: ServerContext

    init(_ bytes: [UInt8], _ context: ServerContext) {
        self.bytes = bytes
        self.context = context
        address = self.bytes.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
        context.lentBodies.add(1, ordering: .relaxed)
    }

    deinit { context.lentBodies.subtract(1, ordering: .relaxed) }
}

/// `MHD_ContentReaderFreeCallback` of a response made by `queue`: libmicrohttpd is done with the
/// body, so the reference taken for it goes.
private let releaseResponseBytes: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<ResponseBytes>.fromOpaque(cls).release()
}

/// The first value of a request header field, or `nil`. The name is a literal, handed to C as
/// it is (no conversion of a String per lookup).
private func header(_ connection: OpaquePointer, _ name: StaticString) -> String? {
    lookup(connection, name).map(cString)
}

/// `MHD_lookup_connection_value` for a literal field name.
private func lookup(_ connection: OpaquePointer, _ name: StaticString) -> UnsafePointer<CChar>? {
    name.withUTF8Buffer { utf8 in
        utf8.withMemoryRebound(to: CChar.self) { MHD_lookup_connection_value(connection, .HEADER_KIND, $0.baseAddress) }
    }
}

private func cString(_ pointer: UnsafePointer<CChar>) -> String {
    String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
}

/// `Content-Length` as a byte count (saturating); `nil` when absent or not a number.
private func contentLength(_ connection: OpaquePointer) -> Int? {
    guard let raw = lookup(connection, "Content-Length") else { return nil }
    var value = 0
    var digits = 0
    for byte in UnsafeRawBufferPointer(start: raw, count: strlen(raw)) {
        if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { continue }
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (next, o2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
        value = o1 || o2 ? Int.max : next
        digits += 1
    }
    return digits > 0 ? value : nil
}

/// Query arguments: the shim keeps escapes (MHD only turned `+` into space), decoded here; the
/// names given more than once are listed too, and the first malformed escape as written. `raw`
/// is the query rebuilt as sent from the same arguments (`name=value` joined by `&`, a space
/// back to the `+` it was; a request line holds no raw space), for the log: libmicrohttpd
/// hands the handler the path and the arguments, not the request target's text.
private func queryParameters(_ connection: OpaquePointer) -> (values: [String: String], repeated: [String], malformed: String?, raw: String) {
    var query: [String: String] = [:]
    var repeated: [String] = []
    var malformed: String?
    var raw = ""
    for (name, value) in values(connection, .GET_ARGUMENT_KIND, expected: 0) {
        let key = percentDecoded(name.utf8)
        if query.updateValue(percentDecoded(value.utf8), forKey: key) != nil, !repeated.contains(key) { repeated.append(key) }
        if malformed == nil { malformed = malformedPercentEscape(in: name) ?? malformedPercentEscape(in: value) }
        if !raw.isEmpty { raw += "&" }
        raw += name
        if !value.isEmpty { raw += "=" + value }
    }
    return (query, repeated, malformed, raw.contains(" ") ? String(raw.map { $0 == " " ? "+" : $0 }) : raw)
}

/// Every `(key, value)` of one kind, read with explicit lengths so embedded NULs and invalid
/// UTF-8 cannot trap (invalid bytes become U+FFFD). Missing values read as `""`. `expected`:
/// the room to allocate at once (a request's usual header count), so appends do not regrow.
private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, expected: Int) -> [(String, String)] {
    var pairs: [(String, String)] = []
    if expected > 0 { pairs.reserveCapacity(expected) }
    withUnsafeMutablePointer(to: &pairs) { pointer in
        _ = MHD_get_connection_values_n(
            connection, kind,
            { cls, _, key, keySize, value, valueSize in
                guard let cls, let key else { return .YES }
                let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
                let text =
                    value.map {
                        String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self)
                    } ?? ""
                cls.assumingMemoryBound(to: [(String, String)].self).pointee.append((name, text))
                return .YES
            }, pointer)
    }
    return pairs
}
