/* gpu_layout.h: how the NVIDIA (and, later, AMD) lowering distributes a tile over the
 * threads of a program, shared by the GPU passes that plan around it and the lowering that
 * carries it out. A tile of N elements on T threads: each thread holds E = N / T elements
 * (N >= T), in groups of V consecutive ones; thread t holds the flattened indices
 * ((e / V) * T + t) * V + e % V. A tile smaller than the CTA is replicated. */
#ifndef TILECC_TRANSFORMS_GPU_LAYOUT_H
#define TILECC_TRANSFORMS_GPU_LAYOUT_H

#include <stdint.h>

/* Elements each thread holds. */
static inline int gpu_per_thread(int64_t numel, int threads)
{
	return numel >= threads ? (int)(numel / threads) : 1;
}

/* Consecutive elements a thread holds together (at most 4: one 16-byte access of fp32). */
static inline int gpu_group(int64_t numel, int threads)
{
	int e = gpu_per_thread(numel, threads);
	return e >= 4 ? 4 : e;
}

#endif
