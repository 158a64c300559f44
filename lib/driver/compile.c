/* compile.c: tilecc_compile(), the library's one entry point for a compilation: source to
 * AST to tile IR, the pass pipeline, then the requested output. Owns the compilation's
 * arena; reports through the caller's handler; never prints, never exits. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/target.h"
#include "driver/compile_int.h"
#include "driver/header.h"
#include "driver/limits.h"
#include "codegen/codegen.h"
#include "frontend/ast.h"
#include "frontend/sema.h"
#include "ir/ir.h"
#ifdef TILECC_HAVE_MLIR
#include "mlir/ttir.h"
#endif
#include "support/arena.h"
#include "support/diag.h"
#include "support/strbuf.h"
#include "tilecc/tilecc.h"
#include "transforms/pass.h"

struct tilecc_compiler {
	tilecc_diag_handler handler;
	void *user;
};

tilecc_compiler *tilecc_compiler_create(void)
{
	return calloc(1, sizeof(tilecc_compiler));
}

void tilecc_compiler_destroy(tilecc_compiler *c)
{
	free(c);
}

void tilecc_set_diag_handler(tilecc_compiler *c, tilecc_diag_handler h, void *user)
{
	c->handler = h;
	c->user = user;
}

void tilecc_output_free(tilecc_output *out)
{
	free(out->data);
	free(out->report);
	free(out->source);
	out->data = out->report = out->source = NULL;
	out->size = out->report_size = out->source_size = 0;
}

size_t tilecc_num_targets(void)
{
	size_t n = 0;
	while (target_all[n])
		n++;
	return n;
}

const char *tilecc_target_name(size_t i)
{
	return i < tilecc_num_targets() ? target_all[i]->family : NULL;
}

const char *tilecc_target_description(size_t i)
{
	if (i >= tilecc_num_targets())
		return NULL;
	const target_desc *t = target_all[i];
	return codegen_llvm_has_target(t->llvm_target) ? t->description
						      : "(not in this LLVM build)";
}

const char *tilecc_llvm_version(void)
{
	return codegen_llvm_version();
}

const char *tilecc_mlir_version(void)
{
#ifdef TILECC_HAVE_MLIR
	return ttir_mlir_version();
#else
	return NULL;
#endif
}

/* Why a TTIR input or output cannot be had from this build. */
#ifndef TILECC_HAVE_MLIR
static const char no_mlir[] = "this tilecc was built without the MLIR bridge (TILECC_WITH_MLIR=OFF, "
			      "or CMake found no MLIR 19): it neither reads nor writes TTIR";
#endif

/* ---- the compilation ------------------------------------------------------------------ */


static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void timing(compilation *c, const char *phase, double start)
{
	if (c->o->time_report)
		strbuf_printf(&c->report, "  %-26s %9.3f ms\n", phase, now_ms() - start);
}

