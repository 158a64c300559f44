# run_example.cmake: the cmake.example test, run with `cmake -P`. Installs the tilecc build
# in TILECC_BUILD_DIR into a scratch prefix, then builds examples/cmake against it as any
# other project would (find_package(TileCC) through CMAKE_PREFIX_PATH) and runs it. Then the
# same for a project that asks for several TARGETS. Any failing step stops the test with
# that step's command and output.
#
# Variables: TILECC_BUILD_DIR, EXAMPLE_DIR, GPU_EXAMPLE_DIR and SOURCE_DIR (examples/gpu and
# the checkout, for step 3), WORK_DIR, GENERATOR, C_COMPILER, PROCESSOR (the
# build's CMAKE_SYSTEM_PROCESSOR), CONFIG (may be empty), C_FLAGS and LINK_FLAGS (the
# sanitizer flags in a sanitizer build, else empty).
cmake_minimum_required(VERSION 3.20)

foreach(v TILECC_BUILD_DIR EXAMPLE_DIR WORK_DIR GENERATOR C_COMPILER)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "run_example.cmake: -D${v}=... is required")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG RelWithDebInfo)
endif()

# Runs one step; on failure prints what ran and everything it said, and stops.
function(step name)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "cmake.example: ${name}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake.example: step '${name}' failed (${rc})\n"
      "command: ${shown}\n--- stdout ---\n${out}\n--- stderr ---\n${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

step("install tilecc into ${prefix}"
  ${CMAKE_COMMAND} --install "${TILECC_BUILD_DIR}" --prefix "${prefix}" --config ${CONFIG})

# What every project configured below gets: the scratch prefix only (no user package
# registry, so another tilecc on this machine is never picked up) and, in a sanitizer build,
# the sanitizer flags libtilert was built with.
set(configure_args -G "${GENERATOR}" -DCMAKE_C_COMPILER=${C_COMPILER}
  -DCMAKE_BUILD_TYPE=${CONFIG} -DCMAKE_PREFIX_PATH=${prefix}
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF "-DCMAKE_C_FLAGS=${C_FLAGS}"
  "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}")

