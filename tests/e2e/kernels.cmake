# kernels.cmake: every kernel variant of the e2e tests, by harness:
#   e2e_kernel(HARNESS VARIANT FILE KERNEL SIGNATURE [NAME=VALUE ...])
# (NAME=VALUE: -D constexprs; num_warps=N: --num-warps N)

# ---- bench.c: the benchmark kernels (bench/kernels) at their default constexprs, without the ":16" hints
# on sizes (the sizes are awkward), and once more with the exact benchmark signature.
e2e_kernel(bench vadd bench/kernels/vadd.py vadd "*fp32:16, *fp32:16, *fp32:16, i32, 1024")
e2e_kernel(bench vadd_hint bench/kernels/vadd.py vadd "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024")
e2e_kernel(bench softmax bench/kernels/softmax.py softmax "*fp32:16, *fp32:16, i32, i32, i32, 4096")
e2e_kernel(bench softmax_hint bench/kernels/softmax.py softmax
           "*fp32:16, *fp32:16, i32:16, i32:16, i32:16, 4096")
e2e_kernel(bench layernorm bench/kernels/layernorm.py layernorm
           "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32, i32, fp32, 1024")
e2e_kernel(bench layernorm_hint bench/kernels/layernorm.py layernorm
           "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, fp32, 1024")
e2e_kernel(bench matmul bench/kernels/matmul.py matmul
           "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32:1, i32, i32:1, i32, i32:1, 128, 128, 64, 8")
e2e_kernel(bench matmul_hint bench/kernels/matmul.py matmul
           "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8")
# 8 warps (mma.sync: warps [4, 2], the pipelined loop with other fragment counts per warp)
e2e_kernel(bench matmul_hint_w8 bench/kernels/matmul.py matmul
           "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8"
           num_warps=8)
e2e_kernel(bench attention bench/kernels/attention.py attention
           "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32, fp32, i32:16, i32:16, 64, 128, 64")
e2e_kernel(bench attention_hint bench/kernels/attention.py attention
           "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32:16, fp32, i32:16, i32:16, 64, 128, 64")
# the same kernels' cubins for sm_90a: tl.dot on wgmma (matmul on 4 and 8 warps, attention
# at the bench's 8 warps and on 4)
e2e_kernel(bench matmul_wgmma bench/kernels/matmul.py matmul
           "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8"
           GPU_ARCH=sm_90a)
e2e_kernel(bench matmul_wgmma_w8 bench/kernels/matmul.py matmul
           "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8"
           num_warps=8 GPU_ARCH=sm_90a)
e2e_kernel(bench attention_wgmma bench/kernels/attention.py attention
           "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32:16, fp32, i32:16, i32:16, 64, 128, 64"
           num_warps=8 GPU_ARCH=sm_90a)
e2e_kernel(bench attention_wgmma_w4 bench/kernels/attention.py attention
           "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32:16, fp32, i32:16, i32:16, 64, 128, 64"
           GPU_ARCH=sm_90a)

# ---- elementwise.c: every integer and float dtype, and promotion pairs.
foreach(t i8 i16 i32 i64 u8 u16 u32 u64)
  set(p "*${t}")
  e2e_kernel(elementwise int_ops_${t} elementwise.py int_ops
             "${p}, ${p}, ${p}, ${p}, ${p}, ${p}, ${p}, ${p}, ${p}, ${p}, ${p}, ${p}, ${p}, *i32, ${p}, ${p}, ${p}, ${p}, i32, 256")
endforeach()
foreach(t fp16 bf16 fp32 fp64)
  set(p "*${t}")
  set(d "*${t}")  # x / y and x % y
  set(s "*${t}")  # x * (runtime i32)
  if(t STREQUAL "fp16" OR t STREQUAL "bf16")
    set(d "*fp32")
  endif()
  if(t STREQUAL "bf16")
    set(s "*fp32")
  endif()
  e2e_kernel(elementwise float_ops_${t} elementwise.py float_ops
             "${p}, ${p}, ${p}, ${p}, ${p}, ${d}, ${d}, *i32, ${p}, ${p}, ${p}, ${p}, ${s}, i32, i32, 256")
