#ifndef CTEXT_LOADER_H
#define CTEXT_LOADER_H
#include <stddef.h>

/* libass, fontconfig, HarfBuzz (with its subsetter), uchardet and FreeType are loaded on first use (dlopen), not
 * at process start: with GLib, graphite2, PCRE2, expat, FriBiDi, libpng, zlib and brotli they pull in 18 shared
 * libraries that cost every subfix process about 3 ms before main (measured with perf stat: `search` never calls
 * them). Every function of theirs that SubCore calls is defined in loader.c under its own name; its first call
 * loads its library. Call ctext_load first to turn a missing library into an error instead. */

/* The libraries, each loaded on its own. */
enum ctext_library {
    CTEXT_LIBASS = 0,
    CTEXT_FONTCONFIG = 1,
    CTEXT_HARFBUZZ = 2,        /* libharfbuzz */
    CTEXT_HARFBUZZ_SUBSET = 3, /* libharfbuzz-subset, which needs libharfbuzz */
    CTEXT_UCHARDET = 4,
    CTEXT_FREETYPE = 5,
    CTEXT_LIBRARY_COUNT = 6
};

/* Loads `library` once (thread-safe). Returns 0, or -1 with the dynamic loader's message in `message`. */
int ctext_load(int library, char *message, size_t size);

/* The soname this build opens for `library` ("libass.so.9"); NULL for another value. */
const char *ctext_soname(int library);

#endif
