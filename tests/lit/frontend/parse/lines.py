# Line structure: comments, blank lines, implicit and explicit line joining, tabs,
# semicolons, and a last line without a newline.
# RUN: %tilecc %s --emit=ast | FileCheck %s --strict-whitespace
# CHECK: {{^}}assign (name x) = (+ (+ (int 1) (int 2)) (int 3)){{$}}
# CHECK-NEXT: {{^}}if (name x){{$}}
# CHECK-NEXT: {{^}}  assign (name y) = (list (int 1) (int 2)){{$}}
# CHECK-NEXT: {{^}}  assign (name z) = (int 3){{$}}
# CHECK-NEXT: {{^}}  assign (name w) = (int 4){{$}}
# CHECK-NEXT: {{^}}assign (name v) = (dict ((str "a") (int 1))){{$}}
# CHECK-NEXT: {{^}}assign (name u) = (int 5){{$}}
# CHECK-NOT: {{.}}
x = (1 +  # a comment inside parentheses

     2) \
    + 3

    # an indented comment line does not open a block
if x:
	y = [1,
  2]
        z = 3; w = 4
v = {
    'a': 1,
}
u = 5