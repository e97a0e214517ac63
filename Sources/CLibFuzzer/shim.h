// libFuzzer's entry point for a program that has its own main (LLVM 11 and later): runs the fuzzing loop with
// argv's libFuzzer flags, calling `callback` once per input. Declared here because libFuzzer ships no header.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
