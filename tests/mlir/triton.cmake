# triton.cmake: Triton's own TTIR of its tutorials, compiled by tilecc and run (cmake -P, from
# ctest mlir.triton).
#
#   cmake -DTILECC=... -DRUN=mlir_triton_run -DWORK=dir -P triton.cmake
#
# The TTIR comes from the environment: TILECC_TRITON_TTIR=DIR, the NAME-cI.ttir (and .json)
# files that tests/gpu/tutorials.py writes on the GPU machine with TUTORIALS_TTIR_OUT=DIR
# (Triton's output, so not part of this repository). Without it the test says "skipped".
# Each NAME-cI.ttir is compiled for the host (NAME-cI.so) and for sm_90 (NAME-cI.ptx: that it
# compiles; the GPU run is tests/gpu/stage-ttir.sh's); then triton_run.c runs the cases whose
# kernels are there against float64 references. A file that does not compile fails the test.
cmake_policy(SET CMP0007 NEW)
set(dir "$ENV{TILECC_TRITON_TTIR}")
if(NOT dir OR NOT IS_DIRECTORY "${dir}")
  message("mlir.triton: skipped (set TILECC_TRITON_TTIR to a folder of Triton's TTIR: tests/gpu/tutorials.py)")
  return()
endif()
file(GLOB files "${dir}/*.ttir")
if(NOT files)
  message("mlir.triton: skipped (no .ttir in ${dir})")
  return()
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(sos)
set(failed 0)
foreach(f IN LISTS files)
  get_filename_component(name ${f} NAME_WE)
  set(warps 4)
  if(EXISTS "${dir}/${name}.json")
    file(READ "${dir}/${name}.json" meta)
    string(REGEX MATCH "\"num_warps\": *([0-9]+)" m "${meta}")
    if(m)
      set(warps ${CMAKE_MATCH_1})
    endif()
  endif()
  foreach(out ${name}.so ${name}.ptx)
    set(t)
    if(out MATCHES "ptx$")
      set(t --target=sm_90)
    endif()
    execute_process(COMMAND ${TILECC} ${f} ${t} --num-warps ${warps} -o ${WORK}/${out}
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message("FAIL ${name} -> ${out}:\n${err}")
      math(EXPR failed "${failed} + 1")
    endif()
  endforeach()
  if(EXISTS ${WORK}/${name}.so)
    list(APPEND sos ${WORK}/${name}.so)
  endif()
endforeach()
list(LENGTH files nfiles)
message("mlir.triton: ${nfiles} TTIR files, ${failed} compile failures")
execute_process(COMMAND ${RUN} ${sos} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR failed GREATER 0)
  message(FATAL_ERROR "mlir.triton failed")
endif()
