"""tutorial_configs.py: prints the autotune configs of a Triton tutorial file, one a line as
tilecc --configs takes them (BLOCK_SIZE_M=128 ... num_warps=8 num_stages=3), read with the
ast module from the function that returns them (default get_cuda_autotune_config), so that
neither Triton nor a GPU is needed (tests/gpu/stage-tune.sh).

    python3 tests/gpu/tutorial_configs.py 03-matrix-multiplication.py [FUNCTION]
"""
import ast
import sys


def configs_of(path, function):
    tree = ast.parse(open(path).read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and isinstance(ret.value, (ast.List, ast.Tuple)):
                    return [config_text(c) for c in ret.value.elts]
    raise SystemExit(f"{path}: no function {function} returning a list of configs")


def config_text(call):
    if not (isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Dict)):
        raise SystemExit(f"line {call.lineno}: not a triton.Config({{...}}, ...) call")
    parts = [f"{ast.literal_eval(k)}={ast.literal_eval(v)}"
             for k, v in zip(call.args[0].keys, call.args[0].values)]
    kw = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    for name in ("num_warps", "num_stages"):
        if name in kw:
            parts.append(f"{name}={kw[name]}")
    return " ".join(parts)


if __name__ == "__main__":
    for line in configs_of(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "get_cuda_autotune_config"):
        print(line)
