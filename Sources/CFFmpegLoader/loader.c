/* Lazy binding of FFmpeg's libraries (libavformat, libavcodec, libavutil, libswscale): see
 * include/cffmpeg_loader.h. */
#include "cffmpeg_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavcodec/version_major.h>
#include <libavformat/avformat.h>
#include <libavformat/version_major.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>
#include <libavutil/mathematics.h>
#include <libavutil/mem.h>
#include <libavutil/version.h>
#include <libswscale/swscale.h>
#include <libswscale/version_major.h>

/* The sonames this build was compiled against: the major versions of the headers. */
#define AVCODEC_SONAME "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR)
#define AVFORMAT_SONAME "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR)
#define AVUTIL_SONAME "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR)
#define SWSCALE_SONAME "libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR)

/* Every function SubCore uses: X(library, return type, name, (parameters), (arguments)); XV for void ones.
 * The definitions below must match the headers' declarations, so the compiler checks every signature. */
#define CFFMPEG_FUNCTIONS(X, XV)                                                                              \
    X(format, int, av_interleaved_write_frame, (AVFormatContext * s, AVPacket * pkt), (s, pkt))               \
    X(format, int, av_read_frame, (AVFormatContext * s, AVPacket * pkt), (s, pkt))                            \
    X(format, int, av_write_frame, (AVFormatContext * s, AVPacket * pkt), (s, pkt))                           \
    X(format, AVIOContext *, avio_alloc_context,                                                              \
      (unsigned char *buffer, int buffer_size, int write_flag, void *opaque,                                  \
       int (*read_packet)(void *opaque, uint8_t *buf, int buf_size),                                          \
       int (*write_packet)(void *opaque, uint8_t *buf, int buf_size),                                         \
       int64_t (*seek)(void *opaque, int64_t offset, int whence)),                                            \
      (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek))                             \
    XV(format, avio_context_free, (AVIOContext * *s), (s))                                                    \
    X(format, int, av_seek_frame, (AVFormatContext * s, int stream_index, int64_t timestamp, int flags),      \
      (s, stream_index, timestamp, flags))                                                                    \
    X(format, int, av_write_trailer, (AVFormatContext * s), (s))                                              \
    X(format, AVFormatContext *, avformat_alloc_context, (void), ())                                          \
    X(format, int, avformat_alloc_output_context2,                                                            \
      (AVFormatContext * *ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename), \
      (ctx, oformat, format_name, filename))                                                                  \
    XV(format, avformat_close_input, (AVFormatContext * *s), (s))                                             \
    X(format, int, avformat_find_stream_info, (AVFormatContext * ic, AVDictionary * *options), (ic, options)) \
    XV(format, avformat_free_context, (AVFormatContext * s), (s))                                             \
    X(format, AVStream *, avformat_new_stream, (AVFormatContext * s, const AVCodec *c), (s, c))               \
    X(format, int, avformat_open_input,                                                                       \
      (AVFormatContext * *ps, const char *url, const AVInputFormat *fmt, AVDictionary **options),             \
      (ps, url, fmt, options))                                                                                \
    X(format, unsigned, avformat_version, (void), ())                                                         \
    X(format, int, avformat_write_header, (AVFormatContext * s, AVDictionary * *options), (s, options))       \
    X(format, int, avio_close_dyn_buf, (AVIOContext * s, uint8_t * *pbuffer), (s, pbuffer))                   \
    X(format, int, avio_open_dyn_buf, (AVIOContext * *s), (s))                                                \
    X(codec, int, av_new_packet, (AVPacket * pkt, int size), (pkt, size))                                     \
    X(codec, AVPacket *, av_packet_alloc, (void), ())                                                         \
    XV(codec, av_packet_free, (AVPacket * *pkt), (pkt))                                                       \
    XV(codec, av_packet_move_ref, (AVPacket * dst, AVPacket *src), (dst, src))                                \
    XV(codec, av_packet_rescale_ts, (AVPacket * pkt, AVRational tb_src, AVRational tb_dst),                   \
       (pkt, tb_src, tb_dst))                                                                                 \
    XV(codec, av_packet_unref, (AVPacket * pkt), (pkt))                                                       \
    X(codec, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))                       \
    X(codec, int, avcodec_decode_subtitle2,                                                                   \
      (AVCodecContext * avctx, AVSubtitle * sub, int *got_sub_ptr, AVPacket *avpkt),                          \
      (avctx, sub, got_sub_ptr, avpkt))                                                                       \
    X(codec, const AVCodecDescriptor *, avcodec_descriptor_get, (enum AVCodecID id), (id))                    \
    X(codec, int, avcodec_encode_subtitle,                                                                    \
      (AVCodecContext * avctx, uint8_t * buf, int buf_size, const AVSubtitle *sub),                           \
      (avctx, buf, buf_size, sub))                                                                            \
    X(codec, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))                                \
    X(codec, const AVCodec *, avcodec_find_encoder, (enum AVCodecID id), (id))                                \
    XV(codec, avcodec_flush_buffers, (AVCodecContext * avctx), (avctx))                                       \
    XV(codec, avcodec_free_context, (AVCodecContext * *avctx), (avctx))                                       \
    X(codec, const char *, avcodec_get_name, (enum AVCodecID id), (id))                                       \
    X(codec, int, avcodec_open2, (AVCodecContext * avctx, const AVCodec *codec, AVDictionary **options),     \
      (avctx, codec, options))                                                                                \
    X(codec, int, avcodec_parameters_copy, (AVCodecParameters * dst, const AVCodecParameters *src), (dst, src)) \
    X(codec, int, avcodec_parameters_from_context, (AVCodecParameters * par, const AVCodecContext *codec),    \
      (par, codec))                                                                                           \
    X(codec, int, avcodec_parameters_to_context, (AVCodecContext * codec, const AVCodecParameters *par),      \
      (codec, par))                                                                                           \
    X(codec, int, avcodec_receive_frame, (AVCodecContext * avctx, AVFrame * frame), (avctx, frame))           \
    X(codec, int, avcodec_receive_packet, (AVCodecContext * avctx, AVPacket * avpkt), (avctx, avpkt))         \
    X(codec, int, avcodec_send_frame, (AVCodecContext * avctx, const AVFrame *frame), (avctx, frame))         \
    X(codec, int, avcodec_send_packet, (AVCodecContext * avctx, const AVPacket *avpkt), (avctx, avpkt))       \
    X(codec, unsigned, avcodec_version, (void), ())                                                           \
    XV(codec, avsubtitle_free, (AVSubtitle * sub), (sub))                                                     \
    XV(util, av_dict_free, (AVDictionary * *m), (m))                                                          \
    X(util, int, av_dict_copy, (AVDictionary * *dst, const AVDictionary *src, int flags), (dst, src, flags))   \
    X(util, int, av_dict_set, (AVDictionary * *pm, const char *key, const char *value, int flags),             \
      (pm, key, value, flags))                                                                                \
    X(util, AVDictionaryEntry *, av_dict_get,                                                                 \
      (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), (m, key, prev, flags)) \
    X(util, AVFrame *, av_frame_alloc, (void), ())                                                            \
    XV(util, av_frame_free, (AVFrame * *frame), (frame))                                                      \
    X(util, int, av_frame_get_buffer, (AVFrame * frame, int align), (frame, align))                           \
    X(util, int, av_frame_make_writable, (AVFrame * frame), (frame))                                          \
    XV(util, av_frame_move_ref, (AVFrame * dst, AVFrame *src), (dst, src))                                    \
    XV(util, av_frame_unref, (AVFrame * frame), (frame))                                                      \
    XV(util, av_free, (void *ptr), (ptr))                                                                     \
    XV(util, av_log_default_callback, (void *avcl, int level, const char *fmt, va_list vl),                   \
       (avcl, level, fmt, vl))                                                                                \
    X(util, int, av_log_get_level, (void), ())                                                                \
    XV(util, av_log_set_callback, (void (*callback)(void *, int, const char *, va_list)), (callback))        \
    X(util, void *, av_malloc, (size_t size), (size))                                                          \
    X(util, void *, av_mallocz, (size_t size), (size))                                                        \
    X(util, int64_t, av_rescale_q, (int64_t a, AVRational bq, AVRational cq), (a, bq, cq))                    \
    X(util, int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size))  \
    X(util, unsigned, avutil_version, (void), ())                                                             \
    XV(scale, sws_freeContext, (struct SwsContext * swsContext), (swsContext))                                \
    X(scale, struct SwsContext *, sws_getContext,                                                             \
      (int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat,    \
       int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param),                           \
      (srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param))                     \
    X(scale, int, sws_scale,                                                                                  \
      (struct SwsContext * c, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY,          \
       int srcSliceH, uint8_t *const dst[], const int dstStride[]),                                           \
      (c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride))                                         \
    X(scale, unsigned, swscale_version, (void), ())

