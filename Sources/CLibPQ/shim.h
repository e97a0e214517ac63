#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
/* libpq's header from Debian's libpq-dev, found under the default include path (its own includes are relative). */
#include <postgresql/libpq-fe.h>
#endif
