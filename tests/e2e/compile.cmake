# compile.cmake: compiles one e2e kernel variant with tilecc (cmake -P, from an
# add_custom_command in CMakeLists.txt).
#
#   cmake -DTILECC=... -DSRC=k.py -DKERNEL=name -DSIG="..." [-DDEFS="X=1|Y=2"]
#         [-DTARGET=riscv64|sm_90|gfx90a]   (DEFS may hold num_warps=N: --num-warps N) [-DMETA=k.meta] [-DHUGE=1] [-DREBASE=1]
#         [-DFLAGS="--opt ..."] -DOUT=k.so -P compile.cmake
#
# With META, the launch metadata tilecc prints (--print-metadata) goes into that file. With
# HUGE, every function takes the reduced LLVM pipeline of huge functions (TILECC_HUGE_FUNC=1).
# With REBASE, the tile passes are the default ones and AMD's loop rewrites, rebase-pointers
# and prefetch, which the default pipeline of x86-64 leaves out
# (--passes=canonicalize,cse,dce,rebase-pointers,prefetch).
#
# A kernel that tilecc rejects must not stop the build of the other tests: the failure is
# written into OUT itself, after the line "TILECC-FAILED", and the harness that loads OUT
# prints it and fails that case. The diagnostics also go to the build log.
set(args ${SRC} -k ${KERNEL} -s ${SIG} -o ${OUT})
if(DEFS)
  string(REPLACE "|" ";" defs "${DEFS}")
  foreach(d ${defs})
    if(d MATCHES "^num_warps=(.*)$")
      list(APPEND args --num-warps ${CMAKE_MATCH_1})
    else()
      list(APPEND args -D ${d})
    endif()
  endforeach()
endif()
if(TARGET)
  list(APPEND args --target=${TARGET})
endif()
if(FLAGS) # more options (the cubins' E2E_GPU_FLAGS)
  separate_arguments(flags UNIX_COMMAND "${FLAGS}")
  list(APPEND args ${flags})
endif()
if(META)
  list(APPEND args --print-metadata)
  file(REMOVE ${META})
endif()
if(HUGE)
  set(ENV{TILECC_HUGE_FUNC} 1)
endif()
if(REBASE)
  list(APPEND args --passes=canonicalize,cse,dce,rebase-pointers,prefetch)
endif()
file(REMOVE ${OUT})
execute_process(COMMAND ${TILECC} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS ${OUT})
  string(REPLACE ";" " " cmd "${args}")
  message(WARNING "e2e: tilecc failed (${rc}) on ${SRC} -k ${KERNEL}:\n${out}${err}")
  file(WRITE ${OUT} "TILECC-FAILED\ntilecc ${cmd}\nexit status: ${rc}\n${out}${err}")
endif()
if(META AND rc EQUAL 0)
  file(WRITE ${META} "${err}")
endif()
