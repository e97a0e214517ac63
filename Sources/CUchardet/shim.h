#ifndef CUCHARDET_SHIM_H
#define CUCHARDET_SHIM_H
#include <uchardet.h>
#endif
