# Choosing the kernel: several jit functions need -k; an unknown name lists the choices.
# RUN: not %tilecc %s -s "*fp32" 2>&1 | FileCheck %s --check-prefix=AMBIG
# RUN: not %tilecc %s -k nope -s "*fp32" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# RUN: %tilecc %s -k b -s "*fp32" 2>/dev/null | FileCheck %s --check-prefix=OK
import triton
import triton.language as tl


@triton.jit
def a(x_ptr):
    tl.store(x_ptr, 1.0)


@triton.jit
def b(x_ptr):
    tl.store(x_ptr, 2.0)
# AMBIG: kernel-name.py: error: this file defines 2 @triton.jit functions ('a', 'b'): choose the kernel with -k NAME
# UNKNOWN: kernel-name.py: error: no @triton.jit function named 'nope' in this file; it defines 'a', 'b'
# OK: func @b(
