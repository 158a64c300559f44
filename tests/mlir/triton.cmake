# triton.cmake: Triton's own TTIR of its tutorials, compiled by tilecc and run (cmake -P, from
# ctest mlir.triton).
#
#   cmake -DTILECC=... -DRUN=mlir_triton_run -DWORK=dir -DPYTHON=... -DKERNELS=dir -DSRC=dir -P triton.cmake
#
# The TTIR: TILECC_TRITON_TTIR=DIR in the environment, the NAME-cI.ttir (and .json) files that
# tests/mlir/triton_ttir.py (anywhere Triton is installed) or tests/gpu/tutorials.py (on the
# GPU machine, TUTORIALS_TTIR_OUT=DIR) wrote; otherwise the bench kernels' TTIR, written here
# by tests/mlir/triton_ttir.py with PYTHON (the Triton 3.6.0 environment that
# scripts/install-deps.sh makes) from KERNELS (signatures.tsv beside them). Without either the
# test says "skipped". The TTIR is Triton's output, so not part of this repository.
# Each .ttir is compiled for the host (NAME.so) and for sm_90 (NAME.ptx: that it compiles;
# the GPU run is tests/gpu/stage-ttir.sh's); then triton_run.c runs the cases whose kernels
# are there against float64 references. A file that does not compile fails the test.
cmake_policy(SET CMP0007 NEW)
set(dir "$ENV{TILECC_TRITON_TTIR}")
if(NOT dir)
  if(NOT EXISTS "${PYTHON}")
    message("mlir.triton: skipped (no Triton: scripts/install-deps.sh installs it, or set TILECC_TRITON_TTIR to a folder of Triton's TTIR)")
    return()
  endif()
  set(dir ${WORK}/ttir)
  file(REMOVE_RECURSE ${dir})
  execute_process(COMMAND ${PYTHON} ${SRC}/triton_ttir.py bench ${KERNELS} ${KERNELS}/signatures.tsv ${dir}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mlir.triton: Triton did not write the bench kernels' TTIR")
  endif()
endif()
if(NOT IS_DIRECTORY "${dir}")
  message("mlir.triton: skipped (${dir} is not a folder)")
  return()
endif()
file(GLOB files "${dir}/*.ttir")
if(NOT files)
  message("mlir.triton: skipped (no .ttir in ${dir})")
  return()
endif()
set(work ${WORK}/out)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})
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
    execute_process(COMMAND ${TILECC} ${f} ${t} --num-warps ${warps} -o ${work}/${out}
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message("FAIL ${name} -> ${out}:\n${err}")
      math(EXPR failed "${failed} + 1")
    endif()
  endforeach()
  if(EXISTS ${work}/${name}.so)
    list(APPEND sos ${work}/${name}.so)
  endif()
endforeach()
list(LENGTH files nfiles)
message("mlir.triton: ${nfiles} TTIR files, ${failed} compile failures")
execute_process(COMMAND ${RUN} ${sos} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR failed GREATER 0)
  message(FATAL_ERROR "mlir.triton failed")
endif()
