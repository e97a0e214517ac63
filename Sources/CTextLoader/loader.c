/* Lazy binding of libass, fontconfig, HarfBuzz, hb-subset, uchardet and FreeType: see include/ctext_loader.h. */
#include "ctext_freetype.h"
#include "ctext_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <ass/ass.h>
#include <fontconfig/fontconfig.h>
#include <harfbuzz/hb-subset.h>
#include <harfbuzz/hb.h>
#include <uchardet/uchardet.h>

/* The sonames of Debian 12's packages (libass9, libfontconfig1, libharfbuzz0b, libharfbuzz-subset0,
 * libuchardet0, libfreetype6); the headers carry no soname. `make deb` reads them from the binary for its Depends. */
static const char *const sonames[CTEXT_LIBRARY_COUNT] = {
    "libass.so.9",      "libfontconfig.so.1", "libharfbuzz.so.0", "libharfbuzz-subset.so.0",
    "libuchardet.so.0", "libfreetype.so.6",
};

/* Every function SubCore uses: X(library, return type, name, (parameters), (arguments)); XV for void ones. The
 * definitions below must match the headers' declarations, so the compiler checks every signature. */
#define CTEXT_FUNCTIONS(X, XV)                                                                                     \
    XV(CTEXT_LIBASS, ass_add_font, (ASS_Library * library, const char *name, const char *data, int data_size),     \
       (library, name, data, data_size))                                                                           \
    XV(CTEXT_LIBASS, ass_free_track, (ASS_Track * track), (track))                                                 \
    XV(CTEXT_LIBASS, ass_library_done, (ASS_Library * priv), (priv))                                               \
    X(CTEXT_LIBASS, ASS_Library *, ass_library_init, (void), ())                                                   \
    X(CTEXT_LIBASS, int, ass_library_version, (void), ())                                                          \
    X(CTEXT_LIBASS, ASS_Track *, ass_read_memory,                                                                  \
      (ASS_Library * library, char *buf, size_t bufsize, char *codepage), (library, buf, bufsize, codepage))       \
    X(CTEXT_LIBASS, ASS_Image *, ass_render_frame,                                                                 \
      (ASS_Renderer * priv, ASS_Track * track, long long now, int *detect_change),                                 \
      (priv, track, now, detect_change))                                                                           \
    XV(CTEXT_LIBASS, ass_renderer_done, (ASS_Renderer * priv), (priv))                                             \
    X(CTEXT_LIBASS, ASS_Renderer *, ass_renderer_init, (ASS_Library * library), (library))                         \
    XV(CTEXT_LIBASS, ass_set_cache_limits, (ASS_Renderer * priv, int glyph_max, int bitmap_max_size),              \
       (priv, glyph_max, bitmap_max_size))                                                                         \
    XV(CTEXT_LIBASS, ass_set_extract_fonts, (ASS_Library * priv, int extract), (priv, extract))                    \
    XV(CTEXT_LIBASS, ass_set_fonts,                                                                                \
       (ASS_Renderer * priv, const char *default_font, const char *default_family, int dfp, const char *config,    \
        int update),                                                                                               \
       (priv, default_font, default_family, dfp, config, update))                                                  \
    XV(CTEXT_LIBASS, ass_set_frame_size, (ASS_Renderer * priv, int w, int h), (priv, w, h))                        \
    XV(CTEXT_LIBASS, ass_set_message_cb,                                                                           \
       (ASS_Library * priv, void (*msg_cb)(int level, const char *fmt, va_list args, void *data), void *data),     \
       (priv, msg_cb, data))                                                                                       \
    XV(CTEXT_LIBASS, ass_set_shaper, (ASS_Renderer * priv, ASS_ShapingLevel level), (priv, level))                 \
    XV(CTEXT_LIBASS, ass_set_storage_size, (ASS_Renderer * priv, int w, int h), (priv, w, h))                      \
    XV(CTEXT_FONTCONFIG, FcConfigDestroy, (FcConfig * config), (config))                                           \
    X(CTEXT_FONTCONFIG, FcFontSet *, FcFontList, (FcConfig * config, FcPattern * p, FcObjectSet * os),             \
      (config, p, os))                                                                                             \
    XV(CTEXT_FONTCONFIG, FcFontSetDestroy, (FcFontSet * s), (s))                                                   \
    X(CTEXT_FONTCONFIG, int, FcGetVersion, (void), ())                                                             \
    X(CTEXT_FONTCONFIG, FcConfig *, FcInitLoadConfigAndFonts, (void), ())                                          \
    X(CTEXT_FONTCONFIG, FcBool, FcObjectSetAdd, (FcObjectSet * os, const char *object), (os, object))              \
    X(CTEXT_FONTCONFIG, FcObjectSet *, FcObjectSetCreate, (void), ())                                              \
    XV(CTEXT_FONTCONFIG, FcObjectSetDestroy, (FcObjectSet * os), (os))                                             \
    X(CTEXT_FONTCONFIG, FcBool, FcPatternAddString, (FcPattern * p, const char *object, const FcChar8 *s),         \
      (p, object, s))                                                                                              \
    X(CTEXT_FONTCONFIG, FcPattern *, FcPatternCreate, (void), ())                                                  \
    XV(CTEXT_FONTCONFIG, FcPatternDestroy, (FcPattern * p), (p))                                                   \
    X(CTEXT_FONTCONFIG, FcResult, FcPatternGetInteger, (const FcPattern *p, const char *object, int n, int *i),    \
      (p, object, n, i))                                                                                           \
    X(CTEXT_FONTCONFIG, FcResult, FcPatternGetString,                                                              \
      (const FcPattern *p, const char *object, int n, FcChar8 **s), (p, object, n, s))                             \
    X(CTEXT_HARFBUZZ, hb_blob_t *, hb_blob_create_from_file_or_fail, (const char *file_name), (file_name))         \
    X(CTEXT_HARFBUZZ, hb_blob_t *, hb_blob_create_or_fail,                                                         \
      (const char *data, unsigned int length, hb_memory_mode_t mode, void *user_data, hb_destroy_func_t destroy),  \
      (data, length, mode, user_data, destroy))                                                                    \
    XV(CTEXT_HARFBUZZ, hb_blob_destroy, (hb_blob_t * blob), (blob))                                                \
    X(CTEXT_HARFBUZZ, const char *, hb_blob_get_data, (hb_blob_t * blob, unsigned int *length), (blob, length))    \
    X(CTEXT_HARFBUZZ, unsigned int, hb_face_count, (hb_blob_t * blob), (blob))                                     \
    X(CTEXT_HARFBUZZ, hb_face_t *, hb_face_create, (hb_blob_t * blob, unsigned int index), (blob, index))          \
    XV(CTEXT_HARFBUZZ, hb_face_destroy, (hb_face_t * face), (face))                                                \
    X(CTEXT_HARFBUZZ, unsigned int, hb_face_get_glyph_count, (const hb_face_t *face), (face))                      \
    X(CTEXT_HARFBUZZ, hb_blob_t *, hb_face_reference_blob, (hb_face_t * face), (face))                             \
    XV(CTEXT_HARFBUZZ, hb_set_add, (hb_set_t * set, hb_codepoint_t codepoint), (set, codepoint))                   \
    X(CTEXT_HARFBUZZ_SUBSET, hb_subset_input_t *, hb_subset_input_create_or_fail, (void), ())                      \
    XV(CTEXT_HARFBUZZ_SUBSET, hb_subset_input_destroy, (hb_subset_input_t * input), (input))                       \
    X(CTEXT_HARFBUZZ_SUBSET, hb_set_t *, hb_subset_input_unicode_set, (hb_subset_input_t * input), (input))        \
    X(CTEXT_HARFBUZZ_SUBSET, hb_face_t *, hb_subset_or_fail, (hb_face_t * source, const hb_subset_input_t *input), \
      (source, input))                                                                                             \
    XV(CTEXT_UCHARDET, uchardet_data_end, (uchardet_t ud), (ud))                                                   \
    XV(CTEXT_UCHARDET, uchardet_delete, (uchardet_t ud), (ud))                                                     \
    X(CTEXT_UCHARDET, const char *, uchardet_get_charset, (uchardet_t ud), (ud))                                   \
    X(CTEXT_UCHARDET, int, uchardet_handle_data, (uchardet_t ud, const char *data, size_t len), (ud, data, len))   \
    X(CTEXT_UCHARDET, uchardet_t, uchardet_new, (void), ())                                                        \
    XV(CTEXT_UCHARDET, uchardet_reset, (uchardet_t ud), (ud))

