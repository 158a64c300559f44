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
# RUN: not %tilecc %s -k bad_pack -s "*fp16" 2>&1 | FileCheck %s --check-prefix=PACK
# RUN: not %tilecc %s -k zero_pack -s "*i32" 2>&1 | FileCheck %s --check-prefix=ZERO
# RUN: not %tilecc %s -k bad_cpu -s "*i32" -o %t.bad.so 2>&1 | FileCheck %s --check-prefix=CPUTUP
# RUN: %tilecc %s -k multi -s "*i32, *fp32, 256" --target=sm_90 --emit=ptx -o %t.m.ptx
# RUN: FileCheck %s --check-prefix=MULTI --input-file %t.m.ptx
# RUN: %tilecc %s -k multi -s "*i32, *fp32, 256" -o %t.m.tir
# RUN: FileCheck %s --check-prefix=MTIR --input-file %t.m.tir
# RUN: %tilecc %t.m.tir -O0 --emit=tir | diff %t.m.tir -
# RUN: %tilecc %s -k multi -s "*i32, *fp32, 256" -o %t.m.so
# RUN: %tilecc %s -k packed -s "*i8, *fp16, 1024" --target=sm_90 --emit=ptx -o %t.p.ptx
# RUN: FileCheck %s --check-prefix=PACKED --input-file %t.p.ptx
# RUN: %tilecc %s -k amd_pack -s "*fp16, 1024" --target=gfx90a --emit=amdgcn -o %t.p.s
# RUN: FileCheck %s --check-prefix=AMDPACK --input-file %t.p.s
# RUN: %tilecc %s -k amd_pack -s "*fp16, 1024" --target=gfx90a -o %t.p.hsaco
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
    y = tl.inline_asm_elementwise("", "=r,r", [x], dtype=tl.float16, is_pure=True, pack=3)
# PACK: inline-asm.py:[[@LINE-1]]:89: error: inline_asm_elementwise: pack=3 is not a multiple of the 2 fp16 results a 32-bit register holds


@triton.jit
def zero_pack(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = tl.inline_asm_elementwise("", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=0)
# ZERO: inline-asm.py:[[@LINE-1]]:87: error: inline_asm_elementwise's pack must be at least 1, got 0


@triton.jit
def _one(x):
    return x


@triton.jit
def bad_cpu(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    a, b = tl.inline_asm_elementwise("", "=r,=r,r", [x], dtype=(tl.int32, tl.int32),
                                     is_pure=True, pack=1, cpu=_one)
# CPUTUP: inline-asm.py:[[@LINE-1]]:64: error: the CPU variant must return a tuple of 2 scalars (one per result dtype), got a runtime int32 scalar


@triton.jit
def _neg_half(x):
    return -x, x.to(tl.float32) * 0.5


# several results: a tuple of dtypes, one LLVM asm call returning a struct
@triton.jit
def multi(x_ptr, h_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    n, h = tl.inline_asm_elementwise("neg.s32 $0, $2;\n\tcvt.rn.f32.s32 $1, $2;", "=r,=r,r", [x],
                                     dtype=(tl.int32, tl.float32), is_pure=True, pack=1,
                                     cpu=_neg_half)
    tl.store(x_ptr + offs, n)
    tl.store(h_ptr + offs, h)
# MULTI: neg.s32 [[N:%r[0-9]+]], [[X:%r[0-9]+]];
# MULTI-NEXT: cvt.rn.f32.s32 %r{{[0-9]+}}, [[X]];
# MTIR: %n, %h = inline_asm %x {asm = "neg.s32 $0, $2;\n\tcvt.rn.f32.s32 $1, $2;", constraints = "=r,=r,r", pure} : tile<256xi32>, tile<256xf32> {
# MTIR: yield %{{[0-9]+}}, %{{[0-9]+}}


# pack > 1: four int8 in one 32-bit register per call; two fp16 in one register in, two
# registers out for the int32 result
@triton.jit
def packed(x_ptr, h_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("xor.b32 $0, $1, 0x80808080;", "=r,r", [x], dtype=tl.int8,
                                  is_pure=True, pack=4)
    tl.store(x_ptr + offs, y)
    h = tl.load(h_ptr + offs)
    g, b = tl.inline_asm_elementwise("mov.b32 $0, $3;\n\tshr.u32 $1, $3, 16;\n\tshr.u32 $2, $3, 15;",
                                     "=r,=r,=r,r", [h], dtype=(tl.float16, tl.int32),
                                     is_pure=True, pack=2)
    tl.store(h_ptr + offs, g + b.to(tl.float16))
# 1024 elements over 128 threads: 8 int8 a thread, two calls of four each
# PACKED-COUNT-2: xor.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0x80808080;
# PACKED-NOT: 0x80808080
# PACKED: mov.b32 %r{{[0-9]+}}, [[H:%r[0-9]+]];
# PACKED-NEXT: shr.u32 %r{{[0-9]+}}, [[H]], 16;
# PACKED-NEXT: shr.u32 %r{{[0-9]+}}, [[H]], 15;


@triton.jit
def amd_pack(h_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    h = tl.load(h_ptr + offs)
    g = tl.inline_asm_elementwise("v_pk_add_f16 $0, $1, $1", "=v,v", [h], dtype=tl.float16,
                                  is_pure=True, pack=2)
    a, b = tl.inline_asm_elementwise("v_cvt_f32_f16 $0, $2\n\tv_cvt_i32_f32 $1, $0", "=v,=v,v", [g],
                                     dtype=(tl.float32, tl.int32), is_pure=True, pack=1)
    tl.store(h_ptr + offs, (a + b.to(tl.float32)).to(tl.float16))
# AMDPACK: v_pk_add_f16 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}
# AMDPACK: v_cvt_f32_f16 [[A:v[0-9]+]], v{{[0-9]+}}
# AMDPACK-NEXT: v_cvt_i32_f32 v{{[0-9]+}}, [[A]]
