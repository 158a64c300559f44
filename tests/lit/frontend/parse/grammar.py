# Every construct of Python 3.12's grammar parses (host code around kernels uses them all);
# --emit=ast shows the tree. The kernel subset is checked by sema, not here (diag/unsupported-*).
# RUN: %tilecc %s --emit=ast | FileCheck %s --strict-whitespace
# CHECK: {{^}}import triton{{$}}
# CHECK-NEXT: {{^}}import triton.language as tl{{$}}
# CHECK-NEXT: {{^}}from . import sibling{{$}}
# CHECK-NEXT: {{^}}from ..pkg.mod import a as b, c{{$}}
# CHECK-NEXT: {{^}}from ... import deep{{$}}
# CHECK-NEXT: {{^}}from os.path import *{{$}}
# CHECK-NEXT: {{^}}import a.b.c as d, e{{$}}
# CHECK-NEXT: {{^}}@(call (name dataclass) (kw frozen (bool True))){{$}}
# CHECK-NEXT: {{^}}@(call (attr (subscript (name decorators) (int 0)) attr) (name x)){{$}}
# CHECK-NEXT: {{^}}@(lambda (f) (name f)){{$}}
# CHECK-NEXT: {{^}}class Point (call nil (name Base) (kw metaclass (name Meta)) (dstar (name extra))){{$}}
# CHECK-NEXT: {{^}}  expr (str "doc"){{$}}
# CHECK-NEXT: {{^}}  annassign (name x) : (name int) = (int 0){{$}}
# CHECK-NEXT: {{^}}  annassign (name y) : (str "float"){{$}}
# CHECK-NEXT: {{^}}  def __init__(self, /, a, b = (int 1), *args, c, d = (int 2), **kw) -> (none){{$}}
# CHECK-NEXT: {{^}}    expr (call (attr (call (name super)) __init__) (star (name args)) (dstar (name kw))){{$}}
# CHECK-NEXT: {{^}}  @(name property){{$}}
# CHECK-NEXT: {{^}}  async def fetch(self){{$}}
# CHECK-NEXT: {{^}}    async with (name lock) as (name l), (name other){{$}}
# CHECK-NEXT: {{^}}      expr (await (call (name sleep) (int 1))){{$}}
# CHECK-NEXT: {{^}}    async for (name item) in (call (name aiter)){{$}}
# CHECK-NEXT: {{^}}      expr (yield (name item)){{$}}
# CHECK-NEXT: {{^}}    return (listcomp (name x) (async-for (name x) (call (name agen)))){{$}}
# CHECK-NEXT: {{^}}def gen(n){{$}}
# CHECK-NEXT: {{^}}  expr (yield){{$}}
# CHECK-NEXT: {{^}}  expr (yield (name n)){{$}}
# CHECK-NEXT: {{^}}  assign (name x) = (yieldfrom (call (name other) (name n))){{$}}
# CHECK-NEXT: {{^}}  assign (name y) = (yield (tuple (name n) (name n))){{$}}
# CHECK-NEXT: {{^}}  return (yield){{$}}
# CHECK-NEXT: {{^}}def scopes(){{$}}
# CHECK-NEXT: {{^}}  global G, H{{$}}
# CHECK-NEXT: {{^}}  assign (name x) = (int 0){{$}}
# CHECK-NEXT: {{^}}  def inner(){{$}}
# CHECK-NEXT: {{^}}    nonlocal x{{$}}
# CHECK-NEXT: {{^}}    augassign (name x) += (int 1){{$}}
# CHECK-NEXT: {{^}}  del (name x) (subscript (name G) (int 0)) (attr (name a) b){{$}}
# CHECK-NEXT: {{^}}  raise (call (name ValueError) (str "bad")) from (none){{$}}
# CHECK-NEXT: {{^}}try{{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}except (tuple (name ValueError) (name TypeError)) as e{{$}}
# CHECK-NEXT: {{^}}  raise{{$}}
# CHECK-NEXT: {{^}}except (name Exception){{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}else{{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}finally{{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}try{{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}finally{{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}try{{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}except* (name OSError) as eg{{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}with (call (name open) (str "f")) as (name f), (named (name yield_) (int 1)){{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}with (call (name open) (str "a")) as (name a), (call (name open) (str "b")) as (name b){{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}with (name x){{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}for (tuple (name i) (star (name rest))) in (name items){{$}}
# CHECK-NEXT: {{^}}  continue{{$}}
# CHECK-NEXT: {{^}}else{{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}while (name x){{$}}
# CHECK-NEXT: {{^}}  break{{$}}
# CHECK-NEXT: {{^}}else{{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}match (call (attr (name command) split)){{$}}
# CHECK-NEXT: {{^}}  case (list (name action)){{$}}
# CHECK-NEXT: {{^}}    pass{{$}}
# CHECK-NEXT: {{^}}  case (| (list (str "go") (name direction)) (list (str "move") (name direction))){{$}}
# CHECK-NEXT: {{^}}    pass{{$}}
# CHECK-NEXT: {{^}}  case (named (name p) (call (name Point) (kw x (int 0)) (kw y (name yy)))) if (compare (name yy) > (int 0)){{$}}
# CHECK-NEXT: {{^}}    pass{{$}}
# CHECK-NEXT: {{^}}  case (dict ((str "k") (name v)) (dstar (name others))){{$}}
# CHECK-NEXT: {{^}}    pass{{$}}
# CHECK-NEXT: {{^}}  case (list (int 1) (int 2) (star (name others))){{$}}
# CHECK-NEXT: {{^}}    pass{{$}}
# CHECK-NEXT: {{^}}  case (| (| (| (| (| (- (int 1)) (float 1.5)) (+ (int 2) (imag 3.0))) (str "s")) (none)) (bool True)){{$}}
# CHECK-NEXT: {{^}}    pass{{$}}
# CHECK-NEXT: {{^}}  case (attr (attr (name a) b) CONST){{$}}
# CHECK-NEXT: {{^}}    pass{{$}}
# CHECK-NEXT: {{^}}  case (tuple (name q) (name r)){{$}}
# CHECK-NEXT: {{^}}    pass{{$}}
# CHECK-NEXT: {{^}}  case (name _){{$}}
# CHECK-NEXT: {{^}}    pass{{$}}
# CHECK-NEXT: {{^}}assign (name match) = (int 1){{$}}
# CHECK-NEXT: {{^}}assign (attr (name match) x) = (int 2){{$}}
# CHECK-NEXT: {{^}}expr (call (name match) (name x)){{$}}
# CHECK-NEXT: {{^}}assign (name case) = (int 3){{$}}
# CHECK-NEXT: {{^}}type (name Alias) = (subscript (name list) (name int)){{$}}
# CHECK-NEXT: {{^}}type (name Generic) = (subscript (name tuple) (tuple (name T) (star (name Ts)))){{$}}
# CHECK-NEXT: {{^}}def generic(x: (name T)) -> (name U){{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}class Box{{$}}
# CHECK-NEXT: {{^}}  pass{{$}}
# CHECK-NEXT: {{^}}assign (name x) = (listcomp (* (name i) (name j)) (for (name i) (call (name range) (int 3)) (if (name i))) (for (name j) (call (name range) (name i)) (if (name j)) (if (compare (name i) > (name j))))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (dictcomp (name i) (name j) (for (tuple (name i) (name j)) (name pairs))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (setcomp (name i) (for (name i) (name s))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (genexp (name i) (for (name i) (name s))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (call (name sum) (genexp (name i) (for (name i) (name s)))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (set (int 1) (int 2) (star (name s))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (dict (dstar (name d)) ((str "k") (int 1)) (dstar (name e))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (list (star (name a)) (star (name b))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (tuple (star (name a)) (star (name b))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (call (name f) (star (name a)) (star (name b)) (kw c (int 1)) (dstar (name d)) (dstar (name e))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (lambda () (int 0)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (lambda (a b=(int 1) *c d e=(int 2) **f) (name a)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (lambda (* k) (name k)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (lambda (a / b) (name a)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (list (named (name y) (int 5)) (** (name y) (int 2))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (ifexp (name b) (name a) (ifexp (name d) (name c) (name e))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (compare (int 1) < (name y) <= (int 3) != (name z) is not (none)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (or (and (not (name a)) (name b)) (name c)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (ellipsis){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (subscript (name a) (ellipsis)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (subscript (name a) (tuple (slice (int 1) (int 2) nil) (slice nil nil (int 3)) (slice nil nil nil) (star (name idx)))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (subscript (name a) (named (name b) (int 1))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (- (** (name x) (- (name y)))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (name await_) = (int 1){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (+ (+ (+ (+ (+ (+ (+ (+ (int 3735928559) (int 511)) (int 10)) (int 1000000)) (float 3.1415)) (float 1e-10)) (imag 10.0)) (imag 1.5)) (imag 0.5)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (int big){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (+ (+ (+ (+ (bytes "\\d") (bytes "x")) (bytes "y")) (bytes "z")) (bytes "\x00")){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (fstring (fvalue (name a) !r (fstring ">" (fvalue (name width)))) " " (fvalue (name b) =) " " (fvalue (name c) !s) " {lit} " (fvalue (name d) (fstring (fvalue (name e)) "." (fvalue (name f))))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (fstring (fvalue (str "nested")) " " (fvalue (fstring (fvalue (name inner) !a))) " " (fvalue (subscript (name x) (str "key"))) " " (fvalue (subscript (name y) (str "same")))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (fstring "multi\n" (fvalue (name line)) " " (fvalue (str "triple"))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (+ (+ (+ (fstring "\\d" (fvalue (name x))) (fstring (fvalue (name y)) "\\n")) (fstring)) (fstring)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (+ (str "unicode") (str "x")){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (fstring "a" "b" "c" (fvalue (name d))){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (+ (int 1) (int 2)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (+ (int 1) (int 2)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (int 1){{$}}
# CHECK-NEXT: {{^}}assign (name y) = (int 2){{$}}
# CHECK-NEXT: {{^}}assign (name z) = (int 3){{$}}
# CHECK-NEXT: {{^}}assert (name x) (str "message"){{$}}
# CHECK-NEXT: {{^}}expr (call (name print) (fstring (fvalue (name x) (fstring ","))) (kw sep (str ""))){{$}}
# CHECK-NEXT: {{^}}if (compare (name __name__) == (str "__main__")){{$}}
# CHECK-NEXT: {{^}}  expr (call (name main)){{$}}
# CHECK-NOT: {{.}}
import triton
import triton.language as tl
from . import sibling
from ..pkg.mod import (a as b, c,)
from ... import deep
from os.path import *
import a.b.c as d, e


