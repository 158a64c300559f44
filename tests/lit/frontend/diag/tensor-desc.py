# Tensor descriptors made in the kernel: Triton's rules for them, each a located error.
# RUN: not %tilecc %s -k k1 -s "*fp32, i32, i32" 2>&1 | FileCheck %s --check-prefix=STRIDE
# RUN: not %tilecc %s -k k2 -s "*fp16, i32, i32" 2>&1 | FileCheck %s --check-prefix=BYTES
# RUN: not %tilecc %s -k k3 -s "*fp32, i32, i32" 2>&1 | FileCheck %s --check-prefix=OFFS
# RUN: not %tilecc %s -k k4 -s "*fp32, i32, i32" 2>&1 | FileCheck %s --check-prefix=ATTR
# RUN: %tilecc %s -k ok -s "*fp32, i32, i32" --emit=tir | FileCheck %s --check-prefix=OK
import triton
import triton.language as tl


@triton.jit
def k1(x_ptr, n, s):
    d = tl.make_tensor_descriptor(x_ptr, [n, n], [n, s], [16, 16])
# STRIDE: tensor-desc.py:[[@LINE-1]]:50: error: a tensor descriptor's last stride must be the constant 1, got a runtime int32 scalar (give it as 1, or as an i32:1 parameter)


@triton.jit
def k2(x_ptr, n, s):
    d = tl.make_tensor_descriptor(x_ptr, [n, n], [n, 1], [16, 4])
# BYTES: tensor-desc.py:[[@LINE-1]]:58: error: a descriptor's block must have at least 16 bytes in the last dimension, got 4 * 2 = 8 bytes


@triton.jit
def k3(x_ptr, n, s):
    d = tl.make_tensor_descriptor(x_ptr, [n, n], [n, 1], [16, 16])
    x = d.load([0])
# OFFS: tensor-desc.py:[[@LINE-1]]:16: error: offsets has 1 entries, but the descriptor has 2 dimensions


@triton.jit
def k4(x_ptr, n, s):
    d = tl.make_tensor_descriptor(x_ptr, [n, n], [n, 1], [16, 16])
    x = d.gather([0])
# ATTR: tensor-desc.py:[[@LINE-1]]:11: error: a tensor descriptor has no attribute 'gather'


@triton.jit
def ok(x_ptr, n, s):
    d = tl.make_tensor_descriptor(x_ptr, [n], [1], [64])
    x = d.load([s])
    d.store([s + 64], x + 1.0)
# in bounds: 0 <= s + arange < n as one unsigned compare against max(n, 0)
# OK: %[[B:.*]] = maxi %n, %{{.*}} : i32
# OK: bitcast %{{.*}} : tile<64xu32>
# OK: %[[M:.*]] = cmpi %{{.*}}, %{{.*}} {pred = "lt"} : tile<64xi1>
# the widened offset only addresses the masked access: the code generator may keep the
# slot's constant apart in 64 bits (lib/codegen/scalar.c ext_wrap_free)
# OK: exti %{{.*}} {wrap_free = 1} : tile<64xi64>
# OK: load %{{.*}}, %{{.*}}, %{{.*}} : tile<64xf32>
# OK: store
