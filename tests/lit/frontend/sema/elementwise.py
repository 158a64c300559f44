# Element-wise arithmetic in every dtype family with Triton's promotion rules.
# RUN: %tilecc %s -k promote -s "*fp16, *bf16, *fp32, *i8, *i32, *u32, *i64, *fp64, i32, 64" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: FileCheck %s --check-prefix=FOLD --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
import triton
import triton.language as tl


@triton.jit
def promote(h_ptr, b_ptr, f_ptr, c_ptr, i_ptr, u_ptr, l_ptr, d_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    h = tl.load(h_ptr + offs)
    b = tl.load(b_ptr + offs)
    f = tl.load(f_ptr + offs)
    c = tl.load(c_ptr + offs)
    i = tl.load(i_ptr + offs)
    u = tl.load(u_ptr + offs)
    l = tl.load(l_ptr + offs)
    d = tl.load(d_ptr + offs)
    # a Python float does not widen fp16 or bf16
    tl.store(h_ptr + offs, h * 2.0 + 1)
    tl.store(b_ptr + offs, b - 0.5)
    # fp16 / fp16 and fp16 % fp16 compute in fp32
    tl.store(f_ptr + offs, h / h)
    tl.store(f_ptr + offs, h % h)
    # fp16 wins over bf16 (Triton checks fp16 first); fp32 with fp64 meets in fp64
    tl.store(f_ptr + offs, h + b)
    tl.store(d_ptr + offs, f * d)
    # int8 + int32 -> int32; int32 + uint32 -> uint32; int32 * int64 -> int64
    tl.store(i_ptr + offs, c + i)
    tl.store(u_ptr + offs, i + u)
    tl.store(l_ptr + offs, i * l)
    # int / int -> fp32 true division; // and % truncate (C semantics on tensors)
    tl.store(f_ptr + offs, i / n)
    tl.store(i_ptr + offs, i // 3 + i % n)
    # a runtime i32 scalar is strongly typed: fp16 * i32 scalar -> fp16 (float wins)
    tl.store(h_ptr + offs, h * n)
    # Python int with int8 tensor keeps int8
    tl.store(c_ptr + offs, c + 1)
    # bitwise and shifts
    tl.store(i_ptr + offs, (i & 0xff) | (i ^ n) << 2 >> 1)
    # unary
    tl.store(f_ptr + offs, -f + (+f))
    tl.store(i_ptr + offs, ~i)
    # comparisons give int1, used as a mask
    m = (i < n) & (f >= 0.0) | ~(u == 7)
    tl.store(f_ptr + offs, f, mask=m)
    # casts, including bf16 <-> fp16 through fp32 and bitcast
    tl.store(h_ptr + offs, b.to(tl.float16))
    tl.store(i_ptr + offs, f.to(tl.int32, bitcast=True))
    tl.store(u_ptr + offs, f.to(tl.uint32))
    tl.store(c_ptr + offs, (f > 0).to(tl.int8))
    # constexpr arithmetic folds with Python semantics: -7 // 2 == -4 at compile time
    tl.store(i_ptr + offs, i + (-7 // 2) + (-7 % 2) + BLOCK ** 2 // 1024)

# CHECK-LABEL: func @promote(
# h * 2.0 + 1 stays fp16; b - 0.5 stays bf16
# CHECK: %[[TWO:.*]] = constant {value = 2.0} : tile<64xf16>
# CHECK-NEXT: mulf %h, %[[TWO]] : tile<64xf16>
# CHECK: constant {value = 1.0} : tile<64xf16>
# CHECK: %[[HALF:.*]] = constant {value = 0.5} : tile<64xbf16>
# CHECK-NEXT: subf %b, %[[HALF]] : tile<64xbf16>
# h / h and h % h in fp32
# CHECK: %[[H32:.*]] = extf %h : tile<64xf32>
# CHECK-NEXT: divf %[[H32]], %[[H32]] : tile<64xf32>
# CHECK: remf %[[H32]], %[[H32]] : tile<64xf32>
# h + b: bf16 is converted to fp16 (through fp32)
# CHECK: %[[B32:.*]] = extf %b : tile<64xf32>
# CHECK-NEXT: %[[B16:.*]] = truncf %[[B32]] : tile<64xf16>
# CHECK-NEXT: addf %h, %[[B16]] : tile<64xf16>
# CHECK: %[[F64:.*]] = extf %f : tile<64xf64>
# CHECK-NEXT: mulf %[[F64]], %d : tile<64xf64>
# CHECK: %[[C32:.*]] = exti %c : tile<64xi32>
# CHECK-NEXT: addi %[[C32]], %i : tile<64xi32>
# CHECK: %[[IU:.*]] = bitcast %i : tile<64xu32>
# CHECK-NEXT: addi %[[IU]], %u : tile<64xu32>
# CHECK: %[[I64:.*]] = exti %i : tile<64xi64>
# CHECK-NEXT: muli %[[I64]], %l : tile<64xi64>
# i / n: both to fp32
# CHECK: %[[NS:.*]] = splat %n : tile<64xi32>
# CHECK-NEXT: %[[IF:.*]] = itof %i : tile<64xf32>
# CHECK-NEXT: %[[NF:.*]] = itof %[[NS]] : tile<64xf32>
# CHECK-NEXT: divf %[[IF]], %[[NF]] : tile<64xf32>
# CHECK: divi %i, %{{.*}} : tile<64xi32>
# CHECK: remi %i, %{{.*}} : tile<64xi32>
# h * n: the runtime int32 scalar converts to fp16
# CHECK: %[[N16:.*]] = itof %n : f16
# CHECK: %[[ONE8:.*]] = constant {value = 1} : tile<64xi8>
# CHECK-NEXT: addi %c, %[[ONE8]] : tile<64xi8>
# CHECK: constant {value = 255} : tile<64xi32>
# CHECK: andi
# CHECK: xori %i
# CHECK: shli
# CHECK: shri
# CHECK: ori
# -f is 0 - f, as in Triton
# CHECK: %[[Z:.*]] = constant {value = 0.0} : tile<64xf32>
# CHECK-NEXT: subf %[[Z]], %f : tile<64xf32>
# CHECK: %[[ALL:.*]] = constant {value = -1} : tile<64xi32>
# CHECK-NEXT: xori %i, %[[ALL]] : tile<64xi32>
# CHECK: cmpi %i, %{{.*}} {pred = "lt"} : tile<64xi1>
# CHECK: cmpf %f, %{{.*}} {pred = "oge"} : tile<64xi1>
# CHECK: cmpi %u, %{{.*}} {pred = "eq"} : tile<64xi1>
# CHECK: %m = ori
# CHECK: store %{{.*}}, %f, %m
# CHECK: bitcast %f : tile<64xi32>
# CHECK: ftoi %f : tile<64xu32>
# CHECK: %[[GT:.*]] = cmpf %f, %{{.*}} {pred = "ogt"} : tile<64xi1>
# CHECK-NEXT: exti %[[GT]] : tile<64xi8>
# constexpr folding: -7 // 2 == -4, -7 % 2 == 1, 64 ** 2 // 1024 == 4, and the canonicalizer
# sums the three constants of i + -4 + 1 + 4 into one: 1 (C's truncating -7 / 2 == -3 and
# -7 % 2 == -1 would give 0, which folds away)
# FOLD: %[[ONE:.*]] = constant {value = 1} : tile<64xi32>
# FOLD: addi %i, %[[ONE]] : tile<64xi32>
