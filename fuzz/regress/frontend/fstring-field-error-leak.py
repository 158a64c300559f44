#@ k | *fp32 | | 4
# An f-string whose second field does not evaluate: sema's error left through its longjmp
# with the text of the first field still on the heap (a leak, found by fuzz_frontend).
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    raise ValueError(f"the value {1} and then {undefined_name}")
