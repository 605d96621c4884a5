# `cuzk filecoin seal` / `unseal` at 2 KiB. A patterned sector (node i = "abc…zABCDE" then the
# digit i mod 10: Fr32-valid since byte 31 is an ASCII digit < 0x40) is sealed into a directory and
# unsealed back byte for byte; its comm_d is the value Python's hashlib gives for the same bytes
# (binary SHA-256 tree, byte 31 &= 0x3f). Bad inputs exit 2; a sector.json whose comm_d disagrees
# with the unsealed data exits 1. With CUZK_FILECOIN_DATA set, the venus sector 0 replica is
# unsealed from its bare file and sealed again to the same bytes.
set(pattern_comm_d "d6242ce5f9c20cc9f170fe7c711afec6d5bebfd66181927cbad0bb64fae06418")
set(prover "6a00000000000000000000000000000000000000000000000000000000000000")
set(ticket "79ac3dd7defaad6d40e033a1c89124df3cbefdf072868b1924e562f0d4204189")
set(dir "${CMAKE_CURRENT_BINARY_DIR}/filecoin_seal_smoke")
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}")

set(data "")
foreach(i RANGE 63)
  math(EXPR d "${i} % 10")
  string(APPEND data "abcdefghijklmnopqrstuvwxyzABCDE${d}")
endforeach()
file(WRITE "${dir}/data.bin" "${data}")
file(READ "${dir}/data.bin" head LIMIT 2047)
file(WRITE "${dir}/short.bin" "${head}")
string(SUBSTRING "${data}" 0 31 first31)
string(SUBSTRING "${data}" 32 2016 rest)
file(WRITE "${dir}/high.bin" "${first31}z${rest}")  # node 0 byte 31 = 'z' (0x7a): ≥ r

function(run_cuzk)
  execute_process(COMMAND ${CUZK} filecoin ${ARGN} WORKING_DIRECTORY "${dir}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
  set(rc "${rc}" PARENT_SCOPE)
endfunction()

function(expect_ok pattern)
  run_cuzk(${ARGN})
  if(NOT rc EQUAL 0 OR NOT out MATCHES "${pattern}")
    message(FATAL_ERROR "${ARGN}: rc=${rc}\nout=${out}\nerr=${err}\nexpected ${pattern}")
  endif()
  message(STATUS "${out}")
endfunction()

function(expect_rc want)
  run_cuzk(${ARGN})
  if(NOT rc EQUAL want OR err STREQUAL "")
    message(FATAL_ERROR "${ARGN}: want exit ${want} and a message, got rc=${rc} err=${err}")
  endif()
  message(STATUS "exit ${rc}: ${err}")
endfunction()

set(seal_args --registered-proof StackedDrg2KiBV1_1 --prover-id ${prover} --sector-id 5
              --ticket ${ticket} --threads 2)
expect_ok("\"comm_d\":\"${pattern_comm_d}\".*\"comm_r\":\"[0-9a-f]+\".*\"replica_id\":\"[0-9a-f]+\""
          seal ${seal_args} --data data.bin --out sector)
foreach(f sector.json replica p_aux t_aux sc-02-data-layer-1.dat sc-02-data-layer-2.dat
          sc-02-data-tree-d.dat sc-02-data-tree-c.dat sc-02-data-tree-r-last.dat)
  if(NOT EXISTS "${dir}/sector/${f}")
    message(FATAL_ERROR "seal did not write sector/${f}")
  endif()
endforeach()
file(SIZE "${dir}/sector/replica" size)
if(NOT size EQUAL 2048)
  message(FATAL_ERROR "sector/replica has ${size} bytes")
endif()
expect_ok("\"comm_d\":\"${pattern_comm_d}\".*\"comm_d_checked\":true"
          unseal --sector sector --out unsealed.bin)
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${dir}/data.bin" "${dir}/unsealed.bin"
                RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "unsealed.bin differs from data.bin")
endif()

expect_rc(2 seal ${seal_args} --data short.bin --out bad)
expect_rc(2 seal ${seal_args} --data high.bin --out bad)
expect_rc(2 seal ${seal_args} --data missing.bin --out bad)
expect_rc(2 seal --registered-proof StackedDrg3KiBV1 --prover-id ${prover} --sector-id 5
          --ticket ${ticket} --data data.bin --out bad)
expect_rc(2 seal --registered-proof StackedDrg32GiBV1_1 --prover-id ${prover} --sector-id 5
          --ticket ${ticket} --data data.bin --out bad)
expect_rc(2 seal ${seal_args} --data data.bin --out bad --porep-id 05)
expect_rc(2 seal ${seal_args} --data data.bin --out bad --api-version 1.3.0)
expect_rc(2 seal --registered-proof StackedDrg2KiBV1 --prover-id zz --sector-id 5
          --ticket ${ticket} --data data.bin --out bad)
expect_rc(2 unseal --sector no-such-dir --out x.bin)
expect_rc(2 unseal --out x.bin)
if(EXISTS "${dir}/bad")
  message(FATAL_ERROR "a refused seal wrote its directory")
endif()
# A sector.json whose comm_d is not the unsealed data's: the check fails, nothing is written.
file(READ "${dir}/sector/sector.json" json)
string(REPLACE "\"comm_d\": \"${pattern_comm_d}\"" "\"comm_d\": \"${ticket}\"" json "${json}")
file(WRITE "${dir}/sector/sector.json" "${json}")
expect_rc(1 unseal --sector sector --out tampered.bin)
if(EXISTS "${dir}/tampered.bin")
  message(FATAL_ERROR "unseal wrote data that failed its comm_d check")
endif()

if(DEFINED ENV{CUZK_FILECOIN_DATA})
  # venus sector 0 (StackedDrg2KiBV1, API 1.0.0): replica_id and comm_d from
  # shared/filecoin/README.md and hashlib (see filecoin/seal_parts_test.cpp).
  set(venus "$ENV{CUZK_FILECOIN_DATA}/venus-2kib")
  set(comm_d "2d8cd21509618ffea50330291ea4a23523e1e3a5f74ceed0dd66bd327bf51a21")
  set(comm_r "6500105a4dd7673f82730262d8dcffe9edccd3cbceac7bd3c943696a09071257")
  expect_ok("\"comm_d\":\"${comm_d}\"" unseal --replica "${venus}/sealed/s-t0106-0"
            --registered-proof StackedDrg2KiBV1 --comm-d ${comm_d} --out venus0.bin
            --replica-id 61f89482291a9dd662e9232342fbe197fb999de622060bbe5284bf4e020fe012)
  expect_ok("\"comm_d\":\"${comm_d}\".*\"comm_r\":\"${comm_r}\""
            seal --registered-proof StackedDrg2KiBV1 --prover-id ${prover} --sector-id 0
            --ticket ${ticket} --data venus0.bin --out venus0)
  foreach(pair "sealed/s-t0106-0:replica" "cache/s-t0106-0/p_aux:p_aux"
               "cache/s-t0106-0/sc-02-data-tree-r-last.dat:sc-02-data-tree-r-last.dat")
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 theirs)
    list(GET pair 1 ours)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${venus}/${theirs}"
                    "${dir}/venus0/${ours}" RESULT_VARIABLE same)
    if(NOT same EQUAL 0)
      message(FATAL_ERROR "venus0/${ours} differs from venus-2kib/${theirs}")
    endif()
  endforeach()
  message(STATUS "venus sector 0: unsealed and sealed back to the same replica, p_aux, tree-r-last")
else()
  message(STATUS "CUZK_FILECOIN_DATA is unset: the venus part is skipped")
endif()
file(REMOVE_RECURSE "${dir}")
