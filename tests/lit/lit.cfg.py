# lit configuration for tilecc: RUN lines use %tilecc, FileCheck and not.
import os
import sys
import lit.formats

config.name = "tilecc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".py", ".tir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

site = lit_config.params.get("tilecc_site_config")
if site:
    lit_config.load_config(config, site)

config.test_exec_root = os.path.join(config.tilecc_obj_root, "tests", "lit-out")
config.substitutions.append(("%tilecc", config.tilecc_bin))
config.substitutions.append(("%bench", config.bench_dir))
config.substitutions.append(("%python", sys.executable))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
# the MLIR bridge (TTIR in and out) is built when CMake found MLIR 19: tests/lit/mlir
if getattr(config, "tilecc_have_mlir", False):
    config.available_features.add("mlir")
# ptxas (the CUDA toolkit) turns PTX into cubins; tests that need it say REQUIRES: ptxas
if os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("ptxas")
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Under the sanitizers a report (a leak found at exit, too) aborts the process: `not`
# would take LeakSanitizer's plain non-zero exit for the failure the test expects, while
# it does not take a signal. Leaks are checked unless ASAN_OPTIONS says otherwise; the
# abort is forced (the last setting wins).
if getattr(config, "tilecc_sanitize", False):
    for var, first in (("ASAN_OPTIONS", "detect_leaks=1"), ("UBSAN_OPTIONS", "print_stacktrace=1")):
        given = config.environment.get(var, "")
        config.environment[var] = ":".join(x for x in (first, given, "abort_on_error=1") if x)
