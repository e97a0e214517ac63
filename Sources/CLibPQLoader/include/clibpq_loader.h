#ifndef CLIBPQ_LOADER_H
#define CLIBPQ_LOADER_H
#include <stddef.h>

/* libpq is loaded on first use (dlopen), not at process start: it pulls in about 25 shared libraries (OpenSSL,
 * Kerberos, LDAP, GnuTLS, p11-kit) whose loading and initializers cost every subfix process about 11 ms before
 * main, although only commands given a postgresql:// URL call it. Every libpq function SubfixPostgres calls is
 * defined in loader.c under its own name; call clibpq_load first to turn a missing library into an error. */

/* Loads libpq once (thread-safe). Returns 0, or -1 with the dynamic loader's message in `message`. */
int clibpq_load(char *message, size_t size);

/* The soname of libpq this build was compiled for ("libpq.so.5"). */
const char *clibpq_soname(void);

#endif
