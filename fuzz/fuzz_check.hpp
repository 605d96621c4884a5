// FUZZ_CHECK: a property a fuzz target asserts beyond "no crash" (a round trip, a bound); on
// failure it prints the condition and aborts, which libFuzzer and the replay driver report.
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                                  \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (0)
