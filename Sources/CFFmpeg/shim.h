#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <errno.h>
#include <stdio.h>

/* av_err2str is a macro over a compound literal; Swift gets a function. */
static inline void cffmpeg_strerror(int code, char *buffer, size_t size) {
    if (av_strerror(code, buffer, size) < 0) snprintf(buffer, size, "error %d", code);
}
/* AVERROR(e) and friends are macros. */
static inline int cffmpeg_averror_eof(void) { return AVERROR_EOF; }
static inline int cffmpeg_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int cffmpeg_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int cffmpeg_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational cffmpeg_time_base_q(void) { return AV_TIME_BASE_Q; }

/* av_log's callback is variadic (va_list): format here, hand Swift a string. `from_codec` is 1 for lines logged by
   a decoder, encoder or bitstream filter (a bad video frame), 0 for the demuxer, its I/O and the rest: only the
   latter say the file itself is damaged. */
typedef void (*cffmpeg_log_sink)(int level, int from_codec, const char *message);
static cffmpeg_log_sink cffmpeg_current_sink = 0;
static inline int cffmpeg_log_from_codec(void *avcl) {
    const AVClass *cls = avcl ? *(const AVClass **)avcl : 0;
    if (!cls) return 0;
    AVClassCategory category = cls->get_category ? cls->get_category(avcl) : cls->category;
    return category == AV_CLASS_CATEGORY_DECODER || category == AV_CLASS_CATEGORY_ENCODER
        || category == AV_CLASS_CATEGORY_BITSTREAM_FILTER;
}
static inline void cffmpeg_log_trampoline(void *avcl, int level, const char *fmt, va_list vl) {
    if (level > av_log_get_level() || !cffmpeg_current_sink) return;
    char line[1024];
    vsnprintf(line, sizeof line, fmt, vl);
    cffmpeg_current_sink(level, cffmpeg_log_from_codec(avcl), line);
}
static inline void cffmpeg_set_log_sink(cffmpeg_log_sink sink) {
    cffmpeg_current_sink = sink;
    av_log_set_callback(sink ? cffmpeg_log_trampoline : av_log_default_callback);
}
#endif
