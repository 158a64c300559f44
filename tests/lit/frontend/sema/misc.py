# The rest of the surface: 2-D grids and num_programs, zeros_like/full, tl.dot with acc,
# out_dtype and input_precision, every dtype through .to() (fp8 included), the assert
# statement, pass, and tl.where with a scalar condition.
# RUN: %tilecc %s -k misc -s "*fp16:16, *fp32:16, *i8:16, i32" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
import triton
import triton.language as tl


@triton.jit
def misc(a_ptr, c_ptr, q_ptr, n):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(axis=1)
    grid_n = tl.num_programs(1)
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    b = tl.load(a_ptr + 1024 + r[:, None] * 32 + r[None, :])
    acc = tl.zeros_like(a).to(tl.float32)
    acc = tl.dot(a, b, acc)
    d = tl.dot(a, b, out_dtype=tl.float16)
    f = acc.to(tl.float32)
    e = tl.dot(f, f, input_precision="ieee")
    g = tl.dot(f, f)
    q = tl.load(q_ptr + r[:, None] * 32 + r[None, :])
    qi = tl.dot(q, q)
    full = tl.full([32, 32], pid_m + pid_n * grid_n, tl.int32)
    x = f + e + g + d.to(tl.float32) + qi.to(tl.float32) + full.to(tl.float32)
    assert n > 0, "n must be positive"
    if n > 1000:
        pass
    x = x.to(tl.int1).to(tl.int8).to(tl.int16).to(tl.int32).to(tl.int64).to(tl.float32)
    x = x.to(tl.uint8).to(tl.uint16).to(tl.uint32).to(tl.uint64).to(tl.float64)
    x = x.to(tl.float8e4nv).to(tl.float8e5).to(tl.bfloat16).to(tl.float16).to(tl.float32)
    x = tl.where(n > 5, x, 0.0)
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], x)

# CHECK-LABEL: func @misc(
# CHECK: %pid_m = program_id {axis = 0} : i32
# CHECK-NEXT: %pid_n = program_id {axis = 1} : i32
# CHECK-NEXT: %grid_n = num_programs {axis = 1} : i32
# CHECK: %[[Z:.*]] = constant {value = 0.0} : tile<32x32xf16>
# CHECK-NEXT: %[[ACC0:acc]] = extf %[[Z]] : tile<32x32xf32>
# CHECK-NEXT: %acc_1 = dot %a, %b, %[[ACC0]] {input_precision = "ieee"} : tile<32x32xf32>
# CHECK: %d = dot %a, %b, %{{.*}} {input_precision = "ieee"} : tile<32x32xf16>
# fp32 inputs default to tf32 unless asked otherwise
# CHECK: %e = dot %acc_1, %acc_1, %{{.*}} {input_precision = "ieee"} : tile<32x32xf32>
# CHECK-NEXT: %g = dot %acc_1, %acc_1, %{{.*}} {input_precision = "tf32"} : tile<32x32xf32>
# int8 inputs accumulate in int32
# CHECK: %qi = dot %q, %q, %{{.*}} {input_precision = "ieee"} : tile<32x32xi32>
# CHECK: %[[POS:.*]] = cmpi %n, %{{.*}} {pred = "gt"} : i1
# CHECK-NEXT: assert %[[POS]] {msg = "n must be positive"}
# the empty runtime if disappears: it has no results and no effects
# CHECK-NOT: if
# CHECK: truncf %{{.*}} : tile<32x32xf8e4nv>
# CHECK: extf %{{.*}} : tile<32x32xf32>
# CHECK: truncf %{{.*}} : tile<32x32xf8e5>
# CHECK: select
