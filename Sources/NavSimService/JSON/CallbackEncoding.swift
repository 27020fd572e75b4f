import JSONValues
import NavigationCore

extension Encode {
    /// One call of lifecycle code in a Controller reply's `on`: `{"operation", "receiver"?,
    /// "once"?}` (the receiver is left out when it is the controller itself).
    static func call(_ call: CallbackCode.Call, into w: inout JSONWriter) {
        let mirror = Mirror(reflecting: call.command)
        let child = mirror.children.first
        w.openObject()
        w.member("operation", child?.label ?? "\(call.command)")
        if let value = child?.value {
            let receiver = Mirror(reflecting: value).children.first { $0.label == "receiver" }?.value as? ControllerID
            if let receiver, receiver != CallbackCode.selfReceiver { w.member("receiver", receiver) }
        }
        if call.once { w.member("once", true) }
        w.closeObject()
    }
}
