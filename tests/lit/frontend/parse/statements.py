# Every statement form the parser accepts, as --emit=ast prints it.
# RUN: %tilecc %s --emit=ast | FileCheck %s --strict-whitespace
# CHECK: {{^}}import triton{{$}}
# CHECK-NEXT: {{^}}import triton.language as tl, os.path as p{{$}}
# CHECK-NEXT: {{^}}from triton import language as tl, jit{{$}}
# CHECK-NEXT: {{^}}from a.b import c, d as e{{$}}
# CHECK-NEXT: {{^}}annassign (name X) : (attr (name tl) constexpr) = (int 3){{$}}
# CHECK-NEXT: {{^}}annassign (name y) : (name int){{$}}
# CHECK-NEXT: {{^}}assign (name a) = (name b) = (int 1){{$}}
# CHECK-NEXT: {{^}}assign (tuple (name a) (name b)) = (tuple (name b) (name a)){{$}}
# CHECK-NEXT: {{^}}assign (tuple (tuple (name a) (name b)) (list (name c))) = (name x){{$}}
# CHECK-NEXT: {{^}}assign (subscript (attr (name x) y) (int 0)) = (tuple (int 1)){{$}}
# CHECK-NEXT: {{^}}augassign (name a) += (int 1){{$}}
# CHECK-NEXT: {{^}}augassign (name a) -= (int 1){{$}}
# CHECK-NEXT: {{^}}augassign (name a) *= (int 1){{$}}
# CHECK-NEXT: {{^}}augassign (name a) /= (int 1){{$}}
# CHECK-NEXT: {{^}}augassign (name a) //= (int 1){{$}}
# CHECK-NEXT: {{^}}augassign (name a) %= (int 1){{$}}
# CHECK-NEXT: {{^}}augassign (name a) **= (int 1){{$}}
# CHECK-NEXT: {{^}}augassign (name a) @= (int 1){{$}}
# CHECK-NEXT: {{^}}augassign (name a) &= (int 1){{$}}
# CHECK-NEXT: {{^}}augassign (name a) |= (int 1){{$}}
# CHECK-NEXT: {{^}}augassign (name a) ^= (int 1){{$}}
# CHECK-NEXT: {{^}}augassign (name a) <<= (int 1){{$}}
# CHECK-NEXT: {{^}}augassign (name a) >>= (int 1){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (int 1){{$}}
# CHECK-NEXT: {{^}}assign (name y) = (int 2){{$}}
# CHECK-NEXT: {{^}}def f(a, b: (name int), c = (int 1), d: (attr (name tl) constexpr) = (int 2)) -> (none){{$}}
# CHECK-NEXT: {{^}}  expr (str "Docstrings are expression statements."){{$}}
# CHECK-NEXT: {{^}}  if (name a){{$}}
# CHECK-NEXT: {{^}}    pass{{$}}
# CHECK-NEXT: {{^}}  else{{$}}
# CHECK-NEXT: {{^}}    if (name b){{$}}
# CHECK-NEXT: {{^}}      assign (name x) = (int 1){{$}}
# CHECK-NEXT: {{^}}    else{{$}}
# CHECK-NEXT: {{^}}      if (name c){{$}}
# CHECK-NEXT: {{^}}        return{{$}}
# CHECK-NEXT: {{^}}      else{{$}}
# CHECK-NEXT: {{^}}        assign (name y) = (int 2){{$}}
# CHECK-NEXT: {{^}}  for (tuple (name i) (name j)) in (call (name zip) (name a) (name b)){{$}}
# CHECK-NEXT: {{^}}    if (name i){{$}}
# CHECK-NEXT: {{^}}      continue{{$}}
# CHECK-NEXT: {{^}}    break{{$}}
# CHECK-NEXT: {{^}}  while (compare (name x) < (int 10)){{$}}
# CHECK-NEXT: {{^}}    augassign (name x) += (int 1){{$}}
# CHECK-NEXT: {{^}}  assert (name x){{$}}
# CHECK-NEXT: {{^}}  assert (compare (name x) > (int 0)) (str "x must be positive"){{$}}
# CHECK-NEXT: {{^}}  return (tuple (name a) (name b)){{$}}
# CHECK-NEXT: {{^}}def g(){{$}}
# CHECK-NEXT: {{^}}  return{{$}}
# CHECK-NOT: {{.}}
import triton
import triton.language as tl, os.path as p
from triton import language as tl, jit
from a.b import (c,
                 d as e,)

X: tl.constexpr = 3
y: int
a = b = 1
a, b = b, a
(a, b), [c] = x
x.y[0] = 1,
a += 1
a -= 1
a *= 1
a /= 1
a //= 1
a %= 1
a **= 1
a @= 1
a &= 1
a |= 1
a ^= 1
a <<= 1
a >>= 1
x = 1; y = 2;


def f(a, b: int, c=1, d: tl.constexpr = 2) -> None:
    """Docstrings are expression statements."""
    if a:
        pass
    elif b:
        x = 1
    elif c: return
    else:
        y = 2
    for i, j in zip(a, b):
        if i:
            continue
        break
    while x < 10:
        x += 1
    assert x
    assert x > 0, "x must be positive"
    return a, b


def g():
    return
