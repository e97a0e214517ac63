import Testing

@testable import subfix

@Suite struct JSONTests {
    @Test func keepsKeyOrderAndEscapes() {
        let value = JSON.object([
            ("b", .int(1)), ("a", .string("引号\"\\\n\u{1}")), ("c", .array([.bool(true), .null, .double(1.5)])),
        ])
        #expect(value.serialized() == #"{"b":1,"a":"引号\"\\\n\u0001","c":[true,null,1.5]}"#)
    }
}
