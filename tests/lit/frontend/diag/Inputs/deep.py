# Writes a kernel whose one statement is a chain or nesting of N terms (argv: KIND N).
import sys

kind, n = sys.argv[1], int(sys.argv[2])
expr = {
    "add": lambda: "n" + " + n" * (n - 1),
    "sub": lambda: "x" + "[0]" * n,
    "attr": lambda: "tl" + ".a" * n,
    "call": lambda: "f" + "()" * n,
    "paren": lambda: "(" * n + "n" + ")" * n,
    "list": lambda: "[" * n + "n" + "]" * n,
    "neg": lambda: "-" * n + "n",
}
body = ""
if kind == "if":
    body = "".join("    " + "  " * i + "if n > %d:\n" % i for i in range(n))
    body += "    " + "  " * n + "tl.store(x_ptr, 1.0)\n"
else:
    body = "    y = " + expr[kind]() + "\n    tl.store(x_ptr, y)\n"
sys.stdout.write("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                 "def k(x_ptr, n):\n" + body)