endforeach()
foreach(abc i8:i32:i32 i32:u32:u32 i32:i64:i64 u8:i16:i16 i8:u8:u8 u16:i64:i64 u32:u64:u64
        fp16:bf16:fp16 fp32:fp64:fp64 bf16:fp32:fp32 fp16:i32:fp16 i64:fp32:fp32 u8:fp16:fp16
        bf16:i8:fp32 i16:fp64:fp64)
  string(REPLACE ":" ";" abc "${abc}")
  list(GET abc 0 a)
  list(GET abc 1 b)
  list(GET abc 2 c)
  e2e_kernel(elementwise mixed_${a}_${b} elementwise.py mixed "*${a}, *${b}, *${c}, *${c}, i32, 256")
endforeach()
e2e_kernel(elementwise weak_int_i8 elementwise.py weak_int "*i8, *i8, i32, 256")
e2e_kernel(elementwise weak_int_i16 elementwise.py weak_int "*i16, *i16, i32, 256")
e2e_kernel(elementwise weak_int_u8 elementwise.py weak_int "*u8, *u8, i32, 256")
e2e_kernel(elementwise number_locals elementwise.py number_locals "*i8, *fp16, *i32, *u32, *fp32, i32, 256")

# ---- convert.c: .to() between dtypes (value conversions and bitcasts).
foreach(ab fp32:fp16 fp16:fp32 fp32:bf16 bf16:fp32 fp16:bf16 bf16:fp16 fp64:fp32 fp32:fp64
        fp64:fp16 fp32:i32 fp32:u8 fp32:i8 fp16:i16 fp64:i64 bf16:i32 fp32:u32 fp64:u64
        i32:fp32 i64:fp64 u32:fp32 u64:fp32 i8:fp16 u16:fp16 i32:bf16 i64:fp16
        i32:i8 i8:i64 u8:i32 u32:i64 i64:u16 i16:u64 u64:i8)
  string(REPLACE ":" ";" ab "${ab}")
  list(GET ab 0 a)
  list(GET ab 1 b)
  e2e_kernel(convert conv_${a}_${b} convert.py convert "*${a}, *${b}, i32, 128")
endforeach()
foreach(ab fp32:i32 i32:fp32 fp16:i16 u64:fp64 bf16:u16)
  string(REPLACE ":" ";" ab "${ab}")
  list(GET ab 0 a)
  list(GET ab 1 b)
  e2e_kernel(convert bitcast_${a}_${b} convert.py bitcast "*${a}, *${b}, i32, 128")
endforeach()
e2e_kernel(convert cast_chain convert.py cast_chain "*fp32, *fp32, i32, 128")

# ---- math.c: math functions in fp32 and fp64, helpers, integer math.
e2e_kernel(math unary_fp32 math.py unary "*fp32, *fp32, *fp32, i32, 256")
e2e_kernel(math unary_fp64 math.py unary "*fp64, *fp64, *fp64, i32, 256")
e2e_kernel(math ternary_fp32 math.py ternary "*fp32, *fp32, *fp32, *fp32, fp32, i32, 256")
e2e_kernel(math int_math math.py int_math "*i32, *u32, *i32, *u32, i32, 256")

# ---- reduce.c: reductions and scans on fp32 and int32 tiles (masked to M x N).
e2e_kernel(reduce reduce_fp32 reduce.py reduce2d "*fp32, *fp32, *fp32, *i32, *fp32, i32, i32, 32, 64, -1000000, 1000000")
e2e_kernel(reduce reduce_i32 reduce.py reduce2d "*i32, *i32, *i32, *i32, *i32, i32, i32, 32, 64, -1000000, 1000000")
e2e_kernel(reduce reduce_one reduce.py reduce2d "*fp32, *fp32, *fp32, *i32, *fp32, i32, i32, 1, 1, -1000000, 1000000")
e2e_kernel(reduce scan_fp32 reduce.py scan2d "*fp32, *fp32, i32, i32, 16, 64")
e2e_kernel(reduce scan_i32 reduce.py scan2d "*i32, *i32, i32, i32, 16, 64")

