/* Lazy binding of Tesseract's C API: see include/ctess_loader.h. */
#include "ctess_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Debian 12's libtesseract5 package; the headers carry no soname. */
#define CTESS_SONAME "libtesseract.so.5"

/* Every function SubCore uses: X(return type, name, (parameters), (arguments)); XV for void ones. The definitions
 * below must match capi.h's declarations, so the compiler checks every signature. */
#define CTESS_FUNCTIONS(X, XV)                                                                                     \
    X(const char *, TessVersion, (void), ())                                                                       \
    XV(TessDeleteText, (const char *text), (text))                                                                 \
    X(TessBaseAPI *, TessBaseAPICreate, (void), ())                                                                \
    XV(TessBaseAPIDelete, (TessBaseAPI * handle), (handle))                                                        \
    X(BOOL, TessBaseAPISetVariable, (TessBaseAPI * handle, const char *name, const char *value),                   \
      (handle, name, value))                                                                                       \
    X(int, TessBaseAPIInit2, (TessBaseAPI * handle, const char *datapath, const char *language,                    \
                              TessOcrEngineMode oem),                                                              \
      (handle, datapath, language, oem))                                                                           \
    XV(TessBaseAPISetPageSegMode, (TessBaseAPI * handle, TessPageSegMode mode), (handle, mode))                    \
    XV(TessBaseAPISetImage,                                                                                        \
       (TessBaseAPI * handle, const unsigned char *imagedata, int width, int height, int bytes_per_pixel,          \
        int bytes_per_line),                                                                                       \
       (handle, imagedata, width, height, bytes_per_pixel, bytes_per_line))                                        \
    XV(TessBaseAPISetSourceResolution, (TessBaseAPI * handle, int ppi), (handle, ppi))                             \
    X(char *, TessBaseAPIGetUTF8Text, (TessBaseAPI * handle), (handle))                                            \
    X(int, TessBaseAPIMeanTextConf, (TessBaseAPI * handle), (handle))                                              \
    XV(TessBaseAPIClear, (TessBaseAPI * handle), (handle))

#define DECLARE_POINTER(type, name, parameters, arguments) static __typeof__(name) *pointer_##name;
#define DECLARE_VOID_POINTER(name, parameters, arguments) static __typeof__(name) *pointer_##name;
CTESS_FUNCTIONS(DECLARE_POINTER, DECLARE_VOID_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char failure[512] = "";

static void load_once(void) {
    /* One thread per engine: subfix runs engines in parallel itself, and OpenMP threads inside each would fight
     * them for the cores. Set before the library (and its OpenMP runtime) is mapped; a value the user set wins. */
    setenv("OMP_THREAD_LIMIT", "1", 0);
    void *library = dlopen(CTESS_SONAME, RTLD_LAZY | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s", reason ? reason : CTESS_SONAME);
        return;
    }
    const char *missing = NULL;
#define RESOLVE(type, name, parameters, arguments)                           \
    *(void **)&pointer_##name = dlsym(library, #name); /* POSIX's idiom */ \
    if (!pointer_##name && !missing) missing = #name;
#define RESOLVE_VOID(name, parameters, arguments) RESOLVE(void, name, parameters, arguments)
    CTESS_FUNCTIONS(RESOLVE, RESOLVE_VOID)
#undef RESOLVE
#undef RESOLVE_VOID
    if (missing) {
        snprintf(failure, sizeof failure, "%s has no symbol %s", CTESS_SONAME, missing);
        dlclose(library);
        return;
    }
    /* The handle stays open for the life of the process: engines may outlive any owner. */
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

int ctess_load(char *message, size_t size) {
    pthread_once(&once, load_once);
    if (__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) return 0;
    if (message && size > 0) snprintf(message, size, "%s", failure);
    return -1;
}

const char *ctess_soname(void) { return CTESS_SONAME; }

/* A call before a successful ctess_load is a programming error in SubCore (the engine loads first): report the
 * loader's reason and stop rather than jump through a null pointer. */
static void require_loaded(const char *function) {
    char message[512];
    if (ctess_load(message, sizeof message) == 0) return;
    fprintf(stderr, "subfix: fatal: %s called but Tesseract could not be loaded: %s\n", function, message);
    abort();
}

/* Hidden, as CFFmpegLoader's are: the trampolines serve SubCore only. */
#define TRAMPOLINE __attribute__((visibility("hidden")))
#define DEFINE_TRAMPOLINE(type, name, parameters, arguments)                   \
    TRAMPOLINE type name parameters {                                          \
        if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) require_loaded(#name); \
        return pointer_##name arguments;                                       \
    }
#define DEFINE_VOID_TRAMPOLINE(name, parameters, arguments)                    \
    TRAMPOLINE void name parameters {                                          \
        if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) require_loaded(#name); \
        pointer_##name arguments;                                              \
    }
CTESS_FUNCTIONS(DEFINE_TRAMPOLINE, DEFINE_VOID_TRAMPOLINE)
