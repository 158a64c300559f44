# check_devmath_bitcode.cmake: the AMD GPU math library's bitcode is fit to link into kernels.
#   cmake -DBITCODE=devmath.bc -DLLVM_DIS=llvm-dis-19 -DLLC=llc-19 -DWORK_DIR=dir -P ...
# - llvm-dis lists the __tilecc_dm_* functions as defined (the fp64 ones and ilogb), and
#   declares nothing but intrinsics;
# - no target-cpu or target-features (they would tie it to one GPU), no "no-builtins" (LLVM
#   will not inline such a function into a kernel without it), no code object version;
# - llc compiles it for gfx906, gfx90a and gfx942, and the assembly has no call at all
#   (s_swappc_b64) and refers to no symbol it does not define.
set(functions exp exp2 log log2 sin cos tanh erf tan asin acos atan sinh cosh log1p expm1 log10
    exp10 cbrt erfinv pow atan2 fmod hypot)
set(failures 0)

macro(fail msg)
  message(SEND_ERROR "${msg}")
  math(EXPR failures "${failures} + 1")
endmacro()

file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND ${LLVM_DIS} ${BITCODE} -o ${WORK_DIR}/devmath.ll RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${LLVM_DIS} ${BITCODE} failed: ${err}")
endif()
file(READ ${WORK_DIR}/devmath.ll ir)

if(NOT ir MATCHES "target triple = \"amdgcn-amd-amdhsa\"")
  fail("devmath.bc is not for amdgcn-amd-amdhsa")
endif()
foreach(f ${functions})
  if(NOT ir MATCHES "\ndefine [^\n]*double @__tilecc_dm_${f}\\(double")
    fail("devmath.bc does not define __tilecc_dm_${f}")
  endif()
endforeach()
if(NOT ir MATCHES "\ndefine [^\n]*i32 @__tilecc_dm_ilogb\\(double")
  fail("devmath.bc does not define __tilecc_dm_ilogb")
endif()
list(APPEND functions ilogb)
string(REGEX MATCHALL "\ndeclare [^\n]*@[A-Za-z0-9_.]+\\(" decls "${ir}")
foreach(d ${decls})
  if(NOT d MATCHES "@llvm\\.")
    string(STRIP "${d}" d)
    fail("devmath.bc declares an external function: ${d}")
  endif()
endforeach()
foreach(attr "\"target-cpu\"" "\"target-features\"" "\"no-builtins\""
             "amdhsa_code_object_version")
  string(FIND "${ir}" "${attr}" at)
  if(NOT at EQUAL -1)
    fail("devmath.bc has ${attr}")
  endif()
endforeach()

foreach(cpu gfx906 gfx90a gfx942)
  set(asm ${WORK_DIR}/devmath-${cpu}.s)
  execute_process(COMMAND ${LLC} -mtriple=amdgcn-amd-amdhsa -mcpu=${cpu} ${BITCODE} -o ${asm}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    fail("llc -mcpu=${cpu} devmath.bc: exit ${rc}\n${err}")
    continue()
  endif()
  file(READ ${asm} text)
  string(FIND "${text}" "s_swappc" at)
  if(NOT at EQUAL -1)
    fail("devmath.bc for ${cpu} makes calls (s_swappc_b64)")
  endif()
  foreach(f ${functions})
    if(NOT text MATCHES "\n__tilecc_dm_${f}:")
      fail("no code for __tilecc_dm_${f} for ${cpu}")
    endif()
  endforeach()
  # Symbols used as sym@rel32@lo+4 and the like must be labels of this file.
  string(REGEX MATCHALL "[A-Za-z_.$][A-Za-z0-9_.$]*@(rel32|gotpcrel|abs32)" refs "${text}")
  list(REMOVE_DUPLICATES refs)
  foreach(ref ${refs})
    string(REGEX REPLACE "@.*" "" sym "${ref}")
    string(REPLACE "." "\\." pattern "${sym}")
    if(NOT text MATCHES "\n${pattern}:")
      fail("devmath.bc for ${cpu} refers to ${sym}, which it does not define")
    endif()
  endforeach()
endforeach()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} check(s) failed on ${BITCODE}")
endif()
list(LENGTH functions nfunctions)
message(STATUS "devmath.bc: ${nfunctions} functions, linkable, no calls on gfx906, gfx90a, gfx942")
