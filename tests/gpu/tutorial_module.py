# tutorial_module.py: one of Triton's tutorials as a module of definitions, for the scripts
# that run or compile its kernels (tests/gpu/tutorials.py on the GPU machine,
# tests/mlir/triton_ttir.py anywhere Triton is installed). Tooling: tilecc has no Python in it.
import ast, os


def load_tutorial(path):
    """The tutorial's module without its host-side actions: definitions (functions, classes),
    and imports, module-level assignments and conditionals (each on its own: one that fails,
    such as an import of a module that is not on this machine or a host function annotated
    with torch's types where torch is not installed, is skipped), executed from the
    published file under its own name so that Triton reads the kernels' source from it. Bare
    expressions (the tests and benchmarks the tutorial runs) are left out."""
    tree = ast.parse(open(path).read(), path)
    keep = []
    for st in tree.body:
        if isinstance(st, ast.Try):
            keep.append(st)
        elif isinstance(st, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign,
                             ast.AugAssign, ast.If)):
            guard = ast.Try(body=[st], handlers=[ast.ExceptHandler(type=ast.Name("Exception", ast.Load()),
                                                                    name=None, body=[ast.Pass()])],
                            orelse=[], finalbody=[])
            keep.append(ast.copy_location(guard, st))
    tree = ast.fix_missing_locations(ast.Module(body=keep, type_ignores=[]))
    file = os.path.basename(path)
    ns = {"__name__": "tutorial_" + file.split("-")[0], "__file__": path}
    exec(compile(tree, path, "exec"), ns)
    return ns
