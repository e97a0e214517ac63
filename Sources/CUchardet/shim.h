#ifndef CUCHARDET_SHIM_H
#define CUCHARDET_SHIM_H
#include <uchardet/uchardet.h>
#endif