static int has_suffix(const char *s, const char *suf)
{
	size_t n = s ? strlen(s) : 0, m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

/* The kind of output: --emit, else the -o suffix, else tile IR on stdout. */
static tilecc_emit choose_emit(const tilecc_options *o)
{
	static const struct {
		const char *suffix;
		tilecc_emit emit;
	} by_suffix[] = {
	    {".ast", TILECC_EMIT_AST},     {".tir", TILECC_EMIT_TIR},     {".ll", TILECC_EMIT_LLVM},
	    {".s", TILECC_EMIT_ASM},       {".o", TILECC_EMIT_OBJ},       {".so", TILECC_EMIT_SHARED},
	    {".ptx", TILECC_EMIT_PTX},     {".cubin", TILECC_EMIT_CUBIN}, {".hsaco", TILECC_EMIT_HSACO},
	    {".h", TILECC_EMIT_HEADER},    {".ttir", TILECC_EMIT_TTIR},
	};
	if (o->emit != TILECC_EMIT_DEFAULT)
		return o->emit;
	for (size_t i = 0; i < sizeof by_suffix / sizeof by_suffix[0]; i++)
		if (has_suffix(o->output_name, by_suffix[i].suffix))
			return by_suffix[i].emit;
	return TILECC_EMIT_TIR;
}

/* Runs the passes named in the comma-separated list, with --print-after and --verify-each. */
static int run_pipeline(compilation *c, ir_module *m, const char *list)
{
	const char *p = list;
	while (*p) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char name[64];
		if (n == 0 || n >= sizeof name) {
			diag_error(c->d, SRCLOC_NONE, "bad pass list '%s'", list);
			return 1;
		}
		memcpy(name, p, n);
		name[n] = 0;
		const pass_info *pi = pass_lookup(name);
		if (!pi) {
			diag_error(c->d, SRCLOC_NONE, "unknown pass '%s'", name);
			return 1;
		}
		double t = now_ms();
		if (pi->run(m, c->d))
			return 1;
		timing(c, name, t);
		if (c->o->verify_each && ir_verify_module(m, c->d)) {
			diag_internal(c->d, "IR invalid after pass '%s'", name);
			return 1;
		}
#ifndef NDEBUG
		/* debug builds: the use lists after every pass (linear; the tests run these) */
		for (const ir_func *f = m->funcs; f && !c->o->verify_each; f = f->next)
			if (ir_verify_uses(f, c->d)) {
				diag_internal(c->d, "use lists wrong after pass '%s'", name);
				return 1;
			}
#endif
		const char *pa = c->o->print_after;
		if (pa && (!strcmp(pa, "all") || !strcmp(pa, name))) {
			strbuf_printf(&c->report, "// -----// IR after %s //----- //\n", name);
			ir_print_module(&c->report, m, c->o->print_locations ? IR_PRINT_LOCS : 0);
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int compile_multi(compilation *c, tilecc_output *out);
static int compile_spec(compilation *c, tilecc_output *out);

/* Whether the signature asks for specialization variants (an entry TYPE:?). */
bool compile_wants_spec(const char *sig)
{
	for (const char *p = sig; p && (p = strstr(p, ":?")); p += 2) {
		const char *e = p + 2;
		while (*e == ' ' || *e == '\t')
			e++;
		if (!*e || *e == ',')
			return true;
	}
	return false;
}

static int compile(compilation *c, tilecc_output *out)
{
	const tilecc_options *o = c->o;
	if (o->tune_spec || o->tuning)
		return compile_tune(c, out);
	tilecc_emit emit = choose_emit(o);
	if (!c->in_spec && compile_wants_spec(o->signature)) {
		if (emit != TILECC_EMIT_HEADER) {
			uint32_t file = diag_add_source(c->d, "<signature>", o->signature,
							(uint32_t)strlen(o->signature));
			const char *q = strstr(o->signature, ":?");
			diag_error(c->d, (srcloc){file, 1, (uint32_t)(q - o->signature) + 1, 2},
				   "':?' asks for specialization variants, which only a header holds: "
				   "give -o FILE.h (or --emit=header), or a hint (:16, :1) or none");
			return 2;
		}
		return compile_spec(c, out);
	}
	if (o->target && strchr(o->target, ',') && emit != TILECC_EMIT_HEADER) {
		diag_error(c->d, SRCLOC_NONE, "several targets ('%s') make one header: give -o FILE.h "
			   "(or --emit=header)", o->target);
		return 2;
	}
	if (emit == TILECC_EMIT_HEADER && o->target &&
	    (strchr(o->target, ',') || (target_lookup(o->target) && target_lookup(o->target)->is_gpu)))
		return compile_multi(c, out);
	uint32_t file = diag_add_source(c->d, o->input_name ? o->input_name : "<input>", o->source,
					(uint32_t)o->source_len);
	if (o->source_len > 0x7fffffff) {
		diag_error(c->d, SRCLOC_NONE, "input too large");
		return 1;
	}
	if (o->target && !target_lookup(o->target)) {
		diag_error(c->d, SRCLOC_NONE, "unknown target '%s' (tilecc --version lists them)",
			   o->target);
		return 2;
	}
	for (int k = 0; k < 2; k++) {
		int64_t v = k ? o->max_elems_per_thread : o->max_tile_elems;
		if (v < 0 || v > ((int64_t)1 << 31)) {
			diag_error(c->d, SRCLOC_NONE, "%s takes a count from 1 to 2^31 (0: the default), "
				   "not %lld", k ? "max_elems_per_thread" : "max_tile_elems", (long long)v);
			return 2;
		}
	}
	if (o->code_object_version && o->code_object_version != 4 && o->code_object_version != 5) {
		diag_error(c->d, SRCLOC_NONE, "--code-object-version takes 4 or 5, not %d",
			   o->code_object_version);
		return 2;
	}
	strbuf text = {0};
	ir_module *m = NULL;
	double t;

	if (has_suffix(o->input_name, ".ttir")) {
		/* TTIR (MLIR text in Triton's dialects) through the MLIR bridge */
		if (emit == TILECC_EMIT_AST || emit == TILECC_EMIT_KERNELS) {
			diag_error(c->d, SRCLOC_NONE, "--emit=ast and --list-kernels need a Python input");
			return 2;
		}
#ifdef TILECC_HAVE_MLIR
		t = now_ms();
		m = ttir_import(c->ir, c->d, file, o->source, (uint32_t)o->source_len);
		timing(c, "parse TTIR (MLIR)", t);
		if (!m)
			return 1;
#else
		diag_error(c->d, SRCLOC_NONE, "%s", no_mlir);
		return 2;
#endif
	} else if (has_suffix(o->input_name, ".tir")) {
		/* Tile IR input: a test can start in the middle of the pipeline. */
		if (emit == TILECC_EMIT_AST || emit == TILECC_EMIT_KERNELS) {
			diag_error(c->d, SRCLOC_NONE, "--emit=ast and --list-kernels need a Python input");
			return 2;
		}
		t = now_ms();
		m = ir_parse_module(c->ir, c->d, file, o->source, (uint32_t)o->source_len);
		timing(c, "parse tile IR", t);
		if (!m)
			return 1;
	} else {
		t = now_ms();
		ast_module *ast = parse_module(c->a, c->names, c->d, file, o->source,
					       (uint32_t)o->source_len);
		timing(c, "parse", t);
		if (!ast)
			return 1;
		if (emit == TILECC_EMIT_AST) {
			ast_dump(&text, ast);
			goto done;
		}
		if (emit == TILECC_EMIT_KERNELS) {
			sema_list_kernels(&text, c->d, ast);
			goto done;
		}
		/* the search path for imports: -I, then TILECC_PATH */
		const char *env = o->ignore_tilecc_path ? NULL : getenv("TILECC_PATH");
		size_t nenv = 0;
		for (const char *q = env; q && *q; q++)
			nenv += *q == ':';
		const char **dirs = arena_alloc(c->a, sizeof *dirs * (o->num_include_dirs + nenv + 2));
		size_t nd = 0;
		for (size_t i = 0; i < o->num_include_dirs; i++)
			dirs[nd++] = o->include_dirs[i];
		for (const char *q = env; q && *q;) {
			const char *e = strchr(q, ':');
			size_t n = e ? (size_t)(e - q) : strlen(q);
			if (n)
				dirs[nd++] = arena_strndup(c->a, q, n);
			q += n + (e ? 1 : 0);
		}
		sema_spec spec = {.kernel = o->kernel,
				  .signature = o->signature,
				  .defines = o->defines,
				  .ndefines = o->num_defines,
				  .num_warps = o->num_warps,
				  .num_stages = o->num_stages,
				  .max_tile_elems = o->max_tile_elems,
				  .main_path = o->input_name,
				  .search_dirs = dirs,
				  .nsearch_dirs = nd};
		t = now_ms();
		m = sema_lower(c->ir, c->d, ast, &spec);
		timing(c, "sema (AST to tile IR)", t);
		if (!m)
			return 1;
	}
	t = now_ms();
	if (ir_verify_module(m, c->d))
		return 1;
	timing(c, "verify", t);
	c->kernel = m->funcs;
	{
		/* the GPU target the code is for, as below: its warp size bounds the work of
		 * each thread */
		const target_desc *lt = o->target ? target_lookup(o->target) : NULL;
		if (!lt && (emit == TILECC_EMIT_PTX || emit == TILECC_EMIT_CUBIN))
			lt = &nvptx_target;
		if (!lt && emit == TILECC_EMIT_HSACO)
			lt = &amdgpu_target;
		kernel_limits lim = {
		    .max_tile_elems = o->max_tile_elems ? o->max_tile_elems : TILECC_DEFAULT_MAX_TILE_ELEMS,
		    .max_elems_per_thread = o->max_elems_per_thread ? o->max_elems_per_thread
								    : TILECC_DEFAULT_MAX_ELEMS_PER_THREAD,
		    .warp_size = lt && lt->is_gpu ? lt->warp_size : 0,
		};
		if (check_kernel_limits(m, c->d, &lim))
			return 1;
	}

	const char *pipeline = o->passes ? o->passes : (o->opt_level == 0 ? "" : pass_default_pipeline);
	if (run_pipeline(c, m, pipeline))
		return 1;
	/* GPU targets: the warp size goes on each function, then the GPU passes plan the
	 * lowering (they run at -O0 too: the lowering relies on what they record) */
	const target_desc *gt = o->target ? target_lookup(o->target) : NULL;
	if ((emit == TILECC_EMIT_PTX || emit == TILECC_EMIT_CUBIN) && !gt)
		gt = &nvptx_target;
	if (emit == TILECC_EMIT_HSACO && !gt)
		gt = &amdgpu_target;
	if (gt && gt->is_gpu && emit != TILECC_EMIT_AST && emit != TILECC_EMIT_TIR &&
	    emit != TILECC_EMIT_TTIR) {
		/* NVIDIA: the compute capability (sm_90a: 90), which decides the dot instructions,
		 * and whether the arch-specific features of that capability are there (the 'a'
		 * of sm_90a: wgmma, setmaxnreg): {nv_arch_specific = 1} */
		int cc = 0;
		bool arch_specific = false;
		if (gt == &nvptx_target) {
			const char *arch = o->target && !strncmp(o->target, "sm_", 3) ? o->target : "sm_90";
			char *end;
			cc = (int)strtol(arch + 3, &end, 10);
			arch_specific = *end == 'a';
		}
		/* AMD: the processor ({amd_arch = "gfx942"}), which decides the dot instructions
		 * (MFMA on CDNA, dot2/dot4 on gfx906), and matrix_instr_nonkdim */
		const char *amd = gt == &amdgpu_target ? amdgpu_gpu_name(o->target) : NULL;
		for (ir_func *f = m->funcs; f; f = f->next) {
			ir_func_set_int(c->ir, f, "threads_per_warp", gt->warp_size);
			if (cc)
				ir_func_set_int(c->ir, f, "nv_cc", cc);
			if (amd) {
				ir_attr a = {.name = "amd_arch", .kind = IR_ATTR_STR, .s = amd};
				ir_func_set_attr(c->ir, f, &a);
				if (o->matrix_instr_nonkdim)
					ir_func_set_int(c->ir, f, "matrix_instr_nonkdim", o->matrix_instr_nonkdim);
			}
			if (arch_specific || ir_func_attr(f, "nv_arch_specific"))
				ir_func_set_int(c->ir, f, "nv_arch_specific", arch_specific); /* IR read from text */
		}
		const char *pl = amd ? pass_amd_pipeline : o->mma_prefetch ? pass_gpu_prefetch_pipeline : pass_gpu_pipeline;
		if (!o->passes && run_pipeline(c, m, pl))
			return 1;
	}

	switch (emit) {
	case TILECC_EMIT_TIR:
		t = now_ms();
		ir_print_module(&text, m, o->print_locations ? IR_PRINT_LOCS : 0);
		timing(c, "print tile IR", t);
		break;
	case TILECC_EMIT_TTIR:
#ifdef TILECC_HAVE_MLIR
		/* the tile IR of --emit=tir (before the GPU layouts) as MLIR text */
		t = now_ms();
		if (ttir_export(m, c->d, &text)) {
			strbuf_free(&text);
			return 1;
		}
		timing(c, "write TTIR (MLIR)", t);
		break;
#else
		diag_error(c->d, SRCLOC_NONE, "%s", no_mlir);
		return 2;
#endif
	case TILECC_EMIT_LLVM:
	case TILECC_EMIT_ASM:
	case TILECC_EMIT_OBJ:
	case TILECC_EMIT_SHARED:
	case TILECC_EMIT_PTX:
	case TILECC_EMIT_CUBIN:
	case TILECC_EMIT_HSACO:
	case TILECC_EMIT_HEADER: {
		const target_desc *td = o->target ? target_lookup(o->target) : target_host();
		if (!o->target && (emit == TILECC_EMIT_PTX || emit == TILECC_EMIT_CUBIN))
			td = &nvptx_target; /* -o k.ptx / k.cubin: the NVIDIA target, sm_90 */
		if (!o->target && emit == TILECC_EMIT_HSACO)
			td = &amdgpu_target; /* -o k.hsaco: the AMD target, gfx942 */
		if (emit == TILECC_EMIT_HSACO && td != &amdgpu_target) {
			diag_error(c->d, SRCLOC_NONE, "an HSACO is for AMD GPUs; --target=%s is not one",
				   o->target);
			return 2;
		}
		bool nv = td == &nvptx_target && emit != TILECC_EMIT_HEADER && emit != TILECC_EMIT_OBJ &&
			  emit != TILECC_EMIT_SHARED;
		bool amd = td == &amdgpu_target && emit != TILECC_EMIT_HEADER && emit != TILECC_EMIT_SHARED &&
			   emit != TILECC_EMIT_PTX && emit != TILECC_EMIT_CUBIN;
		if (nv || amd) {
			strbuf *meta = o->print_metadata ? &c->report : NULL;
			strbuf *tr = o->time_report ? &c->report : NULL;
			t = now_ms();
			char *bytes = NULL;
			size_t n = 0;
			int rc = nv ? codegen_nvptx(m, c->d, c->a,
						    o->target && !strncmp(o->target, "sm_", 3) ? o->target : "sm_90",
						    o->opt_level, meta, tr, emit, &bytes, &n,
						    c->want_ptx ? &c->ptx : NULL, &c->ptx_size)
				    : codegen_amdgpu(m, c->d, c->a, amdgpu_gpu_name(o->target),
						     o->code_object_version ? o->code_object_version : 5,
						     o->opt_level, meta, tr, emit, &bytes, &n);
			timing(c, nv ? "NVPTX back end, in all" : "AMDGPU back end, in all", t);
			if (rc)
				return rc;
			out->data = bytes;
			out->size = n;
			return 0;
		}
		if (td->is_gpu) {
			diag_error(c->d, SRCLOC_NONE,
				   "tilecc cannot emit that output for %s (NVIDIA: --emit=llvm|ptx|cubin; "
				   "AMD: --emit=llvm|amdgcn|obj|hsaco)", td->family);
			return 2;
		}
		codegen_opts co = {.is_riscv = td == &riscv_target,
				   .host = !o->target,
				   .cpu = o->mcpu,
				   .features = o->mattr,
				   .opt_level = o->opt_level,
				   .meta_out = o->print_metadata ? &c->report : NULL,
				   .time_out = o->time_report ? &c->report : NULL};
		t = now_ms();
		char *bytes = NULL;
		size_t n = 0;
		int rc = codegen_cpu(m, c->d, c->a, &co,
				     emit == TILECC_EMIT_HEADER ? TILECC_EMIT_SHARED : emit, &bytes, &n);
		timing(c, "back end, in all", t);
		if (rc)
			return rc;
		if (emit == TILECC_EMIT_HEADER) {
			/* the source includes the header by its base name */
			const char *hn = o->output_name ? strrchr(o->output_name, '/') : NULL;
			hn = hn ? hn + 1 : o->output_name ? o->output_name : "kernel.h";
			strbuf src = {0};
			header_write(&text, &src, m->funcs, hn, td->family, bytes, n);
			free(bytes);
			out->source = strbuf_take(&src, &out->source_size);
			break;
		}
		out->data = bytes;
		out->size = n;
		return 0;
	}
	default:
		diag_error(c->d, SRCLOC_NONE,
			   "this build of tilecc cannot emit that output yet: ast, tir, llvm, asm, obj "
			   "and shared are implemented");
		return 2;
	}
done:
	if (text.oom) {
		diag_internal(c->d, "out of memory while printing");
		strbuf_free(&text);
		return 3;
	}
	out->data = strbuf_take(&text, &out->size);
	return 0;
}

/* ---- headers for GPU targets and for several targets ------------------------------------ */

static const char *arena_memdup(arena *a, const char *p, size_t n)
{
	char *q = arena_alloc(a, n ? n : 1);
	if (n)
		memcpy(q, p, n);
	return q;
}

/* One entry of the --target list, as the header names it and as the compilation takes it. */
typedef struct target_entry {
	const char *given;  /* as written */
	const char *name;   /* canonical: "sm_90a", "gfx906" (for dcu), "x86-64", "riscv64" */
	const char *option; /* the --target of its compilation (NULL: the host) */
	const target_desc *td;
} target_entry;

/* Splits the comma-separated list into entries; an unknown or repeated target, or an empty
 * entry, is an error. */
static int parse_targets(compilation *c, const char *list, target_entry **out, size_t *nout)
{
	size_t cap = 1;
	for (const char *p = list; *p; p++)
		cap += *p == ',';
	target_entry *t = arena_alloc(c->a, sizeof *t * cap);
	size_t n = 0;
	for (const char *p = list;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *given = arena_strndup(c->a, p, len);
		if (!len) {
			diag_error(c->d, SRCLOC_NONE, "empty entry in the target list '%s'", list);
			return 2;
		}
		const target_desc *td = target_lookup(given);
		if (!td) {
			diag_error(c->d, SRCLOC_NONE, "unknown target '%s' in '%s' (tilecc --version lists "
				   "them)", given, list);
			return 2;
		}
		target_entry *te = &t[n];
		te->given = given;
		te->td = td;
		te->option = given;
		if (td == &nvptx_target)
			te->name = te->option = strncmp(given, "sm_", 3) ? "sm_90" : given;
		else if (td == &amdgpu_target)
			te->name = te->option = amdgpu_gpu_name(given);
		else
			te->name = td->family;
		if (!strcmp(given, "host"))
			te->option = NULL;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(t[i].name, te->name)) {
				if (!strcmp(t[i].given, given))
					diag_error(c->d, SRCLOC_NONE, "target '%s' is given twice in '%s'", given, list);
				else
					diag_error(c->d, SRCLOC_NONE, "target '%s' is given twice in '%s' (as '%s' "
						   "and '%s')", te->name, list, t[i].given, given);
				return 2;
			}
		n++;
		if (!e)
			break;
		p = e + 1;
	}
	*out = t;
	*nout = n;
	return 0;
}

/* The artifacts of kernel o for each target of the list: each target compiled in turn (the
 * whole front end and pipeline each time: the GPU passes rewrite the module), an NVIDIA
 * target giving its cubin and its PTX. The bytes live in the arena; names gets the
 * targets' names for the header's comments; c->kernel is the first compilation's kernel. */
int compile_artifacts(compilation *c, const tilecc_options *o, const char *list,
		      header_artifact **arts_out, size_t *na_out, strbuf *names)
{
	target_entry *t;
	size_t nt;
	int rc = parse_targets(c, list, &t, &nt);
	if (rc)
		return rc;
	const tilecc_options *saved = c->o;
	header_artifact *arts = arena_alloc(c->a, sizeof *arts * 2 * nt);
	size_t na = 0;
	const ir_func *kernel = NULL;
	for (size_t i = 0; i < nt && !rc; i++) {
		tilecc_options sub = *o;
		sub.target = t[i].option;
		sub.emit = t[i].td == &nvptx_target ? TILECC_EMIT_CUBIN
			   : t[i].td == &amdgpu_target ? TILECC_EMIT_HSACO
						     : TILECC_EMIT_SHARED;
		tilecc_output r = {0};
		c->o = &sub;
		c->want_ptx = t[i].td == &nvptx_target;
		c->ptx = NULL;
		rc = compile(c, &r);
		c->o = saved;
		if (!rc && diag_error_count(c->d))
			rc = 1;
		if (rc) {
			if (strcmp(list, "host")) /* not a header's own host target */
				diag_note(c->d, SRCLOC_NONE, "while compiling kernel for target '%s' of '%s'",
					  t[i].given, list);
			tilecc_output_free(&r);
			free(c->ptx);
			break;
		}
		if (!kernel)
			kernel = c->kernel;
		if (names)
			strbuf_printf(names, "%s%s", i ? ", " : "", t[i].name);
		/* the bytes move into the arena so that one place frees them */
		header_artifact *a = &arts[na++];
		a->target = t[i].name;
		a->bytes = arena_memdup(c->a, r.data, r.size);
		a->size = r.size;
		if (t[i].td == &nvptx_target) {
			a->format = "CUBIN";
			a->label = arena_printf(c->a, "%s cubin", t[i].name);
			header_artifact *p = &arts[na++];
			p->target = t[i].name;
			p->format = "PTX";
			p->label = arena_printf(c->a, "%s ptx", t[i].name);
			p->bytes = arena_memdup(c->a, c->ptx, c->ptx_size);
			p->size = c->ptx_size;
		} else if (t[i].td == &amdgpu_target) {
			a->format = "HSACO";
			a->label = arena_printf(c->a, "%s hsaco", t[i].name);
		} else {
			a->format = "HOST";
			a->label = t[i].name;
		}
		free(c->ptx);
		c->ptx = NULL;
		tilecc_output_free(&r);
	}
	c->want_ptx = false;
	if (!rc && !kernel) {
		diag_internal(c->d, "no kernel after compiling for '%s'", list);
		rc = 3;
	}
	c->kernel = kernel;
	*arts_out = arts;
	*na_out = na;
	return rc;
}

/* The header's name as the source includes it: the base name of -o. */
const char *compile_header_name(const tilecc_options *o)
{
	const char *hn = o->output_name ? strrchr(o->output_name, '/') : NULL;
	return hn ? hn + 1 : o->output_name ? o->output_name : "kernel.h";
}

/* Moves the header and the source into out. */
int compile_take_header(compilation *c, tilecc_output *out, strbuf *h, strbuf *src)
{
	if (h->oom || src->oom) {
		diag_internal(c->d, "out of memory while writing the header");
		strbuf_free(h);
		strbuf_free(src);
		return 3;
	}
	out->data = strbuf_take(h, &out->size);
	out->source = strbuf_take(src, &out->source_size);
	return 0;
}

/* A header for GPU targets or several targets: the artifacts, then one launcher over all of
 * them (header_dispatch.c). */
static int compile_multi(compilation *c, tilecc_output *out)
{
	const tilecc_options *o = c->o;
	header_artifact *arts;
	size_t na;
	strbuf names = {0};
	int rc = compile_artifacts(c, o, o->target, &arts, &na, &names);
	if (!rc) {
		strbuf h = {0}, src = {0};
		header_write_multi(&h, &src, c->kernel, compile_header_name(o), names.data ? names.data : "",
				   arts, na);
		rc = compile_take_header(c, out, &h, &src);
	}
	strbuf_free(&names);
	return rc;
}

/* ---- specialization variants: -s "*fp32:?, i32:?" -o k.h -------------------------------- */

enum { SPEC_MAX_PARAMS = 4 };

/* One "?" of the signature: where it is and what it may become. */
typedef struct spec_slot {
	uint32_t col; /* 1-based column of the entry */
	uint32_t len;
	size_t qpos;  /* offset of ":?" in the signature */
	bool is_int;  /* integers get :16, :1 and none; pointers :16 and none */
} spec_slot;

/* Finds the entries written TYPE:? (top-level commas split the entries, as in sema). Returns
 * their number, or -1 after a located error for an entry that cannot be specialized. */
static int find_spec_slots(compilation *c, uint32_t file, const char *sig, spec_slot *slots,
			   int max)
{
	int n = 0;
	const char *p = sig;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		const char *q = p;
		int depth = 0;
		for (; *q && (*q != ',' || depth > 0); q++)
			depth += (*q == '<' || *q == '[' || *q == '(') - (*q == '>' || *q == ']' || *q == ')');
		const char *e = q;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		srcloc loc = {file, 1, (uint32_t)(p - sig) + 1, e > p ? (uint32_t)(e - p) : 1};
		if (e - p >= 2 && e[-1] == '?' && e[-2] == ':') {
			bool ptr = *p == '*';
			bool in = (*p == 'i' || *p == 'u') && !(p[1] == '1' && p[2] == ':'); /* not i1 */
			if (isdigit((unsigned char)*p) || *p == '-') {
				diag_error(c->d, loc, "'%.*s': a constexpr value cannot be specialized "
					   "(':?' asks for variants of integer and pointer parameters)",
					   (int)(e - p), p);
				return -1;
			}
			if (!ptr && !in) {
				diag_error(c->d, loc, "'%.*s': only integer and pointer parameters have "
					   "specialization variants (':?')", (int)(e - p), p);
				return -1;
			}
			if (n == max) {
				int most = 1;
				for (int i = 0; i < max; i++)
					most *= 3;
				diag_error(c->d, loc, "more than %d parameters to specialize (':?'): at "
					   "most %d, which make up to %d variants", max, max, most);
				return -1;
			}
			slots[n].col = loc.col;
			slots[n].len = loc.len;
			slots[n].qpos = (size_t)(e - sig) - 2;
			slots[n].is_int = in;
			n++;
		}
		if (!*q)
			break;
		p = q + 1;
	}
	return n;
}

/* The signature of one variant: each slot's ":?" becomes ":16", ":1" or nothing (choice 0,
 * 1, 2). */
static char *spec_signature(compilation *c, const char *sig, const spec_slot *slots, int n,
			    const int *choice)
{
	strbuf b = {0};
	size_t at = 0;
	for (int i = 0; i < n; i++) {
		strbuf_printf(&b, "%.*s", (int)(slots[i].qpos - at), sig + at);
		strbuf_puts(&b, choice[i] == 0 ? ":16" : choice[i] == 1 ? ":1" : "");
		at = slots[i].qpos + 2;
	}
	strbuf_puts(&b, sig + at);
	char *s = arena_strndup(c->a, b.data ? b.data : "", b.len);
	strbuf_free(&b);
	return s;
}

/* A header with specialization variants: the kernel compiled for every combination of the
 * slots' hints (and every target), ordered the most specialized first; each variant's
 * launch conditions are the hints its kernel has that the unhinted one lacks, read from the
 * compiled parameters (so positions, constexprs and descriptors need no mapping here). */
static int compile_spec(compilation *c, tilecc_output *out)
{
	const tilecc_options *o = c->o;
	const char *sig = o->signature;
	uint32_t file = diag_add_source(c->d, "<signature>", sig, (uint32_t)strlen(sig));
	spec_slot slots[SPEC_MAX_PARAMS];
	int ns = find_spec_slots(c, file, sig, slots, SPEC_MAX_PARAMS);
	if (ns < 0)
		return 2;
	/* every combination, by the number of hints (most first), then in counting order */
	int total = 1;
	for (int i = 0; i < ns; i++)
		total *= slots[i].is_int ? 3 : 2;
	int (*choice)[SPEC_MAX_PARAMS] = arena_alloc(c->a, sizeof *choice * (size_t)total);
	int nv = 0;
	for (int hints = ns; hints >= 0; hints--)
		for (int v = 0; v < total; v++) {
			int d[SPEC_MAX_PARAMS], x = v, h = 0;
			for (int i = 0; i < ns; i++) {
				int radix = slots[i].is_int ? 3 : 2;
				d[i] = x % radix;
				x /= radix;
				if (!slots[i].is_int && d[i] == 1)
					d[i] = 2; /* pointers: 0 (:16) or 2 (none) */
				h += d[i] != 2;
			}
			if (h == hints)
				memcpy(choice[nv++], d, sizeof d);
		}
	header_spec *specs = arena_alloc(c->a, sizeof *specs * (size_t)total);
	const tilecc_options *saved = c->o;
	const char *list = o->target ? o->target : "host";
	strbuf names = {0};
	const ir_func *kernel = NULL;
	const ir_param_info *base = NULL;
	int rc = 0;
	c->in_spec = true;
	/* the unhinted variant first, from the signature as written: an error in it is located
	 * where the user wrote it (sema reads TYPE:? as TYPE) */
	for (int vi = total - 1; vi >= 0 && !rc; vi--) {
		int v = vi == total - 1 ? total - 1 : total - 2 - vi;
		tilecc_options sub = *o;
		char *vs = spec_signature(c, sig, slots, ns, choice[v]);
		sub.signature = vi == total - 1 ? sig : vs;
		header_artifact *arts;
		size_t na;
		rc = compile_artifacts(c, &sub, list, &arts, &na, vi == total - 1 ? &names : NULL);
		c->o = saved;
		if (rc) {
			diag_note(c->d, SRCLOC_NONE, "while compiling the specialization variant \"%s\"", vs);
			break;
		}
		const ir_func *f = c->kernel;
		if (!kernel) {
			kernel = f;
			base = f->params;
		}
		int np = f->body->nargs;
		if (np != kernel->body->nargs) {
			diag_internal(c->d, "variant \"%s\" has %d parameters, not %d", vs, np,
				      kernel->body->nargs);
			rc = 3;
			break;
		}
		char *conds = arena_alloc(c->a, (size_t)np + 1);
		for (int j = 0; j < np; j++) {
			const ir_param_info *p = &f->params[j];
			conds[j] = p->equal_to_1 && !base[j].equal_to_1			? '1'
				   : p->divisibility % 16 == 0 && base[j].divisibility % 16 ? 'D'
											      : '-';
		}
		conds[np] = 0;
		specs[v] = (header_spec){.signature = vs, .conds = conds, .arts = arts, .n = na};
	}
	c->in_spec = false;
	if (!rc) {
		strbuf h = {0}, src = {0};
		header_write_spec(&h, &src, kernel, compile_header_name(o), names.data ? names.data : "",
				  specs, (size_t)total);
		rc = compile_take_header(c, out, &h, &src);
	}
	strbuf_free(&names);
	return rc;
}

/* The options that later code divides by, loops on or indexes with: a usage error (2) with
 * a message when one is out of range. */
static int check_options(diag_engine *d, const tilecc_options *o)
{
	if (o->num_warps && (o->num_warps < 1 || o->num_warps > IR_MAX_NUM_WARPS ||
			     (o->num_warps & (o->num_warps - 1)))) {
		diag_error(d, SRCLOC_NONE, "num_warps must be 0 (the default, 4) or a power of two "
			   "from 1 to %d, got %d", IR_MAX_NUM_WARPS, o->num_warps);
		return 2;
	}
	if (o->num_stages < 0 || o->num_stages > IR_MAX_NUM_STAGES) {
		diag_error(d, SRCLOC_NONE, "num_stages must be from 0 to %d, got %d",
			   IR_MAX_NUM_STAGES, o->num_stages);
		return 2;
	}
	if (o->opt_level < -1 || o->opt_level > 3) {
		diag_error(d, SRCLOC_NONE, "opt_level must be -1 (the default) or 0 to 3, got %d",
			   o->opt_level);
		return 2;
	}
	if ((unsigned)o->emit > TILECC_EMIT_TTIR) {
		diag_error(d, SRCLOC_NONE, "unknown emit kind %d", (int)o->emit);
		return 2;
	}
	if ((o->num_defines && !o->defines) || (o->num_include_dirs && !o->include_dirs)) {
		diag_error(d, SRCLOC_NONE, "%s is NULL with a count of %zu",
			   o->num_defines && !o->defines ? "defines" : "include_dirs",
			   o->num_defines && !o->defines ? o->num_defines : o->num_include_dirs);
		return 2;
	}
	for (size_t i = 0; i < o->num_defines; i++)
		if (!o->defines[i].name || !o->defines[i].value) {
			diag_error(d, SRCLOC_NONE, "define %zu has a NULL name or value", i);
			return 2;
		}
	for (size_t i = 0; i < o->num_include_dirs; i++)
		if (!o->include_dirs[i]) {
			diag_error(d, SRCLOC_NONE, "include directory %zu is NULL", i);
			return 2;
		}
	return 0;
}

int tilecc_compile(tilecc_compiler *cc, const tilecc_options *o, tilecc_output *out)
{
	memset(out, 0, sizeof *out);
	if (!o || !o->source)
		return 2;
	compilation c = {.o = o};
	double t0 = now_ms();
	c.a = arena_create();
	if (!c.a)
		return 3;
	c.names = strtab_create(c.a);
	c.d = diag_create(c.a, cc->handler, cc->user);
	c.ir = c.names && c.d ? ir_context_create(c.a, c.names) : NULL;
	if (c.ir)
		ir_context_set_diag(c.ir, c.d);
	int rc;
	if (!c.ir) {
		rc = 3;
	} else if ((rc = check_options(c.d, o)) != 0) {
		/* reported */
	} else {
		if (o->time_report)
			strbuf_puts(&c.report, "===== tilecc time report =====\n");
		rc = compile(&c, out);
		if (rc == 0 && diag_error_count(c.d))
			rc = 1;
		if (o->time_report)
			strbuf_printf(&c.report, "  %-26s %9.3f ms (arena %zu KiB)\n", "total",
				      now_ms() - t0, arena_used(c.a) / 1024);
	}
	if (rc != 0) {
		free(out->data);
		out->data = NULL;
		out->size = 0;
	}
	if (c.report.len)
		out->report = strbuf_take(&c.report, &out->report_size);
	strbuf_free(&c.report);
	strtab_destroy(c.names);
	arena_destroy(c.a);
	return rc;
}
