/* Lazy binding of libpq: see include/clibpq_loader.h. */
#include "clibpq_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <postgresql/libpq-fe.h>

/* libpq's soname has been libpq.so.5 since PostgreSQL 8.2; its ABI only grows. */
#define LIBPQ_SONAME "libpq.so.5"

/* Every function SubfixPostgres uses: X(return type, name, (parameters), (arguments)); XV for void ones. The
 * definitions below must match the header's declarations, so the compiler checks every signature. */
#define CLIBPQ_FUNCTIONS(X, XV)                                                                                    \
    X(PGresult *, PQexecParams,                                                                                    \
      (PGconn * conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues,     \
       const int *paramLengths, const int *paramFormats, int resultFormat),                                        \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat))                 \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname),    \
      (keywords, values, expand_dbname))                                                                           \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn))                                                      \
    XV(PQfinish, (PGconn * conn), (conn))                                                                          \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn))                                                        \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn * conn, PQnoticeProcessor proc, void *arg),                 \
      (conn, proc, arg))                                                                                           \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res))                                                \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res))                                                  \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode))                          \
    X(int, PQntuples, (const PGresult *res), (res))                                                                \
    X(int, PQnfields, (const PGresult *res), (res))                                                                \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))           \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))             \
    X(char *, PQcmdTuples, (PGresult * res), (res))                                                                \
    XV(PQclear, (PGresult * res), (res))                                                                           \
    XV(PQfreemem, (void *ptr), (ptr))                                                                              \
    X(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg))              \
    XV(PQconninfoFree, (PQconninfoOption * connOptions), (connOptions))

/* One pointer per function, typed from the header's own declaration. */
#define DECLARE_POINTER(type, name, parameters, arguments) static __typeof__(name) *pointer_##name;
#define DECLARE_VOID_POINTER(name, parameters, arguments) static __typeof__(name) *pointer_##name;
CLIBPQ_FUNCTIONS(DECLARE_POINTER, DECLARE_VOID_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char failure[512] = "";

static void load_once(void) {
    void *library = dlopen(LIBPQ_SONAME, RTLD_LAZY | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s", reason ? reason : LIBPQ_SONAME ": cannot be opened");
        return;
    }
    const char *missing = NULL;
#define RESOLVE(type, name, parameters, arguments)                           \
    *(void **)&pointer_##name = dlsym(library, #name); /* POSIX's idiom */ \
    if (!pointer_##name && !missing) missing = #name;
#define RESOLVE_VOID(name, parameters, arguments) RESOLVE(void, name, parameters, arguments)
    CLIBPQ_FUNCTIONS(RESOLVE, RESOLVE_VOID)
#undef RESOLVE
#undef RESOLVE_VOID
    if (missing) {
        snprintf(failure, sizeof failure, LIBPQ_SONAME " has no symbol %s", missing);
        dlclose(library);
        return;
    }
    /* The handle stays open for the life of the process: connections and results may outlive any owner. */
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

int clibpq_load(char *message, size_t size) {
    pthread_once(&once, load_once);
    if (__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) return 0;
    if (message && size > 0) snprintf(message, size, "%s", failure);
    return -1;
}

const char *clibpq_soname(void) { return LIBPQ_SONAME; }

/* A call before a successful clibpq_load is a programming error in SubfixPostgres (connections load first):
 * report the loader's reason and stop rather than jump through a null pointer. */
static void require_loaded(const char *function) {
    char message[512];
    if (clibpq_load(message, sizeof message) == 0) return;
    fprintf(stderr, "subfix: fatal: %s called but libpq could not be loaded: %s\n", function, message);
    abort();
}

/* Hidden, as FFmpeg's trampolines are: libpq's own calls and another libpq user in the process must not bind to
 * them. */
#define TRAMPOLINE __attribute__((visibility("hidden")))
#define DEFINE_TRAMPOLINE(type, name, parameters, arguments)                   \
    TRAMPOLINE type name parameters {                                           \
        if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) require_loaded(#name); \
        return pointer_##name arguments;                                        \
    }
#define DEFINE_VOID_TRAMPOLINE(name, parameters, arguments)                    \
    TRAMPOLINE void name parameters {                                           \
        if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) require_loaded(#name); \
        pointer_##name arguments;                                               \
    }
CLIBPQ_FUNCTIONS(DEFINE_TRAMPOLINE, DEFINE_VOID_TRAMPOLINE)
