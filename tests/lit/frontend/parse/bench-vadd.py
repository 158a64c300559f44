# The bench kernel vadd parses to the expected tree.
# RUN: %tilecc %bench/vadd.py --emit=ast | FileCheck %s --strict-whitespace
# CHECK: {{^}}import triton{{$}}
# CHECK-NEXT: {{^}}import triton.language as tl{{$}}
# CHECK-NEXT: {{^}}@(attr (name triton) jit){{$}}
# CHECK-NEXT: {{^}}def vadd(x_ptr, y_ptr, out_ptr, n, BLOCK: (attr (name tl) constexpr)){{$}}
# CHECK-NEXT: {{^}}  assign (name pid) = (call (attr (name tl) program_id) (int 0)){{$}}
# CHECK-NEXT: {{^}}  assign (name offs) = (+ (* (name pid) (name BLOCK)) (call (attr (name tl) arange) (int 0) (name BLOCK))){{$}}
# CHECK-NEXT: {{^}}  assign (name mask) = (compare (name offs) < (name n)){{$}}
# CHECK-NEXT: {{^}}  assign (name x) = (call (attr (name tl) load) (+ (name x_ptr) (name offs)) (kw mask (name mask))){{$}}
# CHECK-NEXT: {{^}}  assign (name y) = (call (attr (name tl) load) (+ (name y_ptr) (name offs)) (kw mask (name mask))){{$}}
# CHECK-NEXT: {{^}}  expr (call (attr (name tl) store) (+ (name out_ptr) (name offs)) (+ (name x) (name y)) (kw mask (name mask))){{$}}
# CHECK-NOT: {{.}}
