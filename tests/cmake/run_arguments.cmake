# run_arguments.cmake: the cmake.arguments test, run with `cmake -P`. Configures one small
# project per misuse of tilecc_add_kernel() and checks that configuring fails with the
# message that names the mistake.
#
# Variables: FUNCTIONS (cmake/TileCCFunctions.cmake), WORK_DIR, GENERATOR, C_COMPILER.
cmake_minimum_required(VERSION 3.20)

file(REMOVE_RECURSE "${WORK_DIR}")
set(failures 0)
set(n 0)

# expect_error(<languages> <regex> <call>): a project with those languages calls <call>
# after including TileCCFunctions.cmake; configuring must fail and print <regex>.
function(expect_error languages regex call)
  math(EXPR n "${n} + 1")
  set(n ${n} PARENT_SCOPE)
  set(dir "${WORK_DIR}/case${n}")
  file(WRITE "${dir}/k.py" "")
  file(WRITE "${dir}/CMakeLists.txt" "cmake_minimum_required(VERSION 3.20)
project(case${n} LANGUAGES ${languages})
include(\"${FUNCTIONS}\")
${call}
")
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${dir}" -B "${dir}/build" -G "${GENERATOR}"
                          -DCMAKE_C_COMPILER=${C_COMPILER}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  # CMake wraps long messages: compare with the white space folded.
  string(REGEX REPLACE "[ \n]+" " " flat "${err}")
  if(rc EQUAL 0 OR NOT flat MATCHES "${regex}")
    message(SEND_ERROR "case ${n}: ${call}\n  expected a configure error matching '${regex}', "
      "got exit ${rc}:\n${err}")
    math(EXPR failures "${failures} + 1")
    set(failures ${failures} PARENT_SCOPE)
  else()
    string(REGEX MATCH "tilecc_add_kernel\\([^)]*\\): .*" first "${flat}")
    string(REGEX REPLACE " *Call Stack.*" "" first "${first}")
    message(STATUS "case ${n}: ok: ${first}")
  endif()
endfunction()

set(ok [[SOURCE k.py KERNEL k SIGNATURE "*fp32, i32"]])
expect_error(NONE "KERNEL is required"
  [[tilecc_add_kernel(lib SOURCE k.py SIGNATURE "i32")]])
expect_error(NONE "SOURCE is required"
  [[tilecc_add_kernel(lib KERNEL k SIGNATURE "i32")]])
expect_error(NONE "SIGNATURE is required"
  [[tilecc_add_kernel(lib SOURCE k.py KERNEL k)]])
expect_error(NONE "SOURCE is given without a value"
  [[tilecc_add_kernel(lib SOURCE KERNEL k SIGNATURE "i32")]])
expect_error(NONE "unknown argument 'SOURCES'"
  [[tilecc_add_kernel(lib SOURCES k.py KERNEL k SIGNATURE "i32")]])
expect_error(NONE "CONSTANTS entry 'NUM_WARP' is not NAME=VALUE"
  "tilecc_add_kernel(lib ${ok} CONSTANTS BLOCK=64 NUM_WARP 4)")
expect_error(NONE "unknown entry 'sm_99' in TARGETS"
  "tilecc_add_kernel(lib ${ok} TARGETS x86-64 sm_99)")
expect_error(NONE "unknown entry 'gfx' in TARGETS"
  "tilecc_add_kernel(lib ${ok} TARGETS sm_90a gfx)")
expect_error(NONE "unknown entry 'cuda' in TARGETS"
  "tilecc_add_kernel(lib ${ok} TARGETS cuda)")
expect_error(NONE "NUM_WARPS must be a positive integer, not 'four'"
  "tilecc_add_kernel(lib ${ok} NUM_WARPS four)")
expect_error(NONE "OPTIONS entry 'STATIC_RUNTIM' looks like a keyword"
  "tilecc_add_kernel(lib ${ok} OPTIONS -O2 STATIC_RUNTIM)")
expect_error(NONE "KERNEL 'k-1' is not a Python identifier"
  [[tilecc_add_kernel(lib SOURCE k.py KERNEL k-1 SIGNATURE "i32")]])
expect_error(NONE "SOURCE 'nope.py' does not exist"
  [[tilecc_add_kernel(lib SOURCE nope.py KERNEL k SIGNATURE "i32")]])
expect_error(NONE "enable the C language"
  "tilecc_add_kernel(lib ${ok})")
expect_error(C "no target TileCC::tilecc; call find_package\\(TileCC\\) first"
  "tilecc_add_kernel(lib ${ok})")
# pre-generated sources: the directory must hold the library's folder, with the files
expect_error(C "TILECC_PREGENERATED_DIR has no lib/"
  "set(TILECC_PREGENERATED_DIR \"${WORK_DIR}/nowhere\")\ntilecc_add_kernel(lib ${ok})")
file(MAKE_DIRECTORY "${WORK_DIR}/pre/lib")
expect_error(C "no target TileCC::tilert; call find_package"
  "set(TILECC_PREGENERATED_DIR \"${WORK_DIR}/pre\")\ntilecc_add_kernel(lib ${ok})")

if(failures GREATER 0)
  message(FATAL_ERROR "cmake.arguments: ${failures} of ${n} cases failed")
endif()
message(STATUS "cmake.arguments: all ${n} cases gave the expected error")