@dataclass(frozen=True)
@decorators[0].attr(x)
@(lambda f: f)
class Point(Base, metaclass=Meta, **extra):
    """doc"""
    x: int = 0
    y: "float"

    def __init__(self, /, a, b=1, *args, c, d=2, **kw) -> None:
        super().__init__(*args, **kw)

    @property
    async def fetch(self):
        async with lock as l, other:
            await sleep(1)
        async for item in aiter():
            yield item
        return [x async for x in agen()]


def gen(n):
    yield
    yield n
    x = yield from other(n)
    y = yield n, n
    return (yield)


def scopes():
    global G, H
    x = 0

    def inner():
        nonlocal x
        x += 1
    del x, G[0], a.b
    raise ValueError("bad") from None


try:
    pass
except (ValueError, TypeError) as e:
    raise
except Exception:
    pass
else:
    pass
finally:
    pass
try:
    pass
finally:
    pass
try:
    pass
except* OSError as eg:
    pass

with open("f") as f, (yield_ := 1):
    pass
with (open("a") as a, open("b") as b,):
    pass
with (x):
    pass

for i, *rest in items:
    continue
else:
    pass
while x:
    break
else:
    pass

match command.split():
    case [action]:
        pass
    case ["go", direction] | ["move", direction]:
        pass
    case Point(x=0, y=yy) as p if yy > 0:
        pass
    case {"k": v, **others}:
        pass
    case [1, 2, *others]:
        pass
    case -1 | 1.5 | 2 + 3j | "s" | None | True:
        pass
    case a.b.CONST:
        pass
    case (q, r):
        pass
    case _:
        pass
