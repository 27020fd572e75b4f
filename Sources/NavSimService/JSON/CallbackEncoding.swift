import NavigationCore

extension Encode {
    /// One call of lifecycle code in a Controller reply's `on`: `{"operation", "receiver"?,
    /// "once"?}` (the receiver is left out when it is the controller itself).
    static func call(_ call: CallbackCode.Call) -> JSON {
        let mirror = Mirror(reflecting: call.command)
        let child = mirror.children.first
        var members: [(String, JSON)] = [("operation", .string(child?.label ?? "\(call.command)"))]
        if let value = child?.value {
            let receiver = Mirror(reflecting: value).children.first { $0.label == "receiver" }?.value as? ControllerID
            if let receiver, receiver != CallbackCode.selfReceiver { members.append(("receiver", .string(receiver))) }
        }
        if call.once { members.append(("once", .bool(true))) }
        return .object(members)
    }
}
