/* limits.h: the resource limits a kernel must stay within before the passes and LLVM see
 * it (a tile's element count; on GPU targets, a tile's elements per thread), each one
 * the user can raise with an option. */
#ifndef TILECC_DRIVER_LIMITS_H
#define TILECC_DRIVER_LIMITS_H

#include <stdint.h>

#include "ir/ir.h"

/* Triton's TRITON_MAX_TENSOR_NUMEL */
#define TILECC_DEFAULT_MAX_TILE_ELEMS ((int64_t)1 << 20)
/* A tile spread over a program's threads: more than this many elements each is unrolled
 * per thread into code LLVM takes minutes over (1024x1024 blocks on sm_80). */
#define TILECC_DEFAULT_MAX_ELEMS_PER_THREAD ((int64_t)2048)

typedef struct kernel_limits {
	int64_t max_tile_elems;       /* > 0 */
	int64_t max_elems_per_thread; /* > 0; checked when warp_size > 0 */
	int warp_size;                /* threads per warp of the GPU target; 0: not a GPU */
} kernel_limits;

/* Reports the first op of each function whose result tile exceeds a limit, at the op, with
 * the option that raises it. Returns the number of errors. */
int check_kernel_limits(const ir_module *m, diag_engine *d, const kernel_limits *l);

#endif