# ---- control.c: control flow and helpers.
e2e_kernel(control control control.py control "*fp32, *fp32, *fp32, *i32, i32, i32, 64")

# ---- memory.c: atomics, block pointers, masks.
e2e_kernel(memory atomics memory.py atomics
           "*i32, *fp32, *i32, *i32, *i32, *i32, *fp32, *i32, *i32, *i32, i32, 64")
e2e_kernel(memory block_ptrs memory.py block_ptrs "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, 16, 32")
e2e_kernel(memory masked memory.py masked "*fp32, *fp32, *fp32, i32, 128")
e2e_kernel(memory bool_masks memory.py bool_masks "*fp32:16, *i1:16, *fp32:16, *i1:16, i32, 128")
e2e_kernel(memory transposed memory.py transposed "*fp16:16, *fp16:16, *fp16:16, i32, i32:16, i32, 64, 32")
e2e_kernel(memory ptr_walk memory.py ptr_walk "*fp32, *fp32, i32, i32, 64")

# ---- sync.c: scalar atomics seen by every thread (locks, tickets, cas loops), each with 1, 4
# and 8 warps per program.
foreach(w 1 4 8)
  e2e_kernel(sync spin_lock_w${w} sync.py spin_lock "*i32, *i32, *i32, *i32, *i32, i32, 64"
             num_warps=${w})
  e2e_kernel(sync tickets_w${w} sync.py tickets "*i32, *i32, *i32, *i32, *i32, 128, 16"
             num_warps=${w})
  e2e_kernel(sync cas_add_w${w} sync.py cas_add "*i32, *i32, *i32, 'gpu'" num_warps=${w})
endforeach()
e2e_kernel(sync cas_add_cta sync.py cas_add "*i32, *i32, *i32, 'cta'")
e2e_kernel(sync cas_add_sys sync.py cas_add "*i32, *i32, *i32, 'sys'")

# ---- shapes.c: shape operations.
e2e_kernel(shapes shapes_fp32 shapes.py shapes "*fp32, *fp32, 8, 16")
e2e_kernel(shapes shapes_i32 shapes.py shapes "*i32, *i32, 16, 4")

# ---- dot.c: tl.dot in several input types.
#   dot(a, b, c0, c, M, N, K, BM, BN, BK, ACC_T, PREC, OUT16)
e2e_kernel(dot dot_fp32 dot.py dot "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, 32, 32, 16, fp32, 1, 0")
e2e_kernel(dot dot_fp32_default dot.py dot "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, 16, 32, 32, fp32, 0, 0")
e2e_kernel(dot dot_fp16 dot.py dot "*fp16, *fp16, *fp32, *fp32, i32, i32, i32, 32, 64, 32, fp32, 0, 0")
e2e_kernel(dot dot_bf16 dot.py dot "*bf16, *bf16, *fp32, *fp32, i32, i32, i32, 32, 32, 32, fp32, 0, 0")
e2e_kernel(dot dot_fp16_out16 dot.py dot "*fp16, *fp16, *fp32, *fp32, i32, i32, i32, 32, 32, 16, fp32, 0, 1")
e2e_kernel(dot dot_i8 dot.py dot "*i8, *i8, *i32, *i32, i32, i32, i32, 32, 32, 32, int32, 0, 0")
# tensor-core shapes on NVIDIA (mma.sync): warps 2x2, 4x2, a single odd column tile (the
# .x2 fetch), and a bench-sized block; the same kernels on the FMA path elsewhere
e2e_kernel(dot dot_fp16_mma dot.py dot "*fp16, *fp16, *fp32, *fp32, i32, i32, i32, 64, 64, 32, fp32, 0, 0")
e2e_kernel(dot dot_bf16_mma_w8 dot.py dot "*bf16, *bf16, *fp32, *fp32, i32, i32, i32, 128, 64, 64, fp32, 0, 0"
           num_warps=8)
