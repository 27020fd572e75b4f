import CMicroHTTPD
import Synchronization

/// What the C callbacks need, shared by every pool thread.
final class ServerContext: Sendable {
    let handler: HTTPHandler
    let maxBodyBytes: Int
    /// Requests between their first access-handler call and their completion notification.
    let inFlight = Atomic<Int>(0)
    /// Set by `stop`; replies then ask the client to close.
    let closing = Atomic<Bool>(false)

    init(handler: @escaping HTTPHandler, maxBodyBytes: Int) {
        self.handler = handler
        self.maxBodyBytes = maxBodyBytes
    }
}

/// Body bytes of one request, stored in `*req_cls` as a +1 reference from the first body chunk
/// until `MHD_OPTION_NOTIFY_COMPLETED`. libmicrohttpd serves a connection on one thread at a
/// time, so it is never touched concurrently.
private final class RequestBody {
    var bytes: [UInt8] = []
    var tooLarge = false

    init() { liveRequestBodies.add(1, ordering: .relaxed) }
    deinit { liveRequestBodies.subtract(1, ordering: .relaxed) }
}

/// Request bodies allocated and not yet released: tests check it returns to 0 (a leak would
/// mean a request skipped `NOTIFY_COMPLETED` cleanup).
let liveRequestBodies = Atomic<Int>(0)

/// `*req_cls` of a request that has no body state (yet): bodiless requests allocate nothing
/// (ENGINEERING.md §1.2: one of the two costs behind
/// the naive adapter's 0.76x throughput). Never a valid object
/// address. Computed because a global `let` of a raw pointer is not Sendable.
private var noBodyYet: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1)! }

/// `MHD_AccessHandlerCallback`. Called (1) after the headers, (2) per body chunk, (3) once more
/// with `*upload_data_size == 0` when the request is complete (ENGINEERING.md §1.3).
let mhdAccessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, uploadData, uploadDataSize, reqCls in
    guard let cls, let connection, let url, let method, let uploadDataSize, let reqCls else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()

    guard let state = reqCls.pointee else {
        // Call 1: only mark the request. Answering here would close the connection, so do it
        // only to reject a body that is announced too large (MHD then skips 100 Continue).
        context.inFlight.add(1, ordering: .relaxed)
        reqCls.pointee = noBodyYet
        if let length = contentLength(connection), length > context.maxBodyBytes {
            return respond(context, connection, url, method, body: [], tooLarge: true)
        }
        return .YES
    }

    let size = uploadDataSize.pointee
    if size > 0 {
        // Call 2: upload_data is valid only during this call; copy it and mark it consumed.
        let body: RequestBody
        if state == noBodyYet {
            body = RequestBody()
            if let length = contentLength(connection) {
                body.bytes.reserveCapacity(length)  // <= maxBodyBytes, checked in call 1
            }
            reqCls.pointee = Unmanaged.passRetained(body).toOpaque()
        } else {
            body = Unmanaged<RequestBody>.fromOpaque(state).takeUnretainedValue()
        }
        if !body.tooLarge {
            if size > context.maxBodyBytes - body.bytes.count {
                // Chunked bodies have no Content-Length: enforce the cap here, keep consuming.
                body.tooLarge = true
                body.bytes = []
            } else if let uploadData {
                body.bytes.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: size))
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }

    // Call 3: the request is complete.
    if state == noBodyYet {
        return respond(context, connection, url, method, body: [], tooLarge: false)
    }
    let body = Unmanaged<RequestBody>.fromOpaque(state).takeUnretainedValue()
    var bytes: [UInt8] = []
    swap(&bytes, &body.bytes)
    return respond(context, connection, url, method, body: bytes, tooLarge: body.tooLarge)
}

/// `MHD_RequestCompletedCallback`: runs for every request that reached the access handler,
/// including aborted and timed-out ones, so this is the one place that frees request state.
let mhdRequestCompleted: MHD_RequestCompletedCallback = { cls, _, reqCls, _ in
    guard let cls, let reqCls, let state = reqCls.pointee else { return }
    if state != noBodyYet {
        Unmanaged<RequestBody>.fromOpaque(state).release()
    }
    reqCls.pointee = nil
    Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue().inFlight.subtract(1, ordering: .releasing)
}

/// Builds the request, runs the handler, queues its reply (copied: `MHD_RESPMEM_MUST_COPY`).
private func respond(
    _ context: ServerContext, _ connection: OpaquePointer,
    _ url: UnsafePointer<CChar>, _ method: UnsafePointer<CChar>,
    body: [UInt8], tooLarge: Bool
) -> MHD_Result {
    let request = HTTPRequest(
        method: cString(method),
        path: percentDecoded(UnsafeRawBufferPointer(start: url, count: strlen(url))),
        query: queryParameters(connection),
        headers: HTTPHeaders(values(connection, .HEADER_KIND)),
        body: body,
        bodyTooLarge: tooLarge)
    let reply = context.handler(request)

    let created = reply.body.withUnsafeBytes { bytes -> OpaquePointer? in
        if let base = bytes.baseAddress {
            return MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: base),
                                                   .RESPMEM_MUST_COPY)
        }
        var none: UInt8 = 0
        return MHD_create_response_from_buffer(0, &none, .RESPMEM_MUST_COPY)
    }
    guard let response = created else { return .NO }
    defer { MHD_destroy_response(response) }
    for (name, value) in reply.headers.pairs {
        // Refused fields (CR/LF inside, Content-Length, ...) are dropped, not fatal.
        _ = MHD_add_response_header(response, name, value)
    }
    if context.closing.load(ordering: .acquiring) {
        _ = MHD_add_response_header(response, "Connection", "close")
    }
    let status = (200...999).contains(reply.status) ? UInt32(reply.status) : 500
    return MHD_queue_response(connection, status, response)
}

private func cString(_ pointer: UnsafePointer<CChar>) -> String {
    String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
}

/// `Content-Length` as a byte count (saturating); `nil` when absent or not a number.
private func contentLength(_ connection: OpaquePointer) -> Int? {
    guard let raw = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") else { return nil }
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

/// Query arguments: the shim keeps escapes (MHD only turned `+` into space), decoded here.
private func queryParameters(_ connection: OpaquePointer) -> [String: String] {
    var query: [String: String] = [:]
    for (name, value) in values(connection, .GET_ARGUMENT_KIND) {
        query[percentDecoded(name.utf8)] = percentDecoded(value.utf8)
    }
    return query
}

/// Every `(key, value)` of one kind, read with explicit lengths so embedded NULs and invalid
/// UTF-8 cannot trap (invalid bytes become U+FFFD). Missing values read as `""`.
private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(String, String)] {
    var pairs: [(String, String)] = []
    withUnsafeMutablePointer(to: &pairs) { pointer in
        _ = MHD_get_connection_values_n(connection, kind, { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
            let text = value.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self)
            } ?? ""
            cls.assumingMemoryBound(to: [(String, String)].self).pointee.append((name, text))
            return .YES
        }, pointer)
    }
    return pairs
}
