import Foundation
import Testing

@testable import SubCore

/// `DecodedText.basis`: what decided the encoding, for each path through `TextDecoder.decode`.
@Suite struct DecodingBasisTests {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples")

    private func sample(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.samples.appendingPathComponent(name)))
    }

    @Test func eachPathNamesItsBasis() throws {
        #expect(try TextDecoder.decode(try sample("utf16le-bom.srt"), file: "a").basis == .byteOrderMark)
        #expect(try TextDecoder.decode(Array("你好".utf8), file: "a").basis == .validUTF8)
        let gbk = try sample("gbk.srt")
        let weighed = try TextDecoder.decode(gbk, file: "a")
        #expect(weighed.basis == .weighed && weighed.runnerUp != nil)
        let language = try #require(EncodingHint(label: "zh-Hans"))
        #expect(try TextDecoder.decode(gbk, file: "a", hint: language).basis == .weighedWithLanguage)
        #expect(try TextDecoder.decode(gbk, file: "a", hint: .exact(.gbk)).basis == .given)
        #expect(try TextDecoder.decode(gbk, as: .gb18030, file: "a").basis == .given)
        #expect(DecodingBasis.weighed.explanation == "read best of every candidate encoding")
    }
}