# The executable a build produced, for single- and multi-config generators alike.
function(find_program_built dir name out)
  foreach(p "${dir}/${name}" "${dir}/${CONFIG}/${name}")
    if(EXISTS "${p}")
      set(${out} "${p}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "cmake.example: the build made no ${name} in ${dir}")
endfunction()

# 1. examples/cmake, unchanged.
set(build "${WORK_DIR}/example")
step("configure examples/cmake" ${CMAKE_COMMAND} -S "${EXAMPLE_DIR}" -B "${build}"
  ${configure_args})
file(STRINGS "${build}/CMakeCache.txt" found REGEX "^TileCC_DIR:")
string(FIND "${found}" "=${prefix}/" at)
if(at EQUAL -1)
  message(FATAL_ERROR "cmake.example: find_package(TileCC) did not take the scratch prefix: "
    "${found}")
endif()
step("build examples/cmake" ${CMAKE_COMMAND} --build "${build}" --config ${CONFIG})
find_program_built("${build}" tilecc_example exe)
step("run ${exe}" "${exe}")
message(STATUS "${step_output}")
foreach(line "vadd: OK" "softmax: OK")
  if(NOT step_output MATCHES "${line}")
    message(FATAL_ERROR "cmake.example: the example did not print '${line}':\n${step_output}")
  endif()
endforeach()

# 2. TARGETS with two CPU targets: both artifacts are generated, the one for this machine
# goes into the library, and the program still runs. The signature has ':?' entries, so
# each target's launcher holds specialization variants (docs/abi.md, "Specialization
# variants"): the program checks the variant each launch ran and its result.
if(PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(here x86-64)
  set(other riscv64)
elseif(PROCESSOR MATCHES "^riscv64")
  set(here riscv64)
  set(other x86-64)
else()
  message(STATUS "cmake.example: no CPU target for '${PROCESSOR}'; "
    "the TARGETS check is skipped")
  return()
endif()
set(src "${WORK_DIR}/multi-src")
file(WRITE "${src}/CMakeLists.txt" "
cmake_minimum_required(VERSION 3.20)
project(tilecc_multi LANGUAGES C)
find_package(TileCC 0.1 REQUIRED)
tilecc_add_kernel(vadd_kernel SOURCE \"${EXAMPLE_DIR}/vadd.py\" KERNEL vadd
  SIGNATURE \"*fp32:?, *fp32:16, *fp32:?, i32:?, 1024\" TARGETS ${other} ${here}
  STATIC_RUNTIME)
add_executable(multi main.c)
target_link_libraries(multi PRIVATE vadd_kernel)
")
file(WRITE "${src}/main.c" [=[
#include <stdio.h>
#include <string.h>
#include "vadd.h"
static _Alignas(64) float x[3100], y[3100], z[3100];
/* z = x + y for n elements from x + xo and z + zo; the variant must be want */
static int run(int xo, int zo, int n, const char *want)
{
	for (int i = 0; i < 3100; i++)
		x[i] = (float)i, y[i] = 0.5f, z[i] = -1.0f;
	int rc = vadd_launch(NULL, (tilert_grid){(uint32_t)(n + 1023) / 1024, 1, 1}, x + xo, y,
			     z + zo, n);
	const char *v = vadd_last_variant();
	if (rc != TILERT_OK || !v || strcmp(v, want)) {
		printf("multi: n=%d: rc %d, ran '%s', want '%s'\n", n, rc, v ? v : "", want);
		return 1;
	}
	for (int i = 0; i < 3100; i++) {
		float w = i >= zo && i < zo + n ? (float)(i - zo + xo) + 0.5f : -1.0f;
		if (z[i] != w) {
			printf("multi: n=%d: z[%d] = %g, want %g\n", n, i, z[i], w);
			return 1;
		}
	}
	return 0;
}
int main(void)
{
	int bad = run(0, 0, 3000, "*fp32:16, *fp32:16, *fp32:16, i32, 1024");
	bad |= run(1, 0, 2992, "*fp32, *fp32:16, *fp32:16, i32:16, 1024");
	bad |= run(0, 3, 1, "*fp32:16, *fp32:16, *fp32, i32:1, 1024");
	bad |= run(5, 7, 1001, "*fp32, *fp32:16, *fp32, i32, 1024");
	if (vadd_num_specs != 12) {
		printf("multi: %zu variants, want 12\n", vadd_num_specs);
		bad = 1;
	}
	if (!bad)
		printf("multi: OK (%zu variants)\n", vadd_num_specs);
	return bad;
}
]=])
set(build "${WORK_DIR}/multi")
step("configure a project with TARGETS ${other} ${here}" ${CMAKE_COMMAND} -S "${src}"
  -B "${build}" ${configure_args})
step("build it" ${CMAKE_COMMAND} --build "${build}" --config ${CONFIG})
foreach(f vadd.h vadd.c vadd.${other}.h vadd.${other}.c)
  if(NOT EXISTS "${build}/tilecc/vadd_kernel/${f}")
    message(FATAL_ERROR "cmake.example: TARGETS ${other} ${here} made no ${f}")
  endif()
endforeach()
file(STRINGS "${build}/tilecc/vadd_kernel/vadd.${other}.h" h LIMIT_COUNT 1)
if(NOT h MATCHES "for ${other}")
  message(FATAL_ERROR "cmake.example: vadd.${other}.h is not for ${other}: ${h}")
endif()
file(STRINGS "${build}/tilecc/vadd_kernel/vadd.${other}.h" h LIMIT_COUNT 1)
if(NOT h MATCHES "12 specialization variants")
  message(FATAL_ERROR "cmake.example: vadd.${other}.h has no specialization variants: ${h}")
endif()
find_program_built("${build}" multi exe)
step("run ${exe}" "${exe}")
message(STATUS "${step_output}")
if(NOT step_output MATCHES "multi: OK \\(12 variants\\)")
  message(FATAL_ERROR "cmake.example: the ':?' launcher did not run as expected:\n${step_output}")
endif()

# 3. examples/gpu (GPU_EXAMPLE_DIR): each kernel one launcher for sm_90a, sm_80, gfx942 and
# x86-64; here, without a GPU, the x86-64 artifacts run (and again with the CPU forced).
# Then the same project built the way a machine without tilecc builds it (the H200's
# tests/gpu/aot.sh): libtilert from the checkout (SOURCE_DIR), the kernels' sources taken
# from the first build's tilecc/ directory through TILECC_PREGENERATED_DIR.
if(NOT here STREQUAL "x86-64" OR NOT GPU_EXAMPLE_DIR)
  return()
endif()
find_program(ptxas ptxas HINTS /usr/local/cuda/bin)
if(NOT ptxas AND NOT DEFINED ENV{TILECC_PTXAS})
  message(STATUS "cmake.example: no ptxas; examples/gpu (cubins) is skipped")
  return()
endif()
set(build "${WORK_DIR}/gpu")
step("configure examples/gpu" ${CMAKE_COMMAND} -S "${GPU_EXAMPLE_DIR}" -B "${build}"
  ${configure_args})
step("build examples/gpu" ${CMAKE_COMMAND} --build "${build}" --config ${CONFIG})
file(STRINGS "${build}/tilecc/matmul_kernel/matmul.h" h LIMIT_COUNT 1)
if(NOT h MATCHES "for sm_90a, sm_80, gfx942, x86-64")
  message(FATAL_ERROR "cmake.example: matmul.h is not for the four targets: ${h}")
endif()
find_program_built("${build}" tilecc_gpu_example exe)
foreach(force 0 1)
  step("run ${exe} (TILERT_FORCE_CPU=${force})" ${CMAKE_COMMAND} -E env
    TILERT_FORCE_CPU=${force} EXPECT_VARIANT=x86-64 "${exe}")
  message(STATUS "${step_output}")
  foreach(line "vadd: x86-64" "matmul: OK \\(197 x 131 x 77\\)" "tilecc_gpu_example: all OK")
    if(NOT step_output MATCHES "${line}")
      message(FATAL_ERROR "cmake.example: examples/gpu did not print '${line}':\n${step_output}")
    endif()
  endforeach()
endforeach()

set(pre_build "${WORK_DIR}/gpu-pregenerated")
step("configure examples/gpu with TILECC_PREGENERATED_DIR" ${CMAKE_COMMAND}
  -S "${GPU_EXAMPLE_DIR}" -B "${pre_build}" ${configure_args} -DTILECC_SOURCE_DIR=${SOURCE_DIR}
  -DTILECC_PREGENERATED_DIR=${build}/tilecc)
step("build it" ${CMAKE_COMMAND} --build "${pre_build}" --config ${CONFIG} --verbose)
if(step_output MATCHES "tilecc: kernel [a-z]+ \\([^)]*\\) from")
  message(FATAL_ERROR "cmake.example: the pre-generated build ran tilecc:\n${step_output}")
endif()
foreach(k vadd softmax matmul)
  file(SHA256 "${build}/tilecc/${k}_kernel/${k}.c" a)
  file(SHA256 "${pre_build}/tilecc/${k}_kernel/${k}.c" b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "cmake.example: the pre-generated ${k}.c is not the staged one")
  endif()
endforeach()
find_program_built("${pre_build}" tilecc_gpu_example exe)
step("run ${exe}" ${CMAKE_COMMAND} -E env EXPECT_VARIANT=x86-64 "${exe}")
message(STATUS "${step_output}")
if(NOT step_output MATCHES "tilecc_gpu_example: all OK")
  message(FATAL_ERROR "cmake.example: the pre-generated examples/gpu failed:\n${step_output}")
endif()
