# autotune and heuristics decorators are parsed and their configs kept; with no -D the
# first config's constexprs and num_warps/num_stages apply. `from triton import language`.
# RUN: %tilecc %s -k tuned -s "*fp32:16, i32:16" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
# RUN: %tilecc %s -k tuned -s "*fp32:16, i32:16" -D BLOCK=512 --num-warps 8 | FileCheck %s --check-prefix=OVER
from triton import language as tl
import triton


@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=2, num_stages=3),
                          triton.Config({'BLOCK': 256}, num_warps=4)],
                 key=['n'])
@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})
@triton.jit
def tuned(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr = False):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, x * 2, mask=offs < n)

# CHECK: func @tuned({{.*}}) attributes {num_stages = 3, num_warps = 2} {
# CHECK: make_range {end = 128, start = 0}
# EVEN defaults to False: the masked load
# CHECK: load %{{.*}}, %{{.*}} : tile<128xf32>
# OVER: func @tuned({{.*}}) attributes {num_stages = 3, num_warps = 8} {
# OVER: make_range {end = 512, start = 0}
