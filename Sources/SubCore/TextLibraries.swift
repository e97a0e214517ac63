internal import CTextLoader

/// libass, fontconfig, HarfBuzz, hb-subset, uchardet and FreeType, each loaded on first use rather than at process
/// start: commands that never render, look up fonts, subset or detect encodings (`search`, `jobs`) skip the 18
/// libraries they pull in. The owner of each library's first resource calls `loadProblem()` first.
enum TextLibrary: Int32 {
    case libass = 0
    case fontconfig = 1
    case harfbuzz = 2
    case harfbuzzSubset = 3
    case uchardet = 4
    case freetype = 5

    /// Loads the library (once per process); nil when it is loaded, else the dynamic loader's message.
    func loadProblem() -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let status = buffer.withUnsafeMutableBufferPointer { ctext_load(rawValue, $0.baseAddress, $0.count) }
        guard status != 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The soname it is opened by, such as `libass.so.9`.
    var soname: String { ctext_soname(rawValue).map { String(cString: $0) } ?? "" }
}
