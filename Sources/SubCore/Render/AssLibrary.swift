internal import CLibass
import Foundation

/// A libass library instance: its message log and the in-memory fonts it knows. The corresponding C calls are
/// `ass_library_init` and `ass_library_done`.
///
/// Not thread-safe: a library, its renderers and tracks are used from one thread at a time.
final class AssLibrary {
    let handle: OpaquePointer
    /// Where libass's messages go, through the shim's trampoline.
    let log = AssMessageLog()
    /// The sink box libass holds a pointer to, alive as long as the library.
    private let sinkBox: UnsafeMutablePointer<clibass_sink_box>

    init() throws(RenderError) {
        if let problem = TextLibrary.libass.loadProblem() {
            throw .libraryUnavailable(soname: TextLibrary.libass.soname, message: problem)
        }
        guard let library = ass_library_init() else { throw .libass(function: "ass_library_init", file: nil) }
        handle = library
        sinkBox = .allocate(capacity: 1)
        sinkBox.initialize(
            to: clibass_sink_box(
                sink: { level, text, context in
                    guard let text, let context else { return }
                    let log = Unmanaged<AssMessageLog>.fromOpaque(context).takeUnretainedValue()
                    log.append(AssMessage(level: Int(level), text: String(cString: text)))
                },
                context: Unmanaged.passUnretained(log).toOpaque()))
        clibass_set_message_sink(library, sinkBox)
        // A script's [Fonts] are used, as players use them, but `SubtitleRenderer` decodes and adds them itself
        // (`ass_add_font`, collections bounded): libass's own extraction would open every face a hostile
        // collection lists.
        ass_set_extract_fonts(library, 0)
    }

    deinit {
        ass_library_done(handle)
        sinkBox.deinitialize(count: 1)
        sinkBox.deallocate()
    }

    /// Registers font bytes under `name` (libass copies them). The corresponding C call is `ass_add_font`.
    func addFont(name: String, data: Data) {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else { return }
            ass_add_font(handle, name, base, Int32(clamping: bytes.count))
        }
    }

    /// The messages logged since the last call.
    func drainMessages() -> [AssMessage] { log.drain() }
}
