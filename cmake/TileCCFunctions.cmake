# TileCCFunctions.cmake: tilecc_add_kernel(), which compiles a Triton-language kernel with
# tilecc at build time and wraps the generated C in a static library (docs/cmake.md).
#
# Loaded by TileCCConfig.cmake for find_package(TileCC), and by tilecc's own top-level
# CMakeLists.txt, where TileCC::tilecc and TileCC::tilert are aliases of the in-tree targets.
#
#   tilecc_add_kernel(<target>
#     SOURCE <file.py> KERNEL <name> SIGNATURE "<sig>"
#     [CONSTANTS NAME=VALUE ...]        # -D NAME=VALUE, for tl.constexpr parameters
#     [TARGETS x86-64|riscv64|sm_80|sm_86|sm_89|sm_90|sm_90a|gfx...|dcu ...]
#                                       # --target; default: the machine being built for
#     [NUM_WARPS n] [NUM_STAGES n]
#     [TUNING <tuning file>]           # --tuning: a launcher over the tuned configs
#     [STATIC_RUNTIME]                  # link TileCC::tilert_static instead of TileCC::tilert
#     [OPTIONS <more tilecc flags> ...])
#
# The outputs go to ${CMAKE_CURRENT_BINARY_DIR}/tilecc/<target>/: <name>.h and <name>.c for
# the machine being built for (CMAKE_SYSTEM_PROCESSOR), <name>.<arch>.h/.c for each other
# CPU entry of TARGETS. Only the first pair is compiled into <target>; the others are
# generated with it, for a cross build to pick up. With GPU entries in TARGETS, <name>.h/.c
# is one launcher for every GPU target and the machine's CPU target when listed
# (tilecc --target=sm_90a,gfx942,x86-64), which picks the artifact at run time. Each pair
# is one custom command, its own build edge.
#
# TILECC_PREGENERATED_DIR (a cache variable): a directory holding, for each library
# target, the <target>/ folder another build generated (its tilecc/ directory, copied):
# the files are copied from there instead of running tilecc, so that a machine without
# tilecc (or LLVM) builds the same project. The staged <name>[.<arch>].args must match the
# arguments of this call, or the configure stops.
include_guard(GLOBAL)

set(TILECC_PREGENERATED_DIR "" CACHE PATH
  "Take tilecc_add_kernel()'s generated k.h/k.c from DIR/<target>/ instead of running tilecc")

# The CPU targets tilecc_add_kernel knows, as tilecc's --target spells them.
set(_TILECC_CPU_TARGETS x86-64 riscv64)
# The GPU targets: as tilecc takes them (its --target list), gfx names through LLVM.
set(_TILECC_GPU_TARGETS sm_80 sm_86 sm_89 sm_90 sm_90a dcu dcu-z100)
set(_TILECC_GPU_PATTERN "^gfx[0-9a-f]+$")

