/* codegen.h: tile IR (with layouts) to LLVM IR through the LLVM-C API, and on to text,
 * objects and shared objects. The only interface the driver uses. */
#ifndef TILECC_CODEGEN_CODEGEN_H
#define TILECC_CODEGEN_CODEGEN_H

#include <stdbool.h>
#include <stddef.h>

#include "ir/ir.h"
#include "tilecc/tilecc.h"

/* "19.1.7". */
const char *codegen_llvm_version(void);
/* 1 when LLVM was built with the named target ("nvptx64", "amdgcn", "riscv64", "x86-64"). */
int codegen_llvm_has_target(const char *llvm_name);

typedef struct codegen_opts {
	bool is_riscv;        /* riscv64 (rv64gcv, lp64d); else x86-64 */
	bool host;            /* no --target given: tune for this machine (-mcpu=native) */
	const char *cpu;      /* -mcpu, or NULL */
	const char *features; /* -mattr, or NULL */
	int opt_level;        /* -O0..-O3; -1 for the default (3) */
	strbuf *meta_out;     /* when set, each kernel's launch metadata text is appended */
	strbuf *time_out;     /* -ftime-report: when set, each phase's time is appended */
} codegen_opts;

/* Lowers every function of m for a CPU target and writes the requested output (LLVM IR
 * text, assembly, object or shared object) into *out (malloc'd, caller frees). Returns 0,
 * or non-zero after reporting through d. Analyses allocate from a. */
int codegen_cpu(ir_module *m, diag_engine *d, arena *a, const codegen_opts *o, tilecc_emit emit,
		char **out, size_t *len);

/* Lowers every function of m for NVIDIA GPU `arch` (sm_80 .. sm_90a) and writes LLVM IR,
 * PTX (TILECC_EMIT_PTX / TILECC_EMIT_ASM) or a cubin (through ptxas) into *out. With
 * time_out, the time of each phase (lowering, LLVM's optimization and code generation,
 * ptxas) is appended to it, as -ftime-report prints it. With a cubin and ptx_out, the PTX
 * it was assembled from goes to *ptx_out (malloc'd, caller frees). */
int codegen_nvptx(ir_module *m, diag_engine *d, arena *a, const char *arch, int opt_level,
		  strbuf *meta_out, strbuf *time_out, tilecc_emit emit, char **out, size_t *len,
		  char **ptx_out, size_t *ptx_len);

/* Lowers every function of m for AMD GPU `gpu` (gfx906, gfx90a, gfx942, ...; wave64) with
 * code object version code_object (4 or 5) and writes LLVM IR, AMDGCN assembly
 * (TILECC_EMIT_ASM), an ELF object or an HSACO (linked by ld.lld) into *out. */
int codegen_amdgpu(ir_module *m, diag_engine *d, arena *a, const char *gpu, int code_object,
		   int opt_level, strbuf *meta_out, strbuf *time_out, tilecc_emit emit, char **out,
		   size_t *len);

/* PTX to cubin in process through libnvJitLink (dlopen). Returns 0 with the cubin, 1 after
 * reporting a compile error, or -1 when the library is not available (use ptxas). */
int codegen_nvjitlink(diag_engine *d, const char *arch, const char *ptx, size_t n, char **out,
		      size_t *len);

#endif
