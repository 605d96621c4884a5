// 8-lane BLAKE2b for the Feistel rounds, compiled with -mavx512f (blake2b_lanes.inc).
#define CUZK_LANES 8
#define CUZK_LANES_FN blake2b512_16_word0_x8
#include "cuzk/filecoin/blake2b_lanes.inc"
