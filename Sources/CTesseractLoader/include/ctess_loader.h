#ifndef CTESS_LOADER_H
#define CTESS_LOADER_H
#include <stddef.h>
#include <tesseract/capi.h>

/* Tesseract (with Leptonica, libarchive, libcurl and their dependencies) is loaded on first use (dlopen), not at
 * process start: only `--ocr` runs read bitmap subtitles, and every other command would pay for mapping the
 * libraries. Every Tesseract function SubCore calls is defined in loader.c under its own name; its first call loads
 * the library. Call ctess_load first to turn a missing library into an error instead. */

/* Loads libtesseract once (thread-safe). Returns 0, or -1 with the dynamic loader's message in `message`. */
int ctess_load(char *message, size_t size);

/* The soname this build opens ("libtesseract.so.5"). */
const char *ctess_soname(void);

#endif
