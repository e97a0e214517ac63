internal import CUchardet

/// A libuchardet detector. The corresponding C calls are `uchardet_new`, `uchardet_handle_data`,
/// `uchardet_data_end`, `uchardet_get_charset` and `uchardet_delete`.
final class CharsetDetector {
    /// libuchardet could not be loaded, or `uchardet_new` returned no detector (the caller then goes on without
    /// uchardet's guess).
    struct CreationFailed: Error, Equatable {
        let function = "uchardet_new"
    }

    private let handle: uchardet_t

    init() throws(CreationFailed) {
        if TextLibrary.uchardet.loadProblem() != nil { throw CreationFailed() }
        guard let made = uchardet_new() else { throw CreationFailed() }
        handle = made
    }

    deinit { uchardet_delete(handle) }

    /// The charset name uchardet guesses for `bytes` (such as `GB18030` or `BIG5`), or nil when it has no guess.
    func detect(_ bytes: ArraySlice<UInt8>) -> String? {
        uchardet_reset(handle)
        let status = bytes.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return 0 }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                uchardet_handle_data(handle, $0, buffer.count)
            }
        }
        guard status == 0 else { return nil }
        uchardet_data_end(handle)
        guard let name = uchardet_get_charset(handle) else { return nil }
        let charset = String(cString: name)
        return charset.isEmpty ? nil : charset
    }
}
