# Decorators: any expression, including calls with dict literals and lambdas, as used by
# triton.autotune and triton.heuristics.
# RUN: %tilecc %s --emit=ast | FileCheck %s --strict-whitespace
# CHECK: {{^}}import triton{{$}}
# CHECK-NEXT: {{^}}import triton.language as tl{{$}}
# CHECK-NEXT: {{^}}@(call (attr (name triton) autotune) (kw configs (list (call (attr (name triton) Config) (dict ((str "BLOCK") (int 128))) (kw num_warps (int 4))) (call (attr (name triton) Config) (dict ((str "BLOCK") (int 256))) (kw num_warps (int 8))))) (kw key (list (str "n")))){{$}}
# CHECK-NEXT: {{^}}@(call (attr (name triton) heuristics) (dict ((str "EVEN") (lambda (args) (compare (% (subscript (name args) (str "n")) (subscript (name args) (str "BLOCK"))) == (int 0)))))){{$}}
# CHECK-NEXT: {{^}}@(attr (name triton) jit){{$}}
# CHECK-NEXT: {{^}}def k(x_ptr, n, BLOCK: (attr (name tl) constexpr), EVEN: (attr (name tl) constexpr)){{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NOT: {{.}}
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=4),
                          triton.Config({'BLOCK': 256}, num_warps=8)],
                 key=['n'])
@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    pass
