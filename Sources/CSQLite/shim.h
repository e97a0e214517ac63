#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT and SQLITE_STATIC are macros casting integers to function
   pointers, which Swift cannot import. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

/* sqlite3_config is variadic: expose the single-argument forms we need. */
static inline int csqlite_config_multithread(void) { return sqlite3_config(SQLITE_CONFIG_MULTITHREAD); }

/* sqlite3_config(SQLITE_CONFIG_LOG, callback, context) is variadic. SQLite accepts it only before it is
   initialized (the first connection opened), else it returns SQLITE_MISUSE. */
static inline int csqlite_config_log(void (*callback)(void *, int, const char *), void *context) {
    return sqlite3_config(SQLITE_CONFIG_LOG, callback, context);
}

/* sqlite3_db_config is variadic. */
static inline int csqlite_db_config_int(sqlite3 *db, int op, int value, int *out) {
    return sqlite3_db_config(db, op, value, out);
}
#endif