e2e_kernel(dot dot_fp16_mma_x2 dot.py dot "*fp16, *fp16, *fp32, *fp32, i32, i32, i32, 16, 32, 16, fp32, 0, 0")
e2e_kernel(dot dot_fp16_mma_big dot.py dot "*fp16, *fp16, *fp32, *fp32, i32, i32, i32, 128, 128, 64, fp32, 0, 0"
           num_warps=8)
# wgmma on sm_90a (the GPU cubins; the CPU builds run the same kernels on the FMA path): the
# bench block (warps [4, 1], m64n128k16 twice along M), bf16 with 64B/128B swizzles, 8 warps
# as two warpgroups along M ([8, 1]) and side by side along N ([4, 2], B in panels with a
# 32B-swizzled A), a narrow N (m64n32k16, 64B-swizzled B)
e2e_kernel(dot dot_fp16_wgmma dot.py dot "*fp16, *fp16, *fp32, *fp32, i32, i32, i32, 128, 128, 64, fp32, 0, 0"
           GPU_ARCH=sm_90a)
e2e_kernel(dot dot_bf16_wgmma dot.py dot "*bf16, *bf16, *fp32, *fp32, i32, i32, i32, 64, 64, 32, fp32, 0, 0"
           GPU_ARCH=sm_90a)
e2e_kernel(dot dot_fp16_wgmma_w8 dot.py dot "*fp16, *fp16, *fp32, *fp32, i32, i32, i32, 128, 64, 32, fp32, 0, 0"
           num_warps=8 GPU_ARCH=sm_90a)
e2e_kernel(dot dot_bf16_wgmma_w8n dot.py dot "*bf16, *bf16, *fp32, *fp32, i32, i32, i32, 64, 128, 16, fp32, 0, 0"
           num_warps=8 GPU_ARCH=sm_90a)
e2e_kernel(dot dot_fp16_wgmma_n32 dot.py dot "*fp16, *fp16, *fp32, *fp32, i32, i32, i32, 64, 32, 64, fp32, 0, 0"
           GPU_ARCH=sm_90a)
e2e_kernel(dot bdot_fp16 dot.py bdot "*fp16, *fp16, *fp32, i32, i32, i32, i32, 2, 16, 16, 16")
# the bench matmul's loop (kernels/dot.py, mm): pointer tiles advanced by the loop, wrapped
# rows and columns, K masked, an accumulator in; fp32, fp16 and bf16 in, fp32 or fp16 out
#   mm(a, b, c0, c, M, N, K, stride_am, stride_bk, stride_cm, BM, BN, BK, OUT_T)
e2e_kernel(dot mm_fp32 dot.py mm "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, i32, i32, i32, 64, 64, 32, fp32")
e2e_kernel(dot mm_fp16 dot.py mm "*fp16, *fp16, *fp32, *fp16, i32, i32, i32, i32, i32, i32, 32, 64, 32, fp16")
e2e_kernel(dot mm_bf16 dot.py mm "*bf16, *bf16, *fp32, *fp32, i32, i32, i32, i32, i32, i32, 16, 32, 16, fp32")
# N and the leading dimensions of B and C ":16": on CPUs B's wrapped columns come in runs of 16
# read straight from memory (tests: exact buffers before a guard page)
e2e_kernel(dot mm_fp32_h16 dot.py mm "*fp32, *fp32, *fp32, *fp32, i32, i32:16, i32, i32, i32:16, i32:16, 64, 64, 32, fp32")
# the CPU micro-kernel's blocks of rows (6 x 16 on AVX2, 8 x 32 on AVX-512): the bench's
# 128 x 128 x 64 (on AVX2 21 x 6 + 2 rows, taken as 20 x 6 + 4 + 4, with a share of B's next
# rows prefetched per block) and 32 x 16 x 16 (5 x 6 + 2: 4 x 6 + 4 + 4, one panel; on AVX-512
# one vector of columns, 2 x 16 rows); AMD left out (blocks sized for CPUs)
e2e_kernel(dot mm_fp32_b128 dot.py mm "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, i32, i32, i32, 128, 128, 64, fp32"
           NO_AMDGPU)
