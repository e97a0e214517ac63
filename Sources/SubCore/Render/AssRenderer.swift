internal import CLibass
import Foundation

/// How libass finds fonts: fontconfig's system fonts, or only the fonts added to the library.
enum AssFontProvider {
    /// `ASS_FONTPROVIDER_FONTCONFIG`.
    case fontconfig
    /// `ASS_FONTPROVIDER_NONE`: only `ass_add_font` fonts (and a default font file, when given).
    case none
}

/// A libass renderer; keeps its library alive. The corresponding C calls are `ass_renderer_init` and
/// `ass_renderer_done`.
final class AssRenderer {
    let handle: OpaquePointer
    let library: AssLibrary
    private(set) var width = 0
    private(set) var height = 0

    init(library: AssLibrary) throws(RenderError) {
        guard let renderer = ass_renderer_init(library.handle) else {
            throw .libass(function: "ass_renderer_init", file: nil)
        }
        handle = renderer
        self.library = library
        // Bounded caches keep memory flat over thousands of frames: 2,000 glyphs, 64 MB of bitmaps.
        ass_set_cache_limits(renderer, 2000, 64)
    }

    deinit { ass_renderer_done(handle) }

    /// Sets the frame (and storage) size in pixels. The corresponding C calls are `ass_set_frame_size` and
    /// `ass_set_storage_size`.
    func setSize(width: Int, height: Int) {
        self.width = width
        self.height = height
        ass_set_frame_size(handle, Int32(width), Int32(height))
        ass_set_storage_size(handle, Int32(width), Int32(height))
    }

    /// Chooses the text shaper. The corresponding C call is `ass_set_shaper`.
    func setShaping(_ shaping: RenderShaping) {
        ass_set_shaper(handle, shaping == .simple ? ASS_SHAPING_SIMPLE : ASS_SHAPING_COMPLEX)
    }

    /// Configures font lookup. The corresponding C call is `ass_set_fonts`.
    func setFonts(provider: AssFontProvider, defaultFontPath: String? = nil, defaultFamily: String? = nil) {
        let value: ASS_DefaultFontProvider
        switch provider {
        case .fontconfig: value = ASS_FONTPROVIDER_FONTCONFIG
        case .none: value = ASS_FONTPROVIDER_NONE
        }
        ass_set_fonts(handle, defaultFontPath, defaultFamily, Int32(value.rawValue), nil, 1)
    }
}
