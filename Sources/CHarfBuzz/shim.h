#ifndef CHARFBUZZ_SHIM_H
#define CHARFBUZZ_SHIM_H
/* HarfBuzz's face API and its subsetter (libharfbuzz-subset), used to cut fonts down to the characters a
   subtitle draws before they are embedded. */
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-subset.h>
#endif