e2e_kernel(dot mm_fp32_m32 dot.py mm "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, i32, i32, i32, 32, 16, 16, fp32"
           NO_AMDGPU)

# ---- dot_tc.c: tl.dot in the other tensor-core dtypes (on NVIDIA mma.sync, wgmma on sm_90a
# for tf32 and int8; FMA on the CPUs,
# for "ieee" and for fp8); TA/TB: A and B transposed in memory.
#   dot_tc(a, b, c0, c, M, N, K, BM, BN, BK, ACC_T, PREC, TA, TB, F16ACC)
e2e_kernel(dot_tc dot_tc_tf32 dot_tc.py dot_tc "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, 64, 64, 32, fp32, 0, 0, 0, 0")
e2e_kernel(dot_tc dot_tc_tf32_t dot_tc.py dot_tc "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, 32, 64, 16, fp32, 0, 1, 1, 0")
e2e_kernel(dot_tc dot_tc_tf32_w8 dot_tc.py dot_tc "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, 128, 64, 32, fp32, 0, 0, 1, 0"
           num_warps=8 GPU_ARCH=sm_90a)
e2e_kernel(dot_tc dot_tc_tf32x3 dot_tc.py dot_tc "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, 32, 32, 16, fp32, 2, 0, 0, 0")
e2e_kernel(dot_tc dot_tc_ieee dot_tc.py dot_tc "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, 32, 32, 16, fp32, 1, 1, 0, 0")
e2e_kernel(dot_tc dot_tc_i8 dot_tc.py dot_tc "*i8, *i8, *i32, *i32, i32, i32, i32, 64, 64, 64, int32, 0, 0, 0, 0")
e2e_kernel(dot_tc dot_tc_i8_t dot_tc.py dot_tc "*i8, *i8, *i32, *i32, i32, i32, i32, 32, 32, 32, int32, 0, 1, 1, 0"
           num_warps=8)
e2e_kernel(dot_tc dot_tc_i8_90a dot_tc.py dot_tc "*i8, *i8, *i32, *i32, i32, i32, i32, 128, 128, 64, int32, 0, 0, 0, 0"
           GPU_ARCH=sm_90a)
# wgmma's tf32 (m64nNk8) and int8 (m64nNk32) forms on sm_90a, both operands K-major in
# shared memory: B staged column-major whichever way it is loaded (row-major: transposed
# through registers; TB: its runs along K kept), A row-major (TA: transposed)
e2e_kernel(dot_tc dot_tc_tf32_90a dot_tc.py dot_tc "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, 64, 64, 32, fp32, 0, 0, 0, 0"
           GPU_ARCH=sm_90a)
e2e_kernel(dot_tc dot_tc_tf32_t_90a dot_tc.py dot_tc "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, 64, 128, 32, fp32, 0, 1, 1, 0"
           GPU_ARCH=sm_90a)
e2e_kernel(dot_tc dot_tc_i8_t_90a dot_tc.py dot_tc "*i8, *i8, *i32, *i32, i32, i32, i32, 64, 32, 128, int32, 0, 1, 1, 0"
           GPU_ARCH=sm_90a)
e2e_kernel(dot_tc dot_tc_i8_w8_90a dot_tc.py dot_tc "*i8, *i8, *i32, *i32, i32, i32, i32, 128, 128, 128, int32, 0, 0, 1, 0"
           num_warps=8 GPU_ARCH=sm_90a)
e2e_kernel(dot_tc dot_tc_f16acc dot_tc.py dot_tc "*fp16, *fp16, *fp16, *fp16, i32, i32, i32, 64, 64, 32, fp16, 0, 0, 0, 1")
e2e_kernel(dot_tc dot_tc_f16acc_t dot_tc.py dot_tc "*fp16, *fp16, *fp16, *fp16, i32, i32, i32, 32, 16, 16, fp16, 0, 1, 1, 1"
           GPU_ARCH=sm_90a)
