#ifndef CFONTCONFIG_SHIM_H
#define CFONTCONFIG_SHIM_H
#include <fontconfig/fontconfig.h>

/* FC_* property names are string macros; Swift imports them, but these keep the call sites short. */
static inline const char *cfontconfig_family(void) { return FC_FAMILY; }
static inline const char *cfontconfig_file(void) { return FC_FILE; }
#endif
