// 4-lane BLAKE2b for the Feistel rounds, compiled with -mavx2 (blake2b_lanes.inc).
#define CUZK_LANES 4
#define CUZK_LANES_FN blake2b512_16_word0_x4
#include "cuzk/filecoin/blake2b_lanes.inc"