/* One pointer per function, typed from the header's own declaration. */
#define DECLARE_POINTER(library, type, name, parameters, arguments) static __typeof__(name) *pointer_##name;
#define DECLARE_VOID_POINTER(library, name, parameters, arguments) static __typeof__(name) *pointer_##name;
CFFMPEG_FUNCTIONS(DECLARE_POINTER, DECLARE_VOID_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char failure[512] = "";

int cffmpeg_open_libraries(const char *const *sonames, int count, void **handles, char *message, size_t size) {
    for (int index = 0; index < count; index++) {
        handles[index] = dlopen(sonames[index], RTLD_LAZY | RTLD_LOCAL);
        if (handles[index]) continue;
        const char *reason = dlerror();
        if (message && size > 0) snprintf(message, size, "%s", reason ? reason : sonames[index]);
        while (index > 0) dlclose(handles[--index]);
        return -1;
    }
    return 0;
}

static void load_once(void) {
    /* In dependency order: each library's own dependencies are already mapped when it is opened. */
    const char *const sonames[] = {cffmpeg_soname(0), cffmpeg_soname(1), cffmpeg_soname(2), cffmpeg_soname(3)};
    void *handles[4];
    if (cffmpeg_open_libraries(sonames, 4, handles, failure, sizeof failure) != 0) return;
    void *util = handles[0], *scale = handles[1], *codec = handles[2], *format = handles[3];
    const char *missing = NULL;
#define RESOLVE(library, type, name, parameters, arguments)                  \
    *(void **)&pointer_##name = dlsym(library, #name); /* POSIX's idiom */ \
    if (!pointer_##name && !missing) missing = #name;
#define RESOLVE_VOID(library, name, parameters, arguments) RESOLVE(library, void, name, parameters, arguments)
    CFFMPEG_FUNCTIONS(RESOLVE, RESOLVE_VOID)
#undef RESOLVE
#undef RESOLVE_VOID
    if (missing) {
        snprintf(failure, sizeof failure, "FFmpeg's libraries have no symbol %s", missing);
        return;
    }
    /* Handles stay open for the life of the process: FFmpeg objects may outlive any owner. */
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

int cffmpeg_load(char *message, size_t size) {
    pthread_once(&once, load_once);
    if (__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) return 0;
    if (message && size > 0) snprintf(message, size, "%s", failure);
    return -1;
}

int cffmpeg_is_loaded(void) { return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); }

const char *cffmpeg_soname(int index) {
    static const char *const sonames[] = {AVUTIL_SONAME, SWSCALE_SONAME, AVCODEC_SONAME, AVFORMAT_SONAME};
    return index >= 0 && index < 4 ? sonames[index] : NULL;
}

/* A call before a successful cffmpeg_load is a programming error in SubCore (every owner type loads first):
 * report the loader's reason and stop rather than jump through a null pointer. */
static void require_loaded(const char *function) {
    char message[512];
    if (cffmpeg_load(message, sizeof message) == 0) return;
    fprintf(stderr, "subfix: fatal: %s called but FFmpeg could not be loaded: %s\n", function, message);
    abort();
}

/* Hidden: the trampolines serve SubCore only. Were they exported (a binary linked with --export-dynamic,
 * SubCore built as a shared library), FFmpeg's calls between its own libraries and another FFmpeg user in the
 * process would bind to them. */
#define TRAMPOLINE __attribute__((visibility("hidden")))
#define DEFINE_TRAMPOLINE(library, type, name, parameters, arguments)                        \
    TRAMPOLINE type name parameters {                                                          \
        if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) require_loaded(#name);                \
        return pointer_##name arguments;                                                       \
    }
#define DEFINE_VOID_TRAMPOLINE(library, name, parameters, arguments)                         \
    TRAMPOLINE void name parameters {                                                          \
        if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) require_loaded(#name);                \
        pointer_##name arguments;                                                              \
    }
CFFMPEG_FUNCTIONS(DEFINE_TRAMPOLINE, DEFINE_VOID_TRAMPOLINE)
