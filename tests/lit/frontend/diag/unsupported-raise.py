# raise in a kernel: an error where compilation reaches it, with the exception's message;
# none where a compile-time branch removes it (the common `if BAD: raise ...` pattern).
# RUN: not %tilecc %s -k k -D MODE=1 --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: not %tilecc %s -k k -D MODE=2 --emit=tir 2>&1 | FileCheck %s --check-prefix=FSTR
# RUN: not %tilecc %s -k k -D MODE=3 --emit=tir 2>&1 | FileCheck %s --check-prefix=BARE
# RUN: %tilecc %s -k k -D MODE=0 --emit=tir | FileCheck %s --check-prefix=OK
# CHECK: {{.*}}unsupported-raise.py:23:9: error: raise reached at compile time: ValueError: MODE 1 is not supported
# CHECK-NEXT: {{^}}        raise ValueError("MODE 1 is not supported"){{$}}
# CHECK-NEXT: {{^}}        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~{{$}}
# FSTR: unsupported-raise.py:25:9: error: raise reached at compile time: NotImplementedError: mode 2 of 4
# BARE: unsupported-raise.py:27:9: error: raise reached at compile time: RuntimeError
# OK: func @k
# OK-NOT: error
import triton
import triton.language as tl

LIMIT = 4


@triton.jit
def k(x_ptr: "*fp32", MODE: tl.constexpr):
    if MODE == 1:
        raise ValueError("MODE 1 is not supported")
    elif MODE == 2:
        raise NotImplementedError(f"mode {MODE} of {LIMIT}")
    elif MODE == 3:
        raise RuntimeError
    tl.store(x_ptr, 1.0)
