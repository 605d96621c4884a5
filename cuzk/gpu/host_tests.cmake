# The device arithmetic's algorithms run on the CPU through HostOps (ff/carry_ops.cuh): plain C++
# tests, built with or without a CUDA compiler (the top-level CMakeLists includes this file when
# the gpu module is skipped), so CI checks them too.
cuzk_test(gpu_mont_rows_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/ff/mont_rows_test.cpp LIBS cuzk_ff)
if(TARGET gpu_mont_rows_test)
  target_include_directories(gpu_mont_rows_test PRIVATE ${PROJECT_SOURCE_DIR})
endif()
# The NTT's pass programs (a CPU emulation of ntt_step_kernel) and its Fr product (fr_rows.cuh).
cuzk_test(gpu_ntt_program_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/ntt/ntt_program_test.cpp
          LIBS cuzk_poly)
if(TARGET gpu_ntt_program_test)
  target_include_directories(gpu_ntt_program_test PRIVATE ${PROJECT_SOURCE_DIR})
endif()
# The MSM accumulation's segment rule (msm/segment_rule.hpp).
cuzk_test(gpu_segment_rule_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/msm/segment_rule_test.cpp)
if(TARGET gpu_segment_rule_test)
  target_include_directories(gpu_segment_rule_test PRIVATE ${PROJECT_SOURCE_DIR})
endif()
