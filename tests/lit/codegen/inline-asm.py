# tl.inline_asm_elementwise: real inline assembly on NVIDIA (PTX) and AMD (GCN), once per
# element; the IR's text form round-trips; on CPUs the cpu= variant runs, and without one
# the kernel is refused with a located error.
# RUN: %tilecc %s -k ptx -s "*i32, *i32, 256" --target=sm_90 --emit=ptx -o %t.ptx
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
# RUN: %tilecc %s -k amd -s "*fp32, *fp32, 256" --target=gfx90a --emit=amdgcn -o %t.s
# RUN: FileCheck %s --check-prefix=AMD --input-file %t.s
# RUN: %tilecc %s -k amd -s "*fp32, *fp32, 256" --target=gfx90a -o %t.hsaco
# RUN: %tilecc %s -k amd -s "*fp32, *fp32, 256" -o %t.tir
# RUN: FileCheck %s --check-prefix=TIR --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
# RUN: %tilecc %s -k amd -s "*fp32, *fp32, 256" -o %t.o
# RUN: not %tilecc %s -k ptx -s "*i32, *i32, 256" -o %t.so 2>&1 | FileCheck %s --check-prefix=CPU
# RUN: not %tilecc %s -k bad_pack -s "*i32" 2>&1 | FileCheck %s --check-prefix=PACK
import triton
import triton.language as tl


@triton.jit
def ptx(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mul.lo.u32 $0, $1, 3;", "=r,r", [x], dtype=tl.int32,
                                  is_pure=True, pack=1)
# CPU: inline-asm.py:[[@LINE-2]]:9: error: tl.inline_asm_elementwise cannot run on a CPU target: give a CPU variant with cpu=FN
    tl.store(y_ptr + offs, y)
# PTX: mul.lo.u32 %r{{[0-9]+}}, %r{{[0-9]+}}, 3;


@triton.jit
def _twice(x):
    return x * 2.0


@triton.jit
def amd(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("v_add_f32 $0, $1, $1", "=v,v", [x], dtype=tl.float32,
                                  is_pure=False, pack=1, cpu=_twice)
    tl.store(y_ptr + offs, y)
# AMD: v_add_f32 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}
# TIR: %y = inline_asm %x {asm = "v_add_f32 $0, $1, $1", constraints = "=v,v"} : tile<256xf32> {
# TIR-NEXT: ^(%{{.*}}: f32):
# TIR: mulf
# TIR-NEXT: yield


@triton.jit
def bad_pack(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = tl.inline_asm_elementwise("", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=4)
# PACK: inline-asm.py:[[@LINE-1]]:87: error: inline_asm_elementwise with pack=4 is not supported yet (only pack=1)
