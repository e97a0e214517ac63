import Foundation
import SubCore
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Paths and helpers shared by the font and render tests.
enum FontTestSupport {
    /// The checkout's root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The bundled font folder and file.
    static let fontsDirectory = root.appendingPathComponent("Fonts")
    static let bundledFont = fontsDirectory.appendingPathComponent(BundledFont.fileName)

    /// The test fixtures folder.
    static let fixtures = root.appendingPathComponent("Tests/SubCoreTests/Fixtures")

    /// A fresh empty folder for one test.
    static func temporaryDirectory() throws -> URL { try TestFiles.temporaryDirectory("subfix-render-tests") }

    /// Decodes every double-byte code of a legacy encoding with iconv: lead bytes × trail bytes.
    static func decodeDoubleByte(_ encoding: String, lead: ClosedRange<UInt8>, trail: [UInt8]) -> [Unicode.Scalar] {
        let converter = iconv_open("UTF-32LE", encoding)
        guard converter != iconv_t(bitPattern: -1) else { return [] }
        defer { iconv_close(converter) }
        var scalars: [Unicode.Scalar] = []
        for a in lead {
            for b in trail {
                var input: [CChar] = [CChar(bitPattern: a), CChar(bitPattern: b)]
                var output = [UInt32](repeating: 0, count: 4)
                let ok = input.withUnsafeMutableBufferPointer { inBuf -> Bool in
                    output.withUnsafeMutableBytes { outBuf -> Bool in
                        var inPtr: UnsafeMutablePointer<CChar>? = inBuf.baseAddress
                        var inLeft = 2
                        var outPtr = outBuf.baseAddress?.assumingMemoryBound(to: CChar.self)
                        var outLeft = outBuf.count
                        return iconv(converter, &inPtr, &inLeft, &outPtr, &outLeft) != -1 && inLeft == 0
                            && outLeft == outBuf.count - 4
                    }
                }
                if ok, let scalar = Unicode.Scalar(output[0]) { scalars.append(scalar) }
            }
        }
        return scalars
    }
}
