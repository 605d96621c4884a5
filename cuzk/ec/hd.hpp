// CUZK_HD marks functions compiled for both host and device: `__host__ __device__` under nvcc,
// nothing in a host compiler. The point formulas in affine/jacobian/xyzz.hpp carry it so the CUDA
// backend reuses them with its own field type.
#pragma once

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__
#else
#define CUZK_HD
#endif