# The tilecc --target name of a CMAKE_SYSTEM_PROCESSOR value, or "" when tilecc has none.
function(_tilecc_target_of_processor processor out)
  string(TOLOWER "${processor}" p)
  if(p MATCHES "^(x86_64|amd64|x64)$")
    set(${out} x86-64 PARENT_SCOPE)
  elseif(p MATCHES "^riscv64")
    set(${out} riscv64 PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

function(tilecc_add_kernel target)
  set(where "tilecc_add_kernel(${target})")
  cmake_parse_arguments(PARSE_ARGV 1 arg "STATIC_RUNTIME"
    "SOURCE;KERNEL;SIGNATURE;NUM_WARPS;NUM_STAGES;TUNING" "CONSTANTS;TARGETS;OPTIONS")

  # Arguments. cmake_parse_arguments files an unknown keyword under the list keyword before
  # it, so the lists are checked entry by entry as well.
  if(arg_UNPARSED_ARGUMENTS)
    list(GET arg_UNPARSED_ARGUMENTS 0 bad)
    message(FATAL_ERROR "${where}: unknown argument '${bad}'; the keywords are SOURCE, KERNEL, "
      "SIGNATURE, CONSTANTS, TARGETS, NUM_WARPS, NUM_STAGES, TUNING, STATIC_RUNTIME and OPTIONS")
  endif()
  foreach(kw IN LISTS arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "${where}: ${kw} is given without a value")
  endforeach()
  foreach(kw SOURCE KERNEL SIGNATURE)
    if(NOT DEFINED arg_${kw} OR arg_${kw} STREQUAL "")
      message(FATAL_ERROR "${where}: ${kw} is required "
        "(tilecc_add_kernel(<target> SOURCE <file.py> KERNEL <name> SIGNATURE \"<sig>\" ...))")
    endif()
  endforeach()
  if(TARGET ${target})
    message(FATAL_ERROR "${where}: a target named '${target}' already exists")
  endif()
  if(NOT arg_KERNEL MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${where}: KERNEL '${arg_KERNEL}' is not a Python identifier")
  endif()
  foreach(kw NUM_WARPS NUM_STAGES)
    if(DEFINED arg_${kw} AND NOT arg_${kw} MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "${where}: ${kw} must be a positive integer, not '${arg_${kw}}'")
    endif()
  endforeach()
  foreach(c IN LISTS arg_CONSTANTS)
    if(NOT c MATCHES "^[A-Za-z_][A-Za-z0-9_]*=.+$")
      message(FATAL_ERROR "${where}: CONSTANTS entry '${c}' is not NAME=VALUE "
        "(or an unknown keyword)")
    endif()
  endforeach()
  string(JOIN ", " known ${_TILECC_CPU_TARGETS} ${_TILECC_GPU_TARGETS})
  set(gpu_targets "")
  set(cpu_targets "")
  foreach(t IN LISTS arg_TARGETS)
    if(t IN_LIST _TILECC_GPU_TARGETS OR t MATCHES "${_TILECC_GPU_PATTERN}")
      list(APPEND gpu_targets ${t})
    elseif(t IN_LIST _TILECC_CPU_TARGETS)
      list(APPEND cpu_targets ${t})
    else()
      message(FATAL_ERROR "${where}: unknown entry '${t}' in TARGETS; tilecc_add_kernel takes "
        "${known} and AMD gfx names (gfx90a, gfx942, ...)")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES gpu_targets)
  foreach(o IN LISTS arg_OPTIONS)
    if(o MATCHES "^[A-Z][A-Z_]+$")
      message(FATAL_ERROR "${where}: OPTIONS entry '${o}' looks like a keyword; "
        "tilecc_add_kernel knows SOURCE, KERNEL, SIGNATURE, CONSTANTS, TARGETS, NUM_WARPS, "
        "NUM_STAGES, TUNING and STATIC_RUNTIME, and these must come before OPTIONS")
    endif()
  endforeach()
  get_filename_component(source "${arg_SOURCE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_source_file_property(generated "${source}" GENERATED)
  if(NOT EXISTS "${source}" AND NOT generated)
    message(FATAL_ERROR "${where}: SOURCE '${arg_SOURCE}' does not exist (looked at ${source})")
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "C" IN_LIST languages)
    message(FATAL_ERROR "${where}: the generated kernel is C; enable the C language "
      "(project(... LANGUAGES C ...))")
  endif()
  set(pregenerated "")
  if(TILECC_PREGENERATED_DIR)
    get_filename_component(pregenerated "${TILECC_PREGENERATED_DIR}/${target}" ABSOLUTE
      BASE_DIR "${CMAKE_BINARY_DIR}")
    if(NOT IS_DIRECTORY "${pregenerated}")
      message(FATAL_ERROR "${where}: TILECC_PREGENERATED_DIR has no ${target}/ "
        "(looked at ${pregenerated})")
    endif()
    set(needed TileCC::tilert TileCC::tilert_static)
  else()
    set(needed TileCC::tilecc TileCC::tilert TileCC::tilert_static)
  endif()
  foreach(t IN LISTS needed)
    if(NOT TARGET ${t})
      message(FATAL_ERROR "${where}: no target ${t}; call find_package(TileCC) first")
    endif()
  endforeach()

  # Which targets to compile for, and which of them goes into the library: with TARGETS,
  # the one that matches CMAKE_SYSTEM_PROCESSOR; without, tilecc's default (the host), or
  # CMAKE_SYSTEM_PROCESSOR's target when cross-compiling.
  _tilecc_target_of_processor("${CMAKE_SYSTEM_PROCESSOR}" machine)
  set(targets ${cpu_targets})
  list(REMOVE_DUPLICATES targets)
  if(gpu_targets)
    # the launcher: the GPU targets and, when listed, the machine's CPU target
    set(multi ${gpu_targets})
    if(machine IN_LIST targets)
      list(APPEND multi ${machine})
      list(REMOVE_ITEM targets ${machine})
    endif()
    string(JOIN "," multi_list ${multi})
    set(machine "${multi_list}")
    list(PREPEND targets "${multi_list}")
  elseif(NOT targets)
    if(CMAKE_CROSSCOMPILING)
      if(NOT machine)
        message(FATAL_ERROR "${where}: tilecc has no CPU target for the machine being built "
          "for (CMAKE_SYSTEM_PROCESSOR '${CMAKE_SYSTEM_PROCESSOR}')")
      endif()
      set(targets ${machine})
    else()
      set(targets host)
      set(machine host)
    endif()
  elseif(NOT machine IN_LIST targets)
    message(FATAL_ERROR "${where}: none of TARGETS (${targets}) is the machine being built "
      "for (CMAKE_SYSTEM_PROCESSOR '${CMAKE_SYSTEM_PROCESSOR}'); the library needs that one")
  endif()

  set(common -k ${arg_KERNEL} -s ${arg_SIGNATURE})
  foreach(c IN LISTS arg_CONSTANTS)
    list(APPEND common -D ${c})
  endforeach()
  if(DEFINED arg_NUM_WARPS)
    list(APPEND common --num-warps ${arg_NUM_WARPS})
  endif()
  if(DEFINED arg_NUM_STAGES)
    list(APPEND common --num-stages ${arg_NUM_STAGES})
  endif()
  # A tuning file (tilecc --tuning, docs/abi.md "Autotuning"): the launcher dispatches on
  # its configs; editing the file regenerates the kernel.
  set(tuning_dep "")
  if(DEFINED arg_TUNING)
    get_filename_component(tuning "${arg_TUNING}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${tuning}")
      message(FATAL_ERROR "${where}: TUNING '${arg_TUNING}' does not exist (looked at ${tuning})")
    endif()
    list(APPEND common --tuning ${tuning})
    set(tuning_dep "${tuning}")
  endif()
  list(APPEND common ${arg_OPTIONS})

  # Inside tilecc's build the compiler is a real target: depend on it by name, so that it is
  # built first. An imported one is a file.
  if(NOT pregenerated)
    get_target_property(tilecc_real TileCC::tilecc ALIASED_TARGET)
    if(tilecc_real)
      set(tilecc_dep ${tilecc_real})
    else()
      set(tilecc_dep $<TARGET_FILE:TileCC::tilecc>)
    endif()
  endif()

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/tilecc/${target}")
  file(MAKE_DIRECTORY "${dir}")
  file(RELATIVE_PATH source_shown "${CMAKE_SOURCE_DIR}" "${source}")
  set(library_source "")
  set(other_outputs "")
  foreach(t IN LISTS targets)
    if(t STREQUAL machine)
      set(name "${arg_KERNEL}")
    else()
      set(name "${arg_KERNEL}.${t}")
    endif()
    set(stem "${dir}/${name}")
    set(cmd ${common})
    if(NOT t STREQUAL "host")
      list(APPEND cmd --target=${t})
    endif()
    # A Makefile build does not rerun a command whose arguments changed; this file changes
    # with them (and only then), and the command depends on it.
    string(REPLACE ";" " " shown "${cmd}")
    set(args_file "${stem}.args")
    file(CONFIGURE OUTPUT "${args_file}" CONTENT "${shown}\n" @ONLY)
    if(pregenerated)
      # the files another build generated with the same arguments
      set(pre "${pregenerated}/${name}")
      foreach(f "${pre}.h" "${pre}.c" "${pre}.args")
        if(NOT EXISTS "${f}")
          message(FATAL_ERROR "${where}: TILECC_PREGENERATED_DIR has no ${f}")
        endif()
      endforeach()
      file(READ "${pre}.args" staged_args)
      if(NOT staged_args STREQUAL "${shown}\n")
        message(FATAL_ERROR "${where}: ${pre}.h was generated with other arguments "
          "(${staged_args}) than this call's (${shown}); stage it again")
      endif()
      add_custom_command(
        OUTPUT "${stem}.h" "${stem}.c"
        COMMAND ${CMAKE_COMMAND} -E copy "${pre}.h" "${pre}.c" "${dir}"
        DEPENDS "${pre}.h" "${pre}.c" "${args_file}"
        COMMENT "tilecc: kernel ${arg_KERNEL} (${t}), pre-generated in ${pregenerated}"
        VERBATIM)
    else()
      add_custom_command(
        OUTPUT "${stem}.h" "${stem}.c"
        COMMAND TileCC::tilecc "${source}" ${cmd} -o "${stem}.h"
        DEPENDS "${source}" ${tilecc_dep} "${args_file}" ${tuning_dep}
        COMMENT "tilecc: kernel ${arg_KERNEL} (${t}) from ${source_shown}"
        VERBATIM)
    endif()
    if(t STREQUAL machine)
      set(library_source "${stem}.c" "${stem}.h")
    else()
      list(APPEND other_outputs "${stem}.h" "${stem}.c")
    endif()
  endforeach()

  # The other targets' files are listed as headers: generated with the library, not compiled.
  if(other_outputs)
    set_source_files_properties(${other_outputs} PROPERTIES HEADER_FILE_ONLY ON)
  endif()
  add_library(${target} STATIC ${library_source} ${other_outputs})
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${dir}>")
  if(arg_STATIC_RUNTIME)
    target_link_libraries(${target} PUBLIC TileCC::tilert_static)
  else()
    target_link_libraries(${target} PUBLIC TileCC::tilert)
  endif()
  # The generated C is C99 plus pthreads; PIC lets the library go into a shared object.
  target_compile_features(${target} PRIVATE c_std_99)
  set_target_properties(${target} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    TILECC_KERNEL "${arg_KERNEL}"
    TILECC_GENERATED_DIR "${dir}")
endfunction()
