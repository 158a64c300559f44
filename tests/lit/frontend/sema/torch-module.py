# The built-in torch module: dtypes, torch.finfo and torch.iinfo at module level and in
# kernels, with torch's values (FlagGems' topk.py: tl.constexpr(torch.finfo(torch.float32).min)).
# The expected numbers are the IEEE limits written out: fp16 max (2 - 2^-10) * 2^15 = 65504,
# eps 2^-10; bf16 eps 2^-7; fp32 max (2 - 2^-23) * 2^127, tiny 2^-126; e4m3fn max 448.
# RUN: %tilecc %s -k k -s "*fp32, *i64" --emit=tir | FileCheck %s
# CHECK: constant {value = -65504.0} : f32
# CHECK: constant {value = 0.0009765625} : f32
# CHECK: constant {value = 0.0078125} : f32
# CHECK: constant {value = 3.4028234663852886e+38} : f32
# CHECK: constant {value = 1.1754943508222875e-38} : f32
# CHECK: constant {value = 448.0} : f32
# CHECK: constant {value = 0.001} : f32
# CHECK: constant {value = 1e-06} : f32
# CHECK: constant {value = -128} : i64
# CHECK: constant {value = 32767} : i64
# CHECK: constant {value = -9223372036854775808} : i64
# CHECK: constant {value = 4294967295} : i64
# CHECK: constant {value = 32} : i64
# CHECK: constant {value = 16} : i64
# CHECK: constant {value = 1} : i64
# CHECK: constant {value = 2} : i64
import torch
import triton
import triton.language as tl

_MIN_FP16 = tl.constexpr(torch.finfo(torch.float16).min)
EPS16 = torch.finfo(torch.half).eps
BF16 = torch.bfloat16
INT32_BITS = torch.iinfo(torch.int32).bits


@triton.jit
def k(f, i):
    tl.store(f, _MIN_FP16)
    tl.store(f + 1, EPS16)
    tl.store(f + 2, torch.finfo(BF16).eps)
    tl.store(f + 3, torch.finfo(torch.float32).max)
    tl.store(f + 4, torch.finfo(torch.float32).tiny)
    tl.store(f + 5, torch.finfo(torch.float8_e4m3fn).max)
    tl.store(f + 6, torch.finfo(torch.float16).resolution)
    tl.store(f + 7, torch.finfo(torch.float).resolution)
    tl.store(i, tl.full([], torch.iinfo(torch.int8).min, tl.int64))
    tl.store(i + 1, tl.full([], torch.iinfo(torch.short).max, tl.int64))
    tl.store(i + 2, tl.full([], torch.iinfo(torch.int64).min, tl.int64))
    tl.store(i + 3, tl.full([], torch.iinfo(torch.uint32).max, tl.int64))
    tl.store(i + 4, tl.full([], INT32_BITS, tl.int64))
    tl.store(i + 5, tl.full([], torch.finfo(torch.bfloat16).bits, tl.int64))
    # torch.float16 is tl.float16; finfo(...).dtype is torch's name
    tl.store(i + 6, tl.full([], torch.float16 == tl.float16, tl.int64))
    if torch.finfo(torch.float32).dtype == "float32":
        tl.store(i + 7, tl.full([], 2, tl.int64))