match = 1
match.x = 2
match(x)
case = 3

type Alias = list[int]
type Generic[T, *Ts, **P] = tuple[T, *Ts]


def generic[T: int, U](x: T) -> U:
    pass


class Box[T]:
    pass


x = [i * j for i in range(3) if i for j in range(i) if j if i > j]
x = {i: j for i, j in pairs}
x = {i for i in s}
x = (i for i in s)
x = sum(i for i in s)
x = {1, 2, *s}
x = {**d, "k": 1, **e}
x = [*a, *b]
x = *a, *b
x = f(*a, *b, c=1, **d, **e)
x = lambda: 0
x = lambda a, b=1, *c, d, e=2, **f: a
x = lambda *, k: k
x = lambda a, /, b: a
x = [y := 5, y ** 2]
x = a if b else c if d else e
x = 1 < y <= 3 != z is not None
x = not a and b or c
x = ...
x = a[...]
x = a[1:2, ::3, :, *idx]
x = a[b:=1]
x = -x ** -y
x = await_ = 1
x = 0xDEAD_BEEF + 0o777 + 0b1010 + 1_000_000 + 3.14_15 + 1e-1_0 + 10j + 1.5J + .5j
x = 123456789012345678901234567890
x = rb'\d' + Rb"x" + BR'y' + bR'z' + b'\x00'
x = f"{a!r:>{width}} {b=} {c!s} {{lit}} {d:{e}.{f}}"
x = f'{"nested"} {f"{inner!a}"} {x["key"]} {y['same']}'
x = f"""multi
{line} {"""triple"""}"""
x = rf"\d{x}" + FR'{y}\n' + fR"" + Rf''
x = u"unicode" + U'x'
x = 'a' 'b' f'c{d}'
x = (1 +
     2)
x = 1 + \
    2
x = 1; y = 2; z = 3;
assert x, "message"
print(f"{x:,}", sep="")
if __name__ == "__main__":
    main()