/* One pointer per function, typed from the header's own declaration. */
#define DECLARE_POINTER(library, type, name, parameters, arguments) static __typeof__(name) *pointer_##name;
#define DECLARE_VOID_POINTER(library, name, parameters, arguments) static __typeof__(name) *pointer_##name;
CTEXT_FUNCTIONS(DECLARE_POINTER, DECLARE_VOID_POINTER)
CTEXT_FREETYPE_FUNCTIONS(DECLARE_POINTER, DECLARE_VOID_POINTER)

/* Per library: pthread_once can't take an argument, so one once-function each. */
static pthread_once_t once[CTEXT_LIBRARY_COUNT] = {
    PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
};
static int loaded[CTEXT_LIBRARY_COUNT];
static char failure[CTEXT_LIBRARY_COUNT][512];

static void load(int library) {
    void *handle = dlopen(sonames[library], RTLD_LAZY | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(failure[library], sizeof failure[library], "%s", reason ? reason : sonames[library]);
        return;
    }
    const char *missing = NULL;
#define RESOLVE(owner, type, name, parameters, arguments)                            \
    if (owner == library) {                                                        \
        *(void **)&pointer_##name = dlsym(handle, #name); /* POSIX's idiom */      \
        if (!pointer_##name && !missing) missing = #name;                          \
    }
#define RESOLVE_VOID(owner, name, parameters, arguments) RESOLVE(owner, void, name, parameters, arguments)
    CTEXT_FUNCTIONS(RESOLVE, RESOLVE_VOID)
    CTEXT_FREETYPE_FUNCTIONS(RESOLVE, RESOLVE_VOID)
#undef RESOLVE
#undef RESOLVE_VOID
    if (missing) {
        snprintf(failure[library], sizeof failure[library], "%s has no symbol %s", sonames[library], missing);
        dlclose(handle);
        return;
    }
    /* The handle stays open for the life of the process: the library's objects may outlive any owner. */
    __atomic_store_n(&loaded[library], 1, __ATOMIC_RELEASE);
}

static void load_libass(void) { load(CTEXT_LIBASS); }
static void load_fontconfig(void) { load(CTEXT_FONTCONFIG); }
static void load_harfbuzz(void) { load(CTEXT_HARFBUZZ); }
static void load_harfbuzz_subset(void) { load(CTEXT_HARFBUZZ_SUBSET); }
static void load_uchardet(void) { load(CTEXT_UCHARDET); }
static void load_freetype(void) { load(CTEXT_FREETYPE); }
static void (*const loaders[CTEXT_LIBRARY_COUNT])(void) = {
    load_libass, load_fontconfig, load_harfbuzz, load_harfbuzz_subset, load_uchardet, load_freetype,
};

int ctext_load(int library, char *message, size_t size) {
    if (library < 0 || library >= CTEXT_LIBRARY_COUNT) {
        if (message && size > 0) snprintf(message, size, "no library %d", library);
        return -1;
    }
    pthread_once(&once[library], loaders[library]);
    if (__atomic_load_n(&loaded[library], __ATOMIC_ACQUIRE)) return 0;
    if (message && size > 0) snprintf(message, size, "%s", failure[library]);
    return -1;
}

const char *ctext_soname(int library) {
    return library >= 0 && library < CTEXT_LIBRARY_COUNT ? sonames[library] : NULL;
}

/* A first call loads the library; one that cannot be loaded is fatal here, because SubCore's owner types load
 * it first and report the failure as an error: report the loader's reason and stop rather than jump through a
 * null pointer. */
static void require_loaded(int library, const char *function) {
    char message[512];
    if (ctext_load(library, message, sizeof message) == 0) return;
    fprintf(stderr, "subfix: fatal: %s called but %s could not be loaded: %s\n", function, sonames[library], message);
    abort();
}

/* Hidden: the trampolines serve SubCore only. Were they exported, libass's own calls into fontconfig, HarfBuzz
 * and FreeType would bind to them. */
/* One trampoline: `symbol` is the name SubCore calls, `name` the library's. */
#define TRAMPOLINE(library, type, symbol, name, parameters, arguments)                              \
    __attribute__((visibility("hidden"))) type symbol parameters {                                   \
        if (!__atomic_load_n(&loaded[library], __ATOMIC_ACQUIRE)) require_loaded(library, #name); \
        return pointer_##name arguments;                                                           \
    }
#define VOID_TRAMPOLINE(library, symbol, name, parameters, arguments)                               \
    __attribute__((visibility("hidden"))) void symbol parameters {                                   \
        if (!__atomic_load_n(&loaded[library], __ATOMIC_ACQUIRE)) require_loaded(library, #name); \
        pointer_##name arguments;                                                                  \
    }
#define DEFINE_TRAMPOLINE(library, type, name, parameters, arguments) \
    TRAMPOLINE(library, type, name, name, parameters, arguments)
#define DEFINE_VOID_TRAMPOLINE(library, name, parameters, arguments) \
    VOID_TRAMPOLINE(library, name, name, parameters, arguments)
CTEXT_FUNCTIONS(DEFINE_TRAMPOLINE, DEFINE_VOID_TRAMPOLINE)

/* FreeType's, under ctext_ names (see ctext_freetype.h). */
#define DEFINE_FREETYPE_TRAMPOLINE(library, type, name, parameters, arguments) \
    TRAMPOLINE(library, type, ctext_##name, name, parameters, arguments)
#define DEFINE_FREETYPE_VOID_TRAMPOLINE(library, name, parameters, arguments) \
    VOID_TRAMPOLINE(library, ctext_##name, name, parameters, arguments)
CTEXT_FREETYPE_FUNCTIONS(DEFINE_FREETYPE_TRAMPOLINE, DEFINE_FREETYPE_VOID_TRAMPOLINE)