# fp8: wgmma m64nNk32 on sm_90a (both operands K-major, as int8), mma.sync m16n8k32 on
# sm_90 (sm_89 and later), FMA on the CPUs; dot_fp8 with max_num_imprecise_acc (fp8 only:
# on wgmma each IMP-deep slice of K is summed apart and added in fp32)
e2e_kernel(dot_tc dot_tc_fp8e4 dot_tc.py dot_tc "*fp8e4nv, *fp8e4nv, *fp32, *fp32, i32, i32, i32, 64, 64, 32, fp32, 0, 0, 0, 0"
           GPU_ARCH=sm_90a)
e2e_kernel(dot_tc dot_tc_fp8e5_t dot_tc.py dot_tc "*fp8e5, *fp8e5, *fp32, *fp32, i32, i32, i32, 64, 32, 32, fp32, 0, 1, 1, 0")
e2e_kernel(dot_tc dot_tc_fp8e4_w8 dot_tc.py dot_tc "*fp8e4nv, *fp8e4nv, *fp32, *fp32, i32, i32, i32, 64, 64, 64, fp32, 0, 0, 0, 0"
           num_warps=8)
e2e_kernel(dot_tc dot_tc_fp8e5_90a dot_tc.py dot_tc "*fp8e5, *fp8e5, *fp32, *fp32, i32, i32, i32, 128, 128, 64, fp32, 0, 0, 0, 0"
           GPU_ARCH=sm_90a)
e2e_kernel(dot_tc dot_tc_fp8e4_t_90a dot_tc.py dot_tc "*fp8e4nv, *fp8e4nv, *fp32, *fp32, i32, i32, i32, 64, 64, 64, fp32, 0, 1, 1, 0"
           num_warps=8 GPU_ARCH=sm_90a)
e2e_kernel(dot_tc dot_fp8e4_imp32_90a dot_tc.py dot_fp8 "*fp8e4nv, *fp8e4nv, *fp32, *fp32, i32, i32, i32, 64, 128, 128, 32"
           GPU_ARCH=sm_90a)
e2e_kernel(dot_tc dot_fp8e5_imp64_90a dot_tc.py dot_fp8 "*fp8e5, *fp8e5, *fp32, *fp32, i32, i32, i32, 128, 64, 128, 64"
           num_warps=8 GPU_ARCH=sm_90a)
e2e_kernel(dot_tc dot_fp8e4_imp0 dot_tc.py dot_fp8 "*fp8e4nv, *fp8e4nv, *fp32, *fp32, i32, i32, i32, 64, 64, 64, 0")

# ---- random.c: Philox (tl.rand, randn, randint, randint4x, philox, ...), bit for bit.
#   rng32(out_u, out_f, seed, base, n, BLOCK, N_ROUNDS): the seed as i64 or as i32
e2e_kernel(random rng32_s64 random.py rng32 "*u32, *fp32, i64, i32, i32, 256, 10")
e2e_kernel(random rng32_s32 random.py rng32 "*u32, *fp32, i32, i32, i32, 128, 10")
e2e_kernel(random rng32_r7 random.py rng32 "*u32, *fp32, i64, i32, i32, 64, 7")
e2e_kernel(random rng64 random.py rng64 "*u64, *fp32, i64, i64, i32, 128")
e2e_kernel(random philox random.py philox "*u32, *i64, *u32, *fp32, i64, i32, 128")

# ---- libdevice.c: libdevice's functions in fp32 and fp64, against long double libm.
foreach(t fp32 fp64)
  e2e_kernel(libdevice ld_unary_${t} libdevice.py unary "*${t}, *${t}, i32, 128")
  e2e_kernel(libdevice ld_binary_${t} libdevice.py binary "*${t}, *${t}, *i32, *${t}, *i32, i32, 128")
endforeach()

