# Writes a tile IR function nested N levels deep (argv: KIND N): "if" nests N if ops,
# "type" a parameter of type ptr<ptr<...<f32>...>> N deep.
import sys

kind, n = sys.argv[1], int(sys.argv[2])
if kind == "if":
    out = "func @k(%c: i1) {\n" + "if %c {\n" * n + "yield\n} {\nyield\n}\n" * n + "return\n}\n"
else:
    out = "func @k(%p: " + "ptr<" * n + "f32" + ">" * n + ") {\n  return\n}\n"
sys.stdout.write(out)
