# Signatures that do not match the kernel's parameters.
# RUN: not %tilecc %s -k k -s "*fp32" 2>&1 | FileCheck %s --check-prefix=COUNT
# RUN: not %tilecc %s -k k -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=NOVALUE
# RUN: not %tilecc %s -k k -s "*fp33, i32, 64" 2>&1 | FileCheck %s --check-prefix=TYPE
# RUN: not %tilecc %s -k k -s "*fp32, i32, *fp32" 2>&1 | FileCheck %s --check-prefix=CONSTEXPR
# RUN: not %tilecc %s -k k -s "*fp32, 7, 64" 2>&1 | FileCheck %s --check-prefix=VALUE
# RUN: not %tilecc %s -k k 2>&1 | FileCheck %s --check-prefix=NONE
# RUN: not %tilecc %s -k k -s "*fp32, i32" -D BLOCKS=3 2>&1 | FileCheck %s --check-prefix=DASHD
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    pass
# COUNT: <signature>:1:1: error: the signature has 1 entry but kernel 'k' has 3 parameters (2 not constexpr)
# COUNT-NEXT: *fp32
# COUNT-NEXT: ^~~~~
# NOVALUE: signature.py:14:17: error: no value for constexpr parameter 'BLOCK': give it in the signature (-s) or with -D BLOCK=VALUE
# COUNT: signature.py:14:5: note: kernel 'k' is defined here
# TYPE: <signature>:1:1: error: bad signature entry '*fp33' for parameter 'x_ptr'
# TYPE-NEXT: *fp33, i32, 64
# TYPE-NEXT: ^~~~~
# CONSTEXPR: <signature>:1:13: error: parameter 'BLOCK' is a tl.constexpr: the signature must give its value, got '*fp32'
# VALUE: <signature>:1:8: error: parameter 'n' is not a tl.constexpr, so the signature must give its type
# NONE: signature.py:14:5: error: kernel 'k' needs a signature: -s "*<dtype>, <type>, BLOCK=<constexpr>"
# DASHD: signature.py:14:5: error: -D BLOCKS: kernel 'k' has no parameter named 'BLOCKS'