# ---- surface.c: optional pointers (None), dtype queries, constexpr-annotated helper
# parameters fed with tensors, tl.range keywords, weak Python ints.
e2e_kernel(surface bias_fp32 surface.py opt_bias "*fp32, *fp32, *fp32, i32, None, 128")
e2e_kernel(surface nobias_fp32 surface.py opt_bias "*fp32, None, *fp32, i32")
e2e_kernel(surface scaled_fp32 surface.py opt_bias "*fp32, None, *fp32, i32, *fp32, 64")
e2e_kernel(surface bias_fp16 surface.py opt_bias "*fp16, *fp16, *fp16, i32, None, 128")
foreach(t u8 u16 u32 u64 i8 i16 i32)
  e2e_kernel(surface weak_${t} surface.py weak_ints "*${t}, *${t}, i32, 128")
endforeach()

# ---- sort.c: tl.sort, tl.topk, tl.flip, tl.gather, tl.histogram.
#   sort_rows(x, out, top, M, N, BM, BN, DESC, K)
e2e_kernel(sort sort_fp32 sort.py sort_rows "*fp32, *fp32, *fp32, i32, i32, 8, 64, 0, 16")
e2e_kernel(sort sort_fp32_desc sort.py sort_rows "*fp32, *fp32, *fp32, i32, i32, 8, 64, 1, 16")
e2e_kernel(sort sort_fp16_desc sort.py sort_rows "*fp16, *fp16, *fp16, i32, i32, 8, 64, 1, 1")
e2e_kernel(sort sort_bf16 sort.py sort_rows "*bf16, *bf16, *bf16, i32, i32, 8, 64, 0, 1")
e2e_kernel(sort sort_i32_desc sort.py sort_rows "*i32, *i32, *i32, i32, i32, 4, 32, 1, 8")
e2e_kernel(sort sort_u8 sort.py sort_rows "*u8, *u8, *u8, i32, i32, 4, 32, 0, 8")
e2e_kernel(sort gather_flip sort.py gather_flip "*fp32, *i32, *i64, *fp32, *fp32, *fp32, *fp32, 8, 16, 32")
e2e_kernel(sort hist_i32 sort.py hist "*i32, *i32, i32, 64, 256")
e2e_kernel(sort hist_u8 sort.py hist "*u8, *i32, i32, 64, 256")
e2e_kernel(sort hist_i64 sort.py hist "*i64, *i32, i32, 64, 256")

# ---- desc.c: tensor descriptors (tl.make_tensor_descriptor, load, store, atomic_add).
e2e_kernel(desc desc_fp32 desc.py desc_copy "*fp32, *fp32, *fp32, i32, i32, i32, i32, i32:1, 16, 32")
# host-made descriptors: kernel parameters of Triton's type tensordesc<...> (docs/abi.md)
e2e_kernel(desc desc_host_fp32 desc.py desc_host "tensordesc<fp32[16, 32]>, tensordesc<fp32[16, 32]>, *i32, 16, 32")

# ---- asm.c: tl.inline_asm_elementwise (PTX text; CPU targets run the cpu= variant).
e2e_kernel(asm asm_shift_add asm.py asm_shift_add "*i32, *i32, *i32, i32, 128" NO_AMDGPU)
e2e_kernel(asm asm_multi asm.py asm_multi "*i32, *i32, *i32, *fp32, i32, 128" NO_AMDGPU)
e2e_kernel(asm asm_pack asm.py asm_pack "*u8, *i8, *fp16, *fp16, *i32, i32, 512" NO_AMDGPU)

# ---- bigkernel.c: one kernel of tens of thousands of ops (tl.static_range unrolls N bodies):
# at N=2000 its function takes the reduced LLVM pipeline of huge functions (lib/codegen/emit.c)
# on every target; at N=40 it stays on default<O3>.
e2e_kernel(bigkernel bigkernel bigkernel.py bigkernel
           "*fp32:16, *fp32:16, *fp32:16, *i32:16, *fp32, *i32, i32, 2000, 256")
e2e_kernel(bigkernel bigkernel_small bigkernel.py bigkernel
           "*fp32:16, *fp32:16, *fp32:16, *i32:16, *fp32, *i32, i32, 40, 256")
