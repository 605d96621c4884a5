# `cuzk filecoin parent-cache` at 2 KiB. The digests and the file id are upstream's
# (rust-fil-proofs @ 87348a74 storage-proofs-porep/parent_cache.json): StackedDrg2KiBV1 (porep_id
# 0, API 1.0.0) and StackedDrg2KiBV1_1 (porep_id 5, API 1.1.0). Checks the default file name, --out,
# --digest-only, the --porep-id / --api-version overrides, and that bad inputs exit 2 (an
# unwritable file exits 1).
set(v1_id "v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899")
set(v1_sha "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d")
set(v11_sha "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97")
set(dir "${CMAKE_CURRENT_BINARY_DIR}/filecoin_parent_cache_smoke")
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}")

function(expect_ok pattern)
  execute_process(COMMAND ${CUZK} filecoin parent-cache ${ARGN} WORKING_DIRECTORY "${dir}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "${pattern}")
    message(FATAL_ERROR "parent-cache ${ARGN}: rc=${rc}\nout=${out}\nerr=${err}\nexpected ${pattern}")
  endif()
  message(STATUS "${out}")
endfunction()

function(expect_rc want)
  execute_process(COMMAND ${CUZK} filecoin parent-cache ${ARGN} WORKING_DIRECTORY "${dir}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL want OR err STREQUAL "")
    message(FATAL_ERROR "parent-cache ${ARGN}: want exit ${want} and a message, got rc=${rc} err=${err}")
  endif()
  message(STATUS "exit ${rc}: ${err}")
endfunction()

# Default: the v28 name in the current directory, 64 nodes × 56 bytes.
expect_ok("\"name\":\"${v1_id}.cache\".*\"nodes\":64.*\"sha256\":\"${v1_sha}\""
          --registered-proof StackedDrg2KiBV1 --threads 2)
file(SIZE "${dir}/${v1_id}.cache" size)
file(SHA256 "${dir}/${v1_id}.cache" sha)
if(NOT size EQUAL 3584 OR NOT sha STREQUAL v1_sha)
  message(FATAL_ERROR "${v1_id}.cache: ${size} bytes, SHA-256 ${sha}")
endif()
# --out, --digest-only, and the overrides that turn V1's graph into V1_1's.
expect_ok("\"path\":\"[^\"]*my.cache\".*\"sha256\":\"${v11_sha}\""
          --registered-proof StackedDrg2KiBV1_1 --out my.cache)
file(SHA256 "${dir}/my.cache" sha)
if(NOT sha STREQUAL v11_sha)
  message(FATAL_ERROR "my.cache: SHA-256 ${sha}")
endif()
expect_ok("\"path\":null.*\"sha256\":\"${v11_sha}\""
          --registered-proof StackedDrg2KiBV1_2_Feat_NonInteractivePoRep --digest-only
          --porep-id 0x0500000000000000000000000000000000000000000000000000000000000000)
expect_ok("\"sha256\":\"${v11_sha}\"" --registered-proof StackedDrg2KiBV1 --digest-only
          --porep-id 0500000000000000000000000000000000000000000000000000000000000000
          --api-version 1.1.0)

expect_rc(2 --registered-proof StackedDrg3KiBV1)
expect_rc(2 --registered-proof StackedDrg2KiBV1 --porep-id 05)
expect_rc(2 --registered-proof StackedDrg2KiBV1 --porep-id
          zz00000000000000000000000000000000000000000000000000000000000000)
expect_rc(2 --registered-proof StackedDrg2KiBV1 --api-version 1.3.0)
expect_rc(2 --registered-proof StackedDrg2KiBV1 --digest-only --out x.cache)
expect_rc(2 --porep-id 0500000000000000000000000000000000000000000000000000000000000000)
expect_rc(1 --registered-proof StackedDrg2KiBV1 --out "${dir}/no-such-dir/x.cache")
file(REMOVE_RECURSE "${dir}")
