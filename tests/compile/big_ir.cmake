# big_ir.cmake: generates OPS ops of tile IR, compiles them to tile IR with the default
# pipeline and checks what came out: each of the generator's groups keeps exactly one
# load, one splat of its index and none of its planted identity, repeat or dead op.
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${PYTHON} ${GEN} ${OPS} OUTPUT_FILE ${WORK}/big.tir RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_ir.py failed: ${rc}")
endif()
execute_process(COMMAND ${TILECC} ${WORK}/big.tir --emit=tir -o ${WORK}/out.tir
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tilecc failed (${rc}): ${err}")
endif()
# the generator's group count, as gen_ir.py computes it
math(EXPR groups "(${OPS} - 8) / 11")
file(STRINGS ${WORK}/big.tir in_loads REGEX " = load ")
file(STRINGS ${WORK}/out.tir out_loads REGEX " = load ")
file(STRINGS ${WORK}/out.tir out_muli REGEX " = muli ")
file(STRINGS ${WORK}/out.tir out_addi REGEX " = addi [^:]*: i32$")
list(LENGTH in_loads nin)
list(LENGTH out_loads nload)
list(LENGTH out_muli nmuli)
list(LENGTH out_addi naddi)
if(NOT nin EQUAL groups OR NOT nload EQUAL groups)
  message(FATAL_ERROR "expected ${groups} loads in and out, got ${nin} and ${nload}")
endif()
# per group: a = base + k stays (d is its repeat: cse), z = a + 0 goes (canonicalize),
# one product m stays and the dead one goes (dce)
if(NOT nmuli EQUAL groups OR NOT naddi EQUAL groups)
  message(FATAL_ERROR "expected ${groups} muli and ${groups} scalar addi after the passes, "
                      "got ${nmuli} and ${naddi}")
endif()
message(STATUS "${OPS} ops: ${groups} groups, passes applied")
