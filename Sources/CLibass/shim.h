#ifndef CLIBASS_SHIM_H
#define CLIBASS_SHIM_H
#include <ass/ass.h>
#include <stdarg.h>
#include <stdio.h>

/* libass reports through a printf-style callback. The shim formats each message
   and hands Swift a plain string plus the context pointer it registered. */
typedef void (*clibass_message_sink)(int level, const char *message, void *context);
typedef struct clibass_sink_box { clibass_message_sink sink; void *context; } clibass_sink_box;

static inline void clibass_message_trampoline(int level, const char *fmt, va_list va, void *data) {
    clibass_sink_box *box = (clibass_sink_box *)data;
    if (!box || !box->sink) return;
    char line[2048];
    vsnprintf(line, sizeof line, fmt, va);
    box->sink(level, line, box->context);
}
/* Registers `box` (owned by the caller, alive as long as the library) as the message sink. */
static inline void clibass_set_message_sink(ASS_Library *library, clibass_sink_box *box) {
    ass_set_message_cb(library, clibass_message_trampoline, box);
}
#endif
