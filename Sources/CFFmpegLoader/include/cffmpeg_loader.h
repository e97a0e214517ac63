#ifndef CFFMPEG_LOADER_H
#define CFFMPEG_LOADER_H
#include <stddef.h>

/* FFmpeg's libraries (libavformat, libavcodec, libavutil, libswscale) are loaded on first use (dlopen), not at
 * process start: together they pull in about 170 shared libraries that cost every subfix process ~33 ms before
 * main, although text-only commands (fix, index, search) never call them. Every FFmpeg function SubCore calls
 * is defined in loader.c under its own name; its first call loads the libraries. Call cffmpeg_load first to
 * turn a missing library into an error instead. */

/* Loads the libraries once (thread-safe). Returns 0, or -1 with the dynamic loader's message in `message`. */
int cffmpeg_load(char *message, size_t size);

/* 1 once cffmpeg_load succeeded in this process, else 0. */
int cffmpeg_is_loaded(void);

/* The soname of FFmpeg library `index` this build was compiled against, in loading order: 0 libavutil,
 * 1 libswscale, 2 libavcodec, 3 libavformat; NULL for another index. */
const char *cffmpeg_soname(int index);

/* Opens `count` libraries in order (dlopen), as cffmpeg_load does, without touching the loaded state: 0 with
 * the handles in `handles`, or -1 with the dynamic loader's message and none of them left open. */
int cffmpeg_open_libraries(const char *const *sonames, int count, void **handles, char *message, size_t size);

#endif
