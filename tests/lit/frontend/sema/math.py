# Math functions (tl.* and tl.math.*), fma, sigmoid, umulhi, clamp, where, maximum/minimum,
# abs on ints and floats, floor/ceil, and Python/`math` builtins on constexprs.
# RUN: %tilecc %s -k mathk -s "*fp32:16, *i32:16, *u32:16, fp32, 128" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
import math
import triton
import triton.language as tl


@triton.jit
def mathk(x_ptr, i_ptr, u_ptr, alpha, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    i = tl.load(i_ptr + offs)
    u = tl.load(u_ptr + offs)
    y = tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.log2(x) + tl.sqrt(x) + tl.rsqrt(x)
    y += tl.sin(x) + tl.cos(x) + tl.abs(x) + tl.floor(x) + tl.ceil(x)
    y += tl.math.exp2(x) + tl.math.sqrt(x) + tl.math.erf(x)
    y += tl.fma(x, alpha, 1.0) + tl.sigmoid(x)
    y = tl.clamp(y, -1.0, 1.0)
    y = tl.where(x > 0, y, 0.0)
    y = tl.maximum(y, x) + tl.minimum(y, alpha)
    y = y * math.pi + float("inf") * 0.0 + min(BLOCK, 64) + max(1, 2, 3)
    y = y + triton.cdiv(BLOCK, 48) + tl.cdiv(BLOCK, 3) + triton.next_power_of_2(100)
    tl.store(x_ptr + offs, y)
    tl.store(i_ptr + offs, tl.abs(i) + tl.maximum(i, 0))
    tl.store(u_ptr + offs, tl.umulhi(u, u) + tl.abs(u))

# CHECK-LABEL: func @mathk(
# CHECK: exp %x : tile<128xf32>
# CHECK: exp2 %x
# CHECK: log %x
# CHECK: log2 %x
# CHECK: sqrt %x
# CHECK: rsqrt %x
# CHECK: sin %x
# CHECK: cos %x
# CHECK: absf %x
# CHECK: floor %x
# CHECK: ceil %x
# CHECK: erf %x
# CHECK: fma %x, %{{.*}}, %{{.*}} : tile<128xf32>
# sigmoid is 1 / (1 + exp(-x))
# CHECK: %[[NEG:.*]] = subf %{{.*}}, %x : tile<128xf32>
# CHECK-NEXT: %[[E:.*]] = exp %[[NEG]]
# CHECK-NEXT: %[[D:.*]] = addf %{{.*}}, %[[E]]
# CHECK-NEXT: divf %{{.*}}, %[[D]]
# CHECK: clampf %{{.*}}, %{{.*}}, %{{.*}} : tile<128xf32>
# CHECK: %[[GT:.*]] = cmpf %x, %{{.*}} {pred = "ogt"} : tile<128xi1>
# CHECK-NEXT: select %[[GT]]
# CHECK: maxnumf
# CHECK: minnumf
# constexpr builtins fold: pi, inf * 0.0 = nan, min(BLOCK, 64) + max(1, 2, 3) = 64 + 3,
# cdiv(128, 48) = 3, tl.cdiv(128, 3) = 43, next_power_of_2(100) = 128
# CHECK: constant {value = 3.141592653589793} : tile<128xf32>
# CHECK: constant {value = nan} : tile<128xf32>
# CHECK: constant {value = 64.0} : tile<128xf32>
# CHECK: constant {value = 3.0} : tile<128xf32>
# CHECK: constant {value = 43.0} : tile<128xf32>
# CHECK: constant {value = 128.0} : tile<128xf32>
# CHECK: absi %i : tile<128xi32>
# CHECK: maxi %i, %{{.*}} : tile<128xi32>
# CHECK: mulhi %u, %u : tile<128xu32>
