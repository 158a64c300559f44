/* emit.c: from a lowered tile-IR module to bytes: LLVM IR text, assembly, an ELF object
 * or a shared object. Owns the LLVM context of one compilation, the target machine
 * (triple, CPU, features, ABI) and the optimization pipeline (LLVM's pass builder at -O3
 * by default). Shared objects are linked by ld.lld-19, run as a child process. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "codegen/codegen.h"
#include "codegen/devmath.h"
#include "codegen/gpu_isa.h"
#include "codegen/lower.h"
#include "transforms/axis_info.h"

extern char **environ;

/* ---- -ftime-report ------------------------------------------------------------------------ */

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Appends one phase's time since t0 to the time report, when there is one, in the
 * driver's format, with what the phase produced (a size) after it. */
static void time_phase(strbuf *tr, const char *phase, double t0, const char *what)
{
	if (tr)
		strbuf_printf(tr, "  %-26s %9.3f ms%s%s\n", phase, now_ms() - t0, what ? "  " : "",
			      what ? what : "");
}

/* The number of instructions in the module's function bodies: the size LLVM's passes
 * work on. */
static const char *count_insts(strbuf *tr, LLVMModuleRef m, char *buf, size_t n)
{
	if (!tr)
		return NULL;
	long insts = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
			for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
				insts++;
	snprintf(buf, n, "(%ld LLVM instructions)", insts);
	return buf;
}

static const char *count_lines(strbuf *tr, const char *text, size_t len, const char *unit,
			       char *buf, size_t n)
{
	if (!tr)
		return NULL;
	long lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	snprintf(buf, n, "(%ld lines of %s)", lines, unit);
	return buf;
}

static void init_llvm(void)
{
	static int done;
	if (done)
		return;
	LLVMInitializeX86TargetInfo();
	LLVMInitializeX86Target();
	LLVMInitializeX86TargetMC();
	LLVMInitializeX86AsmPrinter();
	LLVMInitializeRISCVTargetInfo();
	LLVMInitializeRISCVTarget();
	LLVMInitializeRISCVTargetMC();
	LLVMInitializeRISCVAsmPrinter();
	/* RVV: LLVM's loop vectorizer sizes its vectors as registers of LMUL 2 unless told;
	 * at LMUL 4 an element-wise loop does twice the elements an instruction (vadd at
	 * VLEN 128: 58 586 instructions against 115 855, clang's own LMUL 2 loop 74 109;
	 * bench/cpu/rv_icount.sh). LMUL 8 halves vadd again but makes the layernorm's fp16
	 * loops spill vector registers (1.3x the instructions of LMUL 4). Process-wide, and
	 * read only by the RISC-V backend; the dot micro-kernel picks its own LMUL. */
	const char *argv[] = {"tilecc", "-riscv-v-register-bit-width-lmul=4"};
	LLVMParseCommandLineOptions(2, argv, NULL);
	done = 1;
}

/* Resolves CPU name and features: "native" and the host default use the host's. */
static void cpu_features(const codegen_opts *o, char **cpu, char **feat, bool *owned)
{
	/* the host's CPU unless -mcpu names another (without --target too) */
	bool host = (o->host && !o->cpu) || (o->cpu && !strcmp(o->cpu, "native"));
	*owned = false;
	/* like clang, -mattr adds to (or with -x, takes from) the CPU's features */
	if (o->is_riscv) {
		*cpu = (char *)(o->cpu && strcmp(o->cpu, "native") ? o->cpu : "generic-rv64");
		size_t n = 32 + (o->features ? strlen(o->features) : 0);
		*feat = malloc(n);
		snprintf(*feat, n, "+m,+a,+f,+d,+c,+v%s%s", o->features ? "," : "", o->features ? o->features : "");
		*cpu = strdup(*cpu);
		*owned = true;
		return;
	}
	if (host) {
		char *hc = LLVMGetHostCPUName(), *hf = LLVMGetHostCPUFeatures();
		size_t n = strlen(hf) + 2 + (o->features ? strlen(o->features) : 0);
		*feat = malloc(n);
		snprintf(*feat, n, "%s%s%s", hf, o->features ? "," : "", o->features ? o->features : "");
		*cpu = strdup(hc);
		LLVMDisposeMessage(hc);
		LLVMDisposeMessage(hf);
		*owned = true;
		return;
	}
	*cpu = strdup(o->cpu && strcmp(o->cpu, "native") ? o->cpu : "x86-64");
	*feat = strdup(o->features ? o->features : "");
	*owned = true;
}

/* The widest vectors of the x86-64 CPUs that LLVM 19 knows by name (-mcpu), in bytes: the
 * micro-kernels' vector width when -mattr says nothing about AVX (LLVM-C cannot tell a named
 * CPU's features). Others (x86-64, x86-64-v2, the pre-AVX cores): 16. */
static const struct {
	const char *cpu;
	int bytes;
} x86_cpus[] = {
	/* AVX-512 with 512-bit registers */
	{"skylake-avx512", 64}, {"cascadelake", 64}, {"cooperlake", 64}, {"cannonlake", 64},
	{"icelake-client", 64}, {"icelake-server", 64}, {"tigerlake", 64}, {"rocketlake", 64},
	{"sapphirerapids", 64}, {"emeraldrapids", 64}, {"graniterapids", 64}, {"graniterapids-d", 64},
	{"knl", 64}, {"knm", 64}, {"znver4", 64}, {"znver5", 64}, {"x86-64-v4", 64},
	/* AVX2 */
	{"haswell", 32}, {"broadwell", 32}, {"skylake", 32}, {"core-avx2", 32}, {"alderlake", 32},
	{"raptorlake", 32}, {"meteorlake", 32}, {"arrowlake", 32}, {"arrowlake-s", 32}, {"lunarlake", 32},
	{"gracemont", 32}, {"sierraforest", 32}, {"grandridge", 32}, {"clearwaterforest", 32},
	{"pantherlake", 32}, {"znver1", 32}, {"znver2", 32}, {"znver3", 32}, {"bdver4", 32}, {"x86-64-v3", 32},
	/* AVX */
	{"sandybridge", 32}, {"ivybridge", 32}, {"corei7-avx", 32}, {"core-avx-i", 32}, {"btver2", 32},
	{"bdver1", 32}, {"bdver2", 32}, {"bdver3", 32},
};

/* Whether the comma-separated feature list feat turns feature f (without its sign) on (1),
 * off (-1, the last mention wins), or says nothing (0). */
static int feature_says(const char *feat, const char *f)
{
	int r = 0;
	size_t n = strlen(f);
	for (const char *p = feat; p && *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n + 1 && (p[0] == '+' || p[0] == '-') && !strncmp(p + 1, f, n))
			r = p[0] == '+' ? 1 : -1;
		p = e ? e + 1 : NULL;
	}
	return r;
}

/* Preferred vector width in bytes for the micro-kernels: the CPU's (x86_cpus), then what
 * the features turn on or off. On riscv64 the minimum VLEN the code may assume: 128 bits
 * (the V extension's), or what -mattr=+zvl256b (+zvl512b, ...) promises. */
static int vector_bytes(const char *cpu, const char *feat, bool riscv)
{
	if (riscv) {
		int bits = 128;
		for (int z = 256; z <= 65536; z *= 2) {
			char name[16];
			snprintf(name, sizeof name, "zvl%db", z);
			if (feature_says(feat, name) > 0 && z > bits)
				bits = z;
		}
		return bits / 8;
	}
	int bytes = 16;
	for (size_t i = 0; i < sizeof x86_cpus / sizeof x86_cpus[0]; i++)
		if (!strcmp(cpu, x86_cpus[i].cpu))
			bytes = x86_cpus[i].bytes;
	int avx = feature_says(feat, "avx"), avx2 = feature_says(feat, "avx2");
	int avx512 = feature_says(feat, "avx512f"), evex512 = feature_says(feat, "evex512");
	if (avx > 0 || avx2 > 0)
		bytes = bytes < 32 ? 32 : bytes;
	if (avx512 > 0 && evex512 >= 0)
		bytes = 64;
	if (avx512 < 0 || evex512 < 0)
		bytes = bytes > 32 ? 32 : bytes;
	if (avx < 0 || avx2 < 0)
		bytes = 16;
	return bytes;
}

/* Features as LLVM 19's x86 backend wants them: AVX-512 asked for without a word on
 * evex512 gets +evex512, as clang adds it. Without it the backend has AVX-512's mask
 * registers but no 512-bit ones, a combination it fails on ("Cannot select: v4i1 =
 * setcc" for -mattr=+avx512f), and keeps vectors to 256 bits. Returns feat, or a new
 * string that replaces it (freed by the caller like feat). */
static char *x86_features(char *feat)
{
	if (!strstr(feat, "+avx512") || feature_says(feat, "evex512") != 0)
		return feat;
	size_t n = strlen(feat) + 16;
	char *f = malloc(n);
	if (!f)
		return feat;
	snprintf(f, n, "%s,+evex512", feat);
	free(feat);
	return f;
}

/* Finds ld.lld-19. */
static const char *find_lld(void)
{
	static const char *const cands[] = {"/usr/lib/llvm-19/bin/ld.lld", "/usr/bin/ld.lld-19",
					    "/usr/local/bin/ld.lld"};
	for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++)
		if (access(cands[i], X_OK) == 0)
			return cands[i];
	return NULL;
}

static int read_whole(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *nb = realloc(buf, cap *= 2);
		if (!nb) {
			free(buf);
			buf = NULL;
		}
		buf = nb;
	}
	fclose(f);
	if (!buf)
		return -1;
	*out = buf;
	*len = n;
	return 0;
}

/* Links an object into a shared object with ld.lld; returns 0 and the bytes. */

/* Runs an external tool (ld.lld, ptxas) with its output in a log; 0 on success, else
 * reports `what` failed with the log's start. */
static int run_tool(diag_engine *d, const char *what, char *const argv[], const char *log)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	pid_t pid;
	int err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	int status = 0;
	if (!err && waitpid(pid, &status, 0) >= 0 && WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	char *msg = NULL;
	size_t mlen = 0;
	read_whole(log, &msg, &mlen);
	diag_error(d, SRCLOC_NONE, "%s (%s) failed: %.*s", what, argv[0], (int)(mlen > 600 ? 600 : mlen),
		   msg ? msg : strerror(err));
	free(msg);
	return 1;
}

/* Feeds bytes to a tool that writes one output file, in a private temporary directory:
 * argv may use the placeholders "@IN" and "@OUT". Returns 0 and the output's bytes. */
static int through_tool(diag_engine *d, const char *what, const char *in_name, const char *data,
			size_t n, char *const *argv_tmpl, int argc, char **out, size_t *len)
{
	const char *tmp = getenv("TMPDIR");
	char dir[256];
	snprintf(dir, sizeof dir, "%s/tilecc-XXXXXX", tmp && *tmp && strlen(tmp) < 200 ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		diag_error(d, SRCLOC_NONE, "cannot create a temporary directory in %s: %s",
			   tmp && *tmp ? tmp : "/tmp", strerror(errno));
		return 1;
	}
	char in[320], res[320], log[320];
	snprintf(in, sizeof in, "%s/%s", dir, in_name);
	snprintf(res, sizeof res, "%s/out", dir);
	snprintf(log, sizeof log, "%s/log", dir);
	char *argv[16];
	for (int i = 0; i < argc && i < 15; i++)
		argv[i] = !strcmp(argv_tmpl[i], "@IN") ? in : !strcmp(argv_tmpl[i], "@OUT") ? res : argv_tmpl[i];
	argv[argc < 15 ? argc : 15] = NULL;
	int rc = 1;
	FILE *f = fopen(in, "wb");
	if (!f || fwrite(data, 1, n, f) != n) {
		if (f)
			fclose(f);
		diag_error(d, SRCLOC_NONE, "cannot write a temporary file: %s", strerror(errno));
		goto out;
	}
	fclose(f);
	if (run_tool(d, what, argv, log))
		goto out;
	if (read_whole(res, out, len))
		diag_error(d, SRCLOC_NONE, "cannot read what %s wrote", argv[0]);
	else
		rc = 0;
out:
	unlink(in);
	unlink(res);
	unlink(log);
	rmdir(dir);
	return rc;
}

/* Links an object into a shared object with ld.lld. */
static int link_shared(diag_engine *d, const codegen_opts *o, const char *obj, size_t olen,
		       char **out, size_t *len)
{
	const char *lld = find_lld();
	if (!lld) {
		diag_error(d, SRCLOC_NONE, "cannot find ld.lld-19 to link a shared object "
					   "(install lld-19, see scripts/install-deps.sh)");
		return 1;
	}
	char *argv[] = {(char *)lld, "-shared", "--hash-style=both", "-o", "@OUT", "@IN",
			o->is_riscv ? "-L/usr/riscv64-linux-gnu/lib" : "-L/usr/lib/x86_64-linux-gnu",
			"--as-needed", "-lm"};
	return through_tool(d, "linking the shared object", "k.o", obj, olen, argv, 9, out, len);
}

/* ---- one compilation's LLVM state -------------------------------------------------------- */

/* LLVM's errors during code generation (an inline assembly the target's assembler
 * rejects) become tilecc errors; without a handler LLVM would print them and exit. */
static void llvm_diag(LLVMDiagnosticInfoRef di, void *p)
{
	cg *c = p;
	if (LLVMGetDiagInfoSeverity(di) != LLVMDSError)
		return;
	char *m = LLVMGetDiagInfoDescription(di);
	diag_error(c->d, SRCLOC_NONE, "LLVM code generation: %s", m ? m : "an error");
	LLVMDisposeMessage(m);
	c->llvm_errors++;
}

static void cg_open(cg *c, diag_engine *d, arena *a, const ir_module *m)
{
	memset(c, 0, sizeof *c);
	c->d = d;
	c->a = a;
	c->ctx = LLVMContextCreate();
	LLVMContextSetDiagnosticHandler(c->ctx, llvm_diag, c);
	c->mod = LLVMModuleCreateWithNameInContext(m->funcs ? m->funcs->name : "kernel", c->ctx);
	c->b = LLVMCreateBuilderInContext(c->ctx);
	c->t_void = LLVMVoidTypeInContext(c->ctx);
	c->t_i1 = LLVMInt1TypeInContext(c->ctx);
	c->t_i8 = LLVMInt8TypeInContext(c->ctx);
	c->t_i16 = LLVMInt16TypeInContext(c->ctx);
	c->t_i32 = LLVMInt32TypeInContext(c->ctx);
	c->t_i64 = LLVMInt64TypeInContext(c->ctx);
	c->t_f16 = LLVMHalfTypeInContext(c->ctx);
	c->t_bf16 = LLVMBFloatTypeInContext(c->ctx);
	c->t_f32 = LLVMFloatTypeInContext(c->ctx);
	c->t_f64 = LLVMDoubleTypeInContext(c->ctx);
	c->t_ptr = LLVMPointerTypeInContext(c->ctx, 0);
}

static void cg_close(cg *c, LLVMTargetMachineRef tm)
{
	ir_ptrmap_free(&c->vals);
	ir_ptrmap_free(&c->layouts);
	if (tm)
		LLVMDisposeTargetMachine(tm);
	LLVMDisposeBuilder(c->b);
	LLVMDisposeModule(c->mod);
	LLVMContextDispose(c->ctx);
}

/* Sets the module's triple and data layout from tm. */
static void cg_target(cg *c, LLVMTargetMachineRef tm, const char *triple)
{
	LLVMSetTarget(c->mod, triple);
	LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
	LLVMSetModuleDataLayout(c->mod, td);
	LLVMDisposeTargetData(td);
}

/* Lowers every function of m into c->mod; errors longjmp back here from cg_fail. Kept
 * apart so that no local of the callers lives across setjmp. */
static void lower_funcs(cg *c, ir_module *m, arena *a, const char *family, const char *cpu,
			const char *feat)
{
	for (ir_func *f = m->funcs; f; f = f->next) {
		/* the GPU lowering reads the accesses' widths from what the coalesce pass
		 * recorded, and the analysis for the constant runs of comparisons */
		c->ai = axis_analyze(a, f);
		if (c->gpu) {
			/* the text goes into the arena first: a cg_fail longjmps past this frame */
			strbuf sig = {0};
			cg_signature_text(&sig, f);
			char *text = arena_strndup(a, sig.data ? sig.data : "", sig.len);
			strbuf_free(&sig);
			if (!text)
				cg_fail(c, NULL, "out of memory");
			int64_t shared = 0;
			lower_gpu_func(c, f, text, &shared);
		} else {
			lower_cpu_func(c, f, family);
		}
		ir_ptrmap_free(&c->vals);
		memset(&c->vals, 0, sizeof c->vals);
		ir_ptrmap_free(&c->layouts); /* a layout's meaning depends on the function's warps */
		memset(&c->layouts, 0, sizeof c->layouts);
	}
	if (c->gpu)
		return;
	/* every function gets the target's CPU and features, so that the vectorizer and the
	 * inliner agree */
	for (LLVMValueRef fn = LLVMGetFirstFunction(c->mod); fn; fn = LLVMGetNextFunction(fn)) {
		if (LLVMCountBasicBlocks(fn) == 0)
			continue;
		LLVMAddTargetDependentFunctionAttr(fn, "target-cpu", cpu);
		if (feat[0])
			LLVMAddTargetDependentFunctionAttr(fn, "target-features", feat);
		LLVMAttributeRef nu = LLVMCreateEnumAttribute(c->ctx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0);
		LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, nu);
	}
}

static int lower_all(cg *c, ir_module *m, arena *a, const char *family, const char *cpu,
		     const char *feat)
{
	jmp_buf jb;
	c->fail = &jb;
	if (setjmp(jb)) {
		/* a cg_fail from anywhere in the lowering: the records are in the arena, the
		 * maps are what is on the heap */
		cg_debug_finish(c);
		ir_ptrmap_free(&c->vals);
		ir_ptrmap_free(&c->uses);
		ir_ptrmap_free(&c->lazy_loads);
		ir_ptrmap_free(&c->layouts);
		memset(&c->vals, 0, sizeof c->vals);
		memset(&c->uses, 0, sizeof c->uses);
		memset(&c->lazy_loads, 0, sizeof c->lazy_loads);
		memset(&c->layouts, 0, sizeof c->layouts);
		return 1;
	}
	lower_funcs(c, m, a, family, cpu, feat);
	cg_debug_finish(c);
	return 0;
}


/* ---- huge functions --------------------------------------------------------------------------
 *
 * LLVM's default<O3> and its code generators are not linear in the size of one function.
 * The CPU lowering writes one loop per tile op, so a long straight-line kernel becomes
 * thousands of loops one after another, whose dominator tree is a chain as deep as the
 * kernel is long: instcombine (isGuaranteedNotToBeUndefOrPoison walks up the dominators of
 * its context), the SCEV-based loop passes (IndVars, LoopVectorize, LoopRotate, and in the
 * code generator IVUsers and LSR: guards are looked for up the same chain) and
 * CodeGenPrepare (which restarts the function after a change, below 10 000 blocks) all turn
 * quadratic, and a 100k-op kernel took minutes (docs/perf.md, "Compile time vs IR size").
 *
 * A function of more LLVM instructions than the threshold after the lowering and a first
 * cleanup (is_huge) therefore takes a reduced pipeline: SROA (tiles out of their buffers),
 * early CSE and simplifycfg, each linear, and the object is then made at CodeGenOpt::None, linear too. On CPUs that means
 * fast instruction selection and the fast register allocator, no CodeGenPrepare, LSR or
 * machine scheduler; the code of a huge function is scalar loops with spills: slower, but
 * made in seconds. GPU code generators at their full level were not linear either (NVPTX's
 * load/store vectorizer, GVN and instruction selection of one huge block: 215 s for 1M ops;
 * AMDGPU's scheduler and register allocator: 52 s for 100k), but at CodeGenOpt::None they
 * skip address-space inference, and every global or shared access would go through a
 * generic (flat) address. So on GPUs the reduced pipeline also runs infer-address-spaces,
 * after casting the kernels' generic pointer parameters through the global address space
 * (huge_params_global: what NVPTX's own NVPTXLowerArgs does in its optimized pipeline, and
 * which LLVM 19's pass builder cannot name), so that ld.global / ld.shared (global_load /
 * ds_read) survive, infer-alignment (shared stores from the byte-addressed scratch would
 * otherwise be split into bytes) and globaldce (libdevice's unused functions, whose
 * NVVMReflect-decided branches nothing removes at CodeGenOpt::None); and their blocks are
 * cut into blocks of CG_HUGE_BLOCK_INSTS (huge_split_blocks: instruction selection, AMDGPU's
 * above all, is superlinear in the size of one block). ptxas or the AMD back end's own
 * passes optimize what they get.
 *
 * The threshold, 20 000 LLVM instructions in one function, is 2.6 times the largest module
 * of the bench and e2e kernels on any target (7 700, the CPU sorts; the bench matmul for
 * sm_80 6 600), and about where default<O3> and the x86-64 code generator together pass
 * 5 s (10k ops of bench/compile/gen_ir.py, 9 700 instructions: 2 s; 30k ops: 11 s).
 * TILECC_HUGE_FUNC=N moves it (0: never the reduced pipeline). */
enum { CG_HUGE_FUNC_INSTS = 20000 };
/* On GPUs a huge function's blocks are then cut into blocks of at most this many
 * instructions (huge_split_blocks). */
enum { CG_HUGE_BLOCK_INSTS = 4096 };

static long huge_threshold(void)
{
	const char *env = getenv("TILECC_HUGE_FUNC");
	if (env && *env) {
		char *end;
		long n = strtol(env, &end, 10);
		if (!*end && n >= 0)
			return n;
	}
	return CG_HUGE_FUNC_INSTS;
}

/* The module's largest function body: its instructions into *insts, and the function. */
static LLVMValueRef largest_function(LLVMModuleRef m, long *insts)
{
	LLVMValueRef best = NULL;
	*insts = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
		long n = 0;
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
			for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
				n++;
		if (n > *insts) {
			*insts = n;
			best = f;
		}
	}
	return best;
}

/* Whether the module holds a huge function (above); says so in the time report. A function
 * over the threshold is first cleaned up by the linear passes (SROA, early CSE, simplifycfg,
 * as the reduced pipeline starts), and judged again: the lowering repeats index and mask
 * arithmetic per element that early CSE merges, so a real kernel often comes back well
 * under it (tutorial 06's _attn_fwd at D128, BLOCK_M 128, 3 stages: 20 822 instructions,
 * 9 002 after it; its reduced pipeline made ptxas serialize its wgmma and spill), where
 * bench/compile/gen_ir.py's synthetic ones stay huge. *err: LLVM's error, if a pass failed. */
static bool is_huge(cg *c, LLVMTargetMachineRef tm, strbuf *tr, LLVMErrorRef *err)
{
	long limit = huge_threshold(), n, after;
	*err = NULL;
	LLVMValueRef f = largest_function(c->mod, &n);
	if (!limit || n <= limit)
		return false;
	LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
	*err = LLVMRunPasses(c->mod, "function(sroa,early-cse,simplifycfg)", tm, pbo);
	LLVMDisposePassBuilderOptions(pbo);
	if (*err)
		return false;
	f = largest_function(c->mod, &after);
	if (tr) {
		size_t len;
		const char *name = LLVMGetValueName2(f, &len);
		strbuf_printf(tr, "  %s function: @%.*s, %ld LLVM instructions, %ld after early CSE (%s %ld): %s\n",
			      after > limit ? "huge" : "large", (int)(len > 64 ? 64 : len), name, n, after,
			      after > limit ? "over" : "limit", limit,
			      after > limit ? "the reduced LLVM pipeline" : "the full pipeline");
	}
	return after > limit;
}

/* A GPU kernel's pointer parameters point to global memory (CUDA's rule, and Triton's):
 * for each kernel of m whose parameters are generic pointers (NVPTX; AMD's come in the
 * global address space already), every use of such a parameter p takes
 * addrspacecast(addrspacecast(p to global) to generic) instead, so that infer-address-spaces
 * can rewrite the accesses derived from it into global ones. */
static void huge_params_global(cg *c, const ir_module *m)
{
	if (c->isa->param_addrspace != 0)
		return;
	LLVMTypeRef gptr = LLVMPointerTypeInContext(c->ctx, 1);
	/* the casts belong to no source line (the builder's last one may be another kernel's) */
	LLVMSetCurrentDebugLocation2(c->b, NULL);
	for (const ir_func *f = m->funcs; f; f = f->next) {
		LLVMValueRef fn = LLVMGetNamedFunction(c->mod, f->name);
		if (!fn || !LLVMCountBasicBlocks(fn))
			continue;
		LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
		LLVMValueRef first = LLVMGetFirstInstruction(entry);
		for (unsigned i = 0, n = LLVMCountParams(fn); i < n; i++) {
			LLVMValueRef p = LLVMGetParam(fn, i);
			if (LLVMTypeOf(p) != c->t_ptr || !LLVMGetFirstUse(p))
				continue;
			if (first)
				LLVMPositionBuilderBefore(c->b, first);
			else
				LLVMPositionBuilderAtEnd(c->b, entry);
			LLVMValueRef g = LLVMBuildAddrSpaceCast(c->b, p, gptr, "");
			LLVMValueRef q = LLVMBuildAddrSpaceCast(c->b, g, c->t_ptr, "");
			LLVMReplaceAllUsesWith(p, q);
			LLVMSetOperand(g, 0, p); /* the one use of p left */
		}
	}
}

/* Puts alloca a (out of its block) at the start of the entry block, then the builder back
 * at the end of cur (when not NULL). */
static void hoist_alloca(cg *c, LLVMBasicBlockRef entry, LLVMValueRef a, LLVMBasicBlockRef cur)
{
	LLVMPositionBuilderBefore(c->b, LLVMGetFirstInstruction(entry));
	LLVMInsertIntoBuilder(c->b, a);
	if (cur)
		LLVMPositionBuilderAtEnd(c->b, cur);
}

/* Splits every block of fn longer than max instructions into a chain of blocks of at most
 * max, each ending in a branch to the next: instruction selection works a block at a time,
 * and AMDGPU's is not linear in the size of one (docs/perf.md). The leading part gets a new
 * block in front of b, which b's predecessors now branch to (their terminators retargeted
 * one by one: replacing the uses of b would also rename b in its successors' phis); b keeps
 * the rest and its terminator, so those phis stay right. Phis and allocas stay in the
 * first part. Linear in the instructions moved and the branches to b. */
static void huge_split_blocks(cg *c, LLVMValueRef fn, long max)
{
	/* the moved instructions keep their own locations (an inserting builder with a current
	 * location would overwrite them), the new branches have none */
	LLVMSetCurrentDebugLocation2(c->b, NULL);
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		bool entry = b == LLVMGetEntryBasicBlock(fn);
		long n = 0;
		for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
			n++;
		if (n <= max)
			continue;
		/* the terminators that branch to b (b's own, for a loop, among them); a block
		 * anything else refers to (a blockaddress) or a failed allocation stays whole */
		size_t nusers = 0, cap = 0;
		LLVMValueRef *users = NULL;
		bool ok = true;
		for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(b)); u && ok; u = LLVMGetNextUse(u)) {
			LLVMValueRef t = LLVMGetUser(u);
			if (!LLVMIsAInstruction(t) || !LLVMIsATerminatorInst(t)) {
				ok = false;
				break;
			}
			if (nusers == cap) {
				LLVMValueRef *nu = realloc(users, (cap = cap ? 2 * cap : 8) * sizeof *users);
				ok = nu != NULL;
				if (!ok)
					break;
				users = nu;
			}
			users[nusers++] = t;
		}
		if (!ok) {
			free(users);
			continue;
		}
		LLVMBasicBlockRef first = LLVMInsertBasicBlockInContext(c->ctx, b, "split");
		for (size_t k = 0; k < nusers; k++)
			for (unsigned s = 0, ns = LLVMGetNumSuccessors(users[k]); s < ns; s++)
				if (LLVMGetSuccessor(users[k], s) == b)
					LLVMSetSuccessor(users[k], s, first);
		free(users);
		LLVMBasicBlockRef cur = first;
		LLVMPositionBuilderAtEnd(c->b, cur);
		long in_cur = 0;
		/* b keeps its last max instructions at most (the terminator among them), and no
		 * phi: they all move to first */
		for (;; n--) {
			LLVMValueRef i = LLVMGetFirstInstruction(b);
			LLVMOpcode op = LLVMGetInstructionOpcode(i);
			if (n <= max && op != LLVMPHI)
				break;
			LLVMInstructionRemoveFromParent(i);
			if (entry && op == LLVMAlloca && cur != first) {
				hoist_alloca(c, first, i, cur);
				continue;
			}
			if (in_cur >= max && op != LLVMPHI) {
				LLVMBasicBlockRef next = LLVMInsertBasicBlockInContext(c->ctx, b, "split");
				LLVMBuildBr(c->b, next);
				cur = next;
				LLVMPositionBuilderAtEnd(c->b, cur);
				in_cur = 0;
			}
			LLVMInsertIntoBuilder(c->b, i);
			in_cur++;
		}
		LLVMBuildBr(c->b, b);
		/* static allocas stay in the entry block, now first */
		for (LLVMValueRef i = entry ? LLVMGetFirstInstruction(b) : NULL, next; i; i = next) {
			next = LLVMGetNextInstruction(i);
			if (LLVMGetInstructionOpcode(i) == LLVMAlloca) {
				LLVMInstructionRemoveFromParent(i);
				hoist_alloca(c, first, i, NULL);
			}
		}
	}
}

/* Verifies and optimizes the module (default<O3> unless -O0; the reduced pipeline when
 * *huge comes back true), timing both into tr. m: the kernels lowered into the module,
 * whose parameters a GPU's reduced pipeline needs (huge_params_global). */
static int optimize(cg *c, LLVMTargetMachineRef tm, int opt_level, strbuf *tr, const ir_module *m,
		    bool *huge)
{
	char *err = NULL;
	char what[64];
	double t = now_ms();
	*huge = false;
	if (LLVMVerifyModule(c->mod, LLVMReturnStatusAction, &err)) {
		diag_internal(c->d, "the generated LLVM IR is invalid: %.600s", err);
		LLVMDisposeMessage(err);
		return 1;
	}
	LLVMDisposeMessage(err);
	time_phase(tr, "LLVM verifier", t, NULL);
	if (opt_level == 0)
		return 0;
	t = now_ms();
	LLVMErrorRef e;
	*huge = is_huge(c, tm, tr, &e);
	if (e)
		goto failed;
	LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
	LLVMPassBuilderOptionsSetLoopVectorization(pbo, 1);
	LLVMPassBuilderOptionsSetSLPVectorization(pbo, 1);
	LLVMPassBuilderOptionsSetLoopUnrolling(pbo, 1);
	char pipeline[128];
	if (*huge && c->gpu) {
		huge_params_global(c, m);
		snprintf(pipeline, sizeof pipeline, "globaldce,function(sroa,infer-address-spaces,infer-alignment,early-cse,simplifycfg)");
	} else if (*huge)
		snprintf(pipeline, sizeof pipeline, "function(sroa,early-cse,simplifycfg)");
	else
		snprintf(pipeline, sizeof pipeline, "default<O%d>", opt_level < 0 ? 3 : opt_level);
	e = LLVMRunPasses(c->mod, pipeline, tm, pbo);
	LLVMDisposePassBuilderOptions(pbo);
	if (!e) {
		if (*huge && c->gpu)
			for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f))
				huge_split_blocks(c, f, CG_HUGE_BLOCK_INSTS);
		time_phase(tr, *huge ? "LLVM optimization, reduced" : "LLVM optimization", t,
			   count_insts(tr, c->mod, what, sizeof what));
		return 0;
	}
failed:;
	char *msg = LLVMGetErrorMessage(e);
	diag_internal(c->d, "LLVM optimization failed: %s", msg);
	LLVMDisposeErrorMessage(msg);
	return 1;
}

/* The module as LLVM IR text, or the target's assembly or object file, into *out. */
static int emit_module(cg *c, LLVMTargetMachineRef tm, tilecc_emit emit, char **out, size_t *len)
{
	if (emit == TILECC_EMIT_LLVM) {
		char *s = LLVMPrintModuleToString(c->mod);
		*len = strlen(s);
		*out = malloc(*len + 1);
		if (*out)
			memcpy(*out, s, *len + 1);
		LLVMDisposeMessage(s);
		return *out ? 0 : 3;
	}
	char *err = NULL;
	LLVMMemoryBufferRef mb = NULL;
	LLVMCodeGenFileType ft = emit == TILECC_EMIT_OBJ || emit == TILECC_EMIT_SHARED ? LLVMObjectFile
										       : LLVMAssemblyFile;
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, c->mod, ft, &err, &mb)) {
		diag_internal(c->d, "LLVM code generation failed: %s", err);
		LLVMDisposeMessage(err);
		return 1;
	}
	if (c->llvm_errors) {
		LLVMDisposeMemoryBuffer(mb);
		return 1;
	}
	size_t n = LLVMGetBufferSize(mb);
	*out = malloc(n + 1);
	if (*out) {
		memcpy(*out, LLVMGetBufferStart(mb), n);
		(*out)[n] = 0;
		*len = n;
	}
	LLVMDisposeMemoryBuffer(mb);
	return *out ? 0 : 3;
}

/* A CPU target machine: PIC, lp64d on riscv64; CodeGenOpt::None when fast, else
 * Aggressive. NULL when LLVM cannot make one. */
static LLVMTargetMachineRef cpu_target_machine(LLVMTargetRef target, const char *triple,
					       const char *cpu, const char *feat, bool riscv, bool fast)
{
	LLVMTargetMachineOptionsRef tmo = LLVMCreateTargetMachineOptions();
	LLVMTargetMachineOptionsSetCPU(tmo, cpu);
	LLVMTargetMachineOptionsSetFeatures(tmo, feat);
	LLVMTargetMachineOptionsSetCodeGenOptLevel(tmo, fast ? LLVMCodeGenLevelNone : LLVMCodeGenLevelAggressive);
	LLVMTargetMachineOptionsSetRelocMode(tmo, LLVMRelocPIC);
	if (riscv)
		LLVMTargetMachineOptionsSetABI(tmo, "lp64d");
	LLVMTargetMachineRef tm = LLVMCreateTargetMachineWithOptions(target, triple, tmo);
	LLVMDisposeTargetMachineOptions(tmo);
	return tm;
}

int codegen_cpu(ir_module *m, diag_engine *d, arena *a, const codegen_opts *o, tilecc_emit emit,
		char **out, size_t *len)
{
	strbuf *tr = o->time_out;
	char what[64];
	double t = now_ms();
	init_llvm();
	cg c;
	cg_open(&c, d, a, m);
	c.meta_out = o->meta_out;
	char *cpu, *feat;
	bool owned;
	cpu_features(o, &cpu, &feat, &owned);
	if (!o->is_riscv)
		feat = x86_features(feat);
	c.vec_bytes = vector_bytes(cpu, feat, o->is_riscv);
	/* without hardware fp16 conversions (rv64gcv, x86-64 before F16C) convert in integer
	 * code and define the libcalls LLVM may still emit */
	c.soft_half = o->is_riscv || !strstr(feat, "+f16c");
	const char *triple = o->is_riscv ? "riscv64-unknown-linux-gnu" : "x86_64-unknown-linux-gnu";
	char *err = NULL;
	LLVMTargetRef target;
	LLVMTargetMachineRef tm = NULL;
	int rc = 1;
	if (LLVMGetTargetFromTriple(triple, &target, &err)) {
		diag_error(d, SRCLOC_NONE, "LLVM has no target for %s: %s", triple, err);
		LLVMDisposeMessage(err);
		goto done;
	}
	tm = cpu_target_machine(target, triple, cpu, feat, o->is_riscv, o->opt_level == 0);
	if (!tm) {
		diag_error(d, SRCLOC_NONE, "cannot create an LLVM target machine for %s (cpu %s)", triple, cpu);
		goto done;
	}
	cg_target(&c, tm, triple);
	if (o->is_riscv)
		LLVMAddModuleFlag(c.mod, LLVMModuleFlagBehaviorError, "target-abi", 10,
				  LLVMValueAsMetadata(LLVMMDStringInContext(c.ctx, "lp64d", 5)));
	if (lower_all(&c, m, a, o->is_riscv ? "riscv64" : "x86-64", cpu, feat))
		goto done;
	/* LLVM 19 lowers fptrunc to bf16 to a libcall (__truncsfbf2) on x86-64 even with
	 * AVX512-BF16, and gcc 12's libgcc has none: always define it */
	cg_define_half_libcalls(&c, c.soft_half, true);
	time_phase(tr, "lowering to LLVM IR", t, count_insts(tr, c.mod, what, sizeof what));
	bool huge;
	if (optimize(&c, tm, o->opt_level, tr, m, &huge))
		goto done;
	if (huge) {
		/* a huge function's machine code at CodeGenOpt::None (see "huge functions") */
		LLVMTargetMachineRef fast = cpu_target_machine(target, triple, cpu, feat, o->is_riscv, true);
		if (!fast) {
			diag_error(d, SRCLOC_NONE, "cannot create an LLVM target machine for %s (cpu %s)", triple, cpu);
			goto done;
		}
		LLVMDisposeTargetMachine(tm);
		tm = fast;
	}
	t = now_ms();
	if (emit != TILECC_EMIT_SHARED) {
		rc = emit_module(&c, tm, emit, out, len);
		time_phase(tr, emit == TILECC_EMIT_LLVM ? "printing LLVM IR" : "LLVM code generation", t, NULL);
		goto done;
	}
	char *obj = NULL;
	size_t olen = 0;
	rc = emit_module(&c, tm, TILECC_EMIT_OBJ, &obj, &olen);
	time_phase(tr, "LLVM code generation", t, NULL);
	t = now_ms();
	if (rc == 0)
		rc = link_shared(d, o, obj, olen, out, len);
	time_phase(tr, "linking (ld.lld)", t, NULL);
	free(obj);
done:
	if (owned) {
		free(cpu);
		free(feat);
	}
	cg_close(&c, tm);
	return rc;
}

/* ---- NVIDIA ------------------------------------------------------------------------------- */

static void init_nvptx(void)
{
	static int done;
	if (done)
		return;
	LLVMInitializeNVPTXTargetInfo();
	LLVMInitializeNVPTXTarget();
	LLVMInitializeNVPTXTargetMC();
	LLVMInitializeNVPTXAsmPrinter();
	/* 32-bit shared-memory pointers (p3:32 in the data layout), as Triton and nvcc use:
	 * shared addresses fit in 32 bits, and 64-bit ones double the address arithmetic of
	 * every ring slot, ldmatrix and wgmma descriptor. And fp contraction as Triton's
	 * default (enable_fp_fusion): without it NVPTX writes mul.rn/add.rn, which ptxas may
	 * not fuse; with it LLVM fuses what the lowering marks contractible and ptxas may fuse
	 * the rest (qk * scale - m, l * alpha + sum). The C API cannot set a target machine's
	 * AllowFPOpFusion; these options are process-wide and only concern NVPTX. */
	const char *argv[] = {"tilecc", "-nvptx-short-ptr", "-nvptx-fma-level=1"};
	LLVMParseCommandLineOptions(3, argv, NULL);
	done = 1;
}

/* Finds ptxas: the CMake-found one, /usr/local/cuda, or PATH. */
static const char *find_ptxas(void)
{
	static char buf[512];
	const char *env = getenv("TILECC_PTXAS");
	if (env && access(env, X_OK) == 0)
		return env;
#ifdef TILECC_PTXAS_PATH
	if (access(TILECC_PTXAS_PATH, X_OK) == 0)
		return TILECC_PTXAS_PATH;
#endif
	if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0)
		return "/usr/local/cuda/bin/ptxas";
	const char *path = getenv("PATH");
	while (path && *path) {
		const char *e = strchr(path, ':');
		size_t n = e ? (size_t)(e - path) : strlen(path);
		snprintf(buf, sizeof buf, "%.*s/ptxas", (int)n, path);
		if (access(buf, X_OK) == 0)
			return buf;
		path = e ? e + 1 : NULL;
	}
	return NULL;
}

/* PTX text to cubin with ptxas. */

/* Links libdevice (the CUDA toolkit's libdevice.10.bc: TILECC_LIBDEVICE, or the toolkit's
 * nvvm/libdevice) when the module calls any __nv_* function, and makes its functions
 * internal so that the optimizer keeps only what is used. */
static int link_libdevice(cg *c)
{
	bool needed = false;
	for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f && !needed; f = LLVMGetNextFunction(f))
		needed = LLVMCountBasicBlocks(f) == 0 && !strncmp(LLVMGetValueName(f), "__nv_", 5);
	if (!needed)
		return 0;
	const char *path = getenv("TILECC_LIBDEVICE");
	static const char *const cands[] = {
#ifdef TILECC_LIBDEVICE_PATH
	    TILECC_LIBDEVICE_PATH,
#endif
	    "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc", NULL};
	for (int i = 0; !path && cands[i]; i++)
		if (access(cands[i], R_OK) == 0)
			path = cands[i];
	if (!path) {
		diag_error(c->d, SRCLOC_NONE, "this kernel needs libdevice (erf, tanh or fp64 math on the "
					      "GPU); set TILECC_LIBDEVICE to libdevice.10.bc");
		return 1;
	}
	LLVMMemoryBufferRef mb;
	char *err = NULL;
	if (LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &err)) {
		diag_error(c->d, SRCLOC_NONE, "cannot read %s: %s", path, err);
		LLVMDisposeMessage(err);
		return 1;
	}
	LLVMModuleRef lib;
	int bad = LLVMParseBitcodeInContext2(c->ctx, mb, &lib);
	LLVMDisposeMemoryBuffer(mb);
	if (bad) {
		diag_error(c->d, SRCLOC_NONE, "cannot parse %s as LLVM bitcode", path);
		return 1;
	}
	if (cg_link_module(c, lib)) {
		diag_error(c->d, SRCLOC_NONE, "cannot link %s", path);
		return 1;
	}
	for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f))
		if (LLVMCountBasicBlocks(f) && !strncmp(LLVMGetValueName(f), "__nv", 4))
			LLVMSetLinkage(f, LLVMInternalLinkage);
	for (LLVMValueRef g = LLVMGetFirstGlobal(c->mod); g; g = LLVMGetNextGlobal(g))
		if (!strncmp(LLVMGetValueName(g), "__nv", 4) && LLVMGetInitializer(g))
			LLVMSetLinkage(g, LLVMInternalLinkage);
	return 0;
}

/* PTX to cubin. The ptxas executable compiles the module as a whole program; libnvJitLink
 * compiles it as relocatable code (calls keep the ABI), which on the bench kernels costs
 * registers (layernorm: 38 against 30) and speed (0.77x Triton against 0.87x on the
 * H200). So ptxas when there is one, libnvJitLink in process otherwise;
 * TILECC_CUBIN_VIA=ptxas|nvjitlink insists on one. */
static int ptx_to_cubin(diag_engine *d, const char *arch, const char *ptx, size_t n, char **out,
			size_t *len, const char **used)
{
	*used = "PTX to cubin (ptxas)";
	const char *via = getenv("TILECC_CUBIN_VIA");
	bool want_ptxas = via && !strcmp(via, "ptxas"), want_jit = via && !strcmp(via, "nvjitlink");
	if (via && !want_ptxas && !want_jit) {
		diag_error(d, SRCLOC_NONE, "TILECC_CUBIN_VIA is '%s'; it takes ptxas or nvjitlink", via);
		return 1;
	}
	const char *ptxas = want_jit ? NULL : find_ptxas();
	if (ptxas) {
		char archarg[32];
		snprintf(archarg, sizeof archarg, "-arch=%s", arch);
		char *argv[] = {(char *)ptxas, archarg, "-O3", "@IN", "-o", "@OUT"};
		return through_tool(d, "ptxas", "k.ptx", ptx, n, argv, 6, out, len);
	}
	*used = "PTX to cubin (nvJitLink)";
	int rc = want_ptxas ? -1 : codegen_nvjitlink(d, arch, ptx, n, out, len);
	if (rc >= 0)
		return rc;
	diag_error(d, SRCLOC_NONE, want_ptxas ? "cannot find ptxas to make a cubin (install the CUDA "
						"toolkit or set TILECC_PTXAS)"
			 : want_jit ? "cannot load libnvJitLink to make a cubin"
				    : "cannot find ptxas or libnvJitLink to make a cubin (install the CUDA "
				      "toolkit, set TILECC_PTXAS, or emit PTX with -o k.ptx)");
	return 1;
}

/* Whether block b (nested) holds an fp8 dot on mma.sync: its result in an #mma v2 layout. */
static bool has_fp8_mma_sync(const ir_block *b)
{
	for (const ir_op *op = b->first; op; op = op->next) {
		if (op->code == IR_OP_DOT && op->noperands > 0 && op->operands[0]->type->kind == IR_TILE) {
			int e = op->operands[0]->type->elem->kind;
			const char *l = op->results[0].type->layout;
			if ((e == IR_F8E4NV || e == IR_F8E5) && l && strstr(l, "mma<version = 2"))
				return true;
		}
		for (int r = 0; r < op->nregions; r++)
			if (has_fp8_mma_sync(op->regions[r]))
				return true;
	}
	return false;
}

/* The PTX version the module needs: 8.0 (wgmma, cp.async, what ptxas 12+ and drivers 525+
 * take) unless it holds fp8 mma.sync (sm_89 and later), which came with PTX 8.4. */
static const char *ptx_version(const ir_module *m)
{
	for (const ir_func *f = m->funcs; f; f = f->next)
		if (has_fp8_mma_sync(f->body))
			return "+ptx84";
	return "+ptx80";
}

int codegen_nvptx(ir_module *m, diag_engine *d, arena *a, const char *arch, int opt_level,
		  strbuf *meta_out, strbuf *tr, tilecc_emit emit, char **out, size_t *len,
		  char **ptx_out, size_t *ptx_len)
{
	char what[64];
	double t = now_ms();
	init_nvptx();
	cg c;
	cg_open(&c, d, a, m);
	c.meta_out = meta_out;
	c.vec_bytes = 16;
	c.gpu = true;
	c.isa = &nvptx_isa;
	const char *triple = "nvptx64-nvidia-cuda";
	/* The arch reaches LLVM as it is: sm_90a's PTX (.target sm_90a) may hold wgmma and
	 * setmaxnreg, sm_90's never can. The PTX version: ptx_version. */
	char cpu[16];
	snprintf(cpu, sizeof cpu, "%s", arch);
	char *err = NULL;
	LLVMTargetRef target;
	LLVMTargetMachineRef tm = NULL;
	int rc = 1;
	if (LLVMGetTargetFromTriple(triple, &target, &err)) {
		diag_error(d, SRCLOC_NONE, "LLVM has no NVPTX target: %s", err);
		LLVMDisposeMessage(err);
		goto done;
	}
	tm = LLVMCreateTargetMachine(target, triple, cpu, ptx_version(m), LLVMCodeGenLevelAggressive,
				     LLVMRelocDefault, LLVMCodeModelDefault);
	cg_target(&c, tm, triple);
	if (lower_all(&c, m, a, "nvptx", cpu, ""))
		goto done;
	time_phase(tr, "lowering to LLVM IR", t, count_insts(tr, c.mod, what, sizeof what));
	t = now_ms();
	if (link_libdevice(&c))
		goto done;
	time_phase(tr, "linking libdevice", t, NULL);
	bool huge;
	if (optimize(&c, tm, opt_level, tr, m, &huge))
		goto done;
	if (huge) {
		/* a huge function's PTX at CodeGenOpt::None (see "huge functions") */
		LLVMDisposeTargetMachine(tm);
		tm = LLVMCreateTargetMachine(target, triple, cpu, ptx_version(m), LLVMCodeGenLevelNone,
					     LLVMRelocDefault, LLVMCodeModelDefault);
		if (!tm) {
			diag_error(d, SRCLOC_NONE, "cannot create an LLVM target machine for %s (%s)", triple, cpu);
			goto done;
		}
	}
	t = now_ms();
	if (emit != TILECC_EMIT_CUBIN) {
		rc = emit_module(&c, tm, emit == TILECC_EMIT_LLVM ? emit : TILECC_EMIT_ASM, out, len);
		if (rc == 0)
			time_phase(tr, emit == TILECC_EMIT_LLVM ? "printing LLVM IR" : "LLVM code generation", t,
				   emit == TILECC_EMIT_LLVM ? NULL : count_lines(tr, *out, *len, "PTX", what, sizeof what));
		goto done;
	}
	char *ptx = NULL;
	size_t n = 0;
	rc = emit_module(&c, tm, TILECC_EMIT_ASM, &ptx, &n);
	if (rc == 0) {
		time_phase(tr, "LLVM code generation", t, count_lines(tr, ptx, n, "PTX", what, sizeof what));
		t = now_ms();
		const char *used;
		rc = ptx_to_cubin(d, arch, ptx, n, out, len, &used);
		if (rc == 0)
			time_phase(tr, used, t, NULL);
	}
	if (rc == 0 && ptx_out) {
		/* the header embeds the PTX the cubin was made of as well */
		*ptx_out = ptx;
		*ptx_len = n;
		ptx = NULL;
	}
	free(ptx);
done:
	cg_close(&c, tm);
	return rc;
}

/* ---- AMD ---------------------------------------------------------------------------------- */

static void init_amdgpu(void)
{
	static int done;
	if (done)
		return;
	LLVMInitializeAMDGPUTargetInfo();
	LLVMInitializeAMDGPUTarget();
	LLVMInitializeAMDGPUTargetMC();
	LLVMInitializeAMDGPUAsmPrinter();
	LLVMInitializeAMDGPUAsmParser(); /* inline assembly (tl.inline_asm_elementwise) in HSACOs */
	done = 1;
}

/* Links tilecc's AMD device library (devmath.c as amdgcn bitcode, built into tilecc) when
 * the module calls one of its functions. */
static int link_devmath(cg *c)
{
	bool needed = false;
	for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f && !needed; f = LLVMGetNextFunction(f))
		needed = LLVMCountBasicBlocks(f) == 0 && !strncmp(LLVMGetValueName(f), "__tilecc_dm_", 12);
	if (!needed)
		return 0;
#ifdef TILECC_HAVE_DEVMATH
	LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(
	    (const char *)tilecc_devmath_amdgpu_bc, (size_t)tilecc_devmath_amdgpu_bc_len, "devmath.bc", 0);
	LLVMModuleRef lib;
	int bad = LLVMParseBitcodeInContext2(c->ctx, mb, &lib);
	LLVMDisposeMemoryBuffer(mb);
	if (bad) {
		diag_internal(c->d, "the AMD device library built into tilecc does not parse");
		return 1;
	}
	if (cg_link_module(c, lib)) {
		diag_internal(c->d, "cannot link the AMD device library");
		return 1;
	}
	return 0;
#else
	diag_error(c->d, SRCLOC_NONE, "this kernel needs fp64 math, erf or tanh on an AMD GPU, and this "
				      "build of tilecc has no AMD device library (clang-19 was not found "
				      "when it was built; see scripts/install-deps.sh)");
	return 1;
#endif
}

/* tilecc's own helpers (the barrier, the device library) are internal to the kernel
 * module once linked: the optimizer inlines them and drops what is unused. */
static void internalize_helpers(cg *c)
{
	for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f))
		if (LLVMCountBasicBlocks(f) && !strncmp(LLVMGetValueName(f), "__tilecc_", 9)) {
			LLVMSetLinkage(f, LLVMInternalLinkage);
			LLVMSetVisibility(f, LLVMDefaultVisibility);
		}
}

/* The AMD GPU an ELF object is for (e_flags' EF_AMDGPU_MACH bits; 0 when LLVM did not know
 * the processor it was asked for). */
static unsigned elf_amdgpu_mach(const char *obj, size_t n)
{
	if (n < 64 || memcmp(obj, "\177ELF", 4))
		return 0;
	uint32_t flags;
	memcpy(&flags, obj + 48, 4);
	return flags & 0xff;
}

/* Whether LLVM knows the processor of tm: for one it does not, it warns and makes generic
 * code, which no GPU loads, so an empty module's object tells. Code generation changes the
 * module it runs on, so the kernel module itself cannot be asked first. */
static bool amdgpu_knows(LLVMTargetMachineRef tm, const char *triple)
{
	LLVMContextRef ctx = LLVMContextCreate();
	LLVMModuleRef m = LLVMModuleCreateWithNameInContext("probe", ctx);
	LLVMSetTarget(m, triple);
	LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
	LLVMSetModuleDataLayout(m, td);
	LLVMDisposeTargetData(td);
	char *err = NULL;
	LLVMMemoryBufferRef mb = NULL;
	bool ok = false;
	if (!LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &err, &mb)) {
		ok = elf_amdgpu_mach(LLVMGetBufferStart(mb), LLVMGetBufferSize(mb)) != 0;
		LLVMDisposeMemoryBuffer(mb);
	}
	LLVMDisposeMessage(err);
	LLVMDisposeModule(m);
	LLVMContextDispose(ctx);
	return ok;
}

/* ld.lld for HSACO: TILECC_LD_LLD, the LLVM installation tilecc was built with, then the
 * usual places (find_lld). */
static const char *find_lld_amdgpu(void)
{
	const char *env = getenv("TILECC_LD_LLD");
	if (env && *env)
		return access(env, X_OK) == 0 ? env : NULL;
#ifdef TILECC_LLVM_BINDIR
	if (access(TILECC_LLVM_BINDIR "/ld.lld", X_OK) == 0)
		return TILECC_LLVM_BINDIR "/ld.lld";
#endif
	return find_lld();
}

int codegen_amdgpu(ir_module *m, diag_engine *d, arena *a, const char *gpu, int code_object,
		   int opt_level, strbuf *meta_out, strbuf *tr, tilecc_emit emit, char **out,
		   size_t *len)
{
	char what[64];
	double t = now_ms();
	init_amdgpu();
	/* RDNA (gfx10 and later) in wave64: ds_bpermute reaches only the lanes of the same
	 * half-wave, which the butterflies over 64 lanes rely on */
	if (!strncmp(gpu, "gfx1", 4) && strlen(gpu) >= 7) {
		diag_error(d, SRCLOC_NONE, "'%s' is an RDNA GPU (gfx10 or later); tilecc's AMD backend targets "
					   "the wave64 CDNA/GCN family: gfx906, gfx908, gfx90a, gfx940-gfx942 "
					   "and Hygon DCUs", gpu);
		return 1;
	}
	cg c;
	cg_open(&c, d, a, m);
	c.meta_out = meta_out;
	c.vec_bytes = 16;
	c.gpu = true;
	c.isa = &amdgpu_isa;
	const char *triple = "amdgcn-amd-amdhsa";
	char *err = NULL;
	LLVMTargetRef target;
	LLVMTargetMachineRef tm = NULL;
	char *obj = NULL;
	size_t olen = 0;
	int rc = 1;
	if (LLVMGetTargetFromTriple(triple, &target, &err)) {
		diag_error(d, SRCLOC_NONE, "LLVM has no AMDGPU target: %s", err);
		LLVMDisposeMessage(err);
		goto done;
	}
	/* wave64 everywhere: gfx9 has nothing else, and the layouts assume it */
	tm = LLVMCreateTargetMachine(target, triple, gpu, "+wavefrontsize64", opt_level == 0 ? LLVMCodeGenLevelNone
											     : LLVMCodeGenLevelAggressive,
				     LLVMRelocPIC, LLVMCodeModelDefault);
	if (!tm) {
		diag_error(d, SRCLOC_NONE, "cannot create an LLVM target machine for %s (%s)", triple, gpu);
		goto done;
	}
	if (!amdgpu_knows(tm, triple)) {
		diag_error(d, SRCLOC_NONE, "LLVM %s does not know the AMD GPU '%s' (Hygon's newer DCUs, "
					   "gfx926/gfx928/gfx936, need the DTK's LLVM: docs/amdgpu.md)",
			   codegen_llvm_version(), gpu);
		goto done;
	}
	cg_target(&c, tm, triple);
	LLVMAddModuleFlag(c.mod, LLVMModuleFlagBehaviorError, "amdhsa_code_object_version", 26,
			  LLVMValueAsMetadata(cg_i32(&c, code_object * 100)));
	if (lower_all(&c, m, a, "amdgcn", gpu, "") || link_devmath(&c))
		goto done;
	internalize_helpers(&c);
	time_phase(tr, "lowering to LLVM IR", t, count_insts(tr, c.mod, what, sizeof what));
	bool huge;
	if (optimize(&c, tm, opt_level, tr, m, &huge))
		goto done;
	if (huge) {
		/* a huge function's code at CodeGenOpt::None (see "huge functions") */
		LLVMDisposeTargetMachine(tm);
		tm = LLVMCreateTargetMachine(target, triple, gpu, "+wavefrontsize64", LLVMCodeGenLevelNone,
					     LLVMRelocPIC, LLVMCodeModelDefault);
		if (!tm) {
			diag_error(d, SRCLOC_NONE, "cannot create an LLVM target machine for %s (%s)", triple, gpu);
			goto done;
		}
	}
	t = now_ms();
	if (emit != TILECC_EMIT_HSACO) {
		rc = emit_module(&c, tm, emit, out, len);
		time_phase(tr, emit == TILECC_EMIT_LLVM ? "printing LLVM IR" : "LLVM code generation", t, NULL);
		goto done;
	}
	if ((rc = emit_module(&c, tm, TILECC_EMIT_OBJ, &obj, &olen)))
		goto done;
	time_phase(tr, "LLVM code generation", t, NULL);
	t = now_ms();
	rc = 1;
	const char *lld = find_lld_amdgpu();
	if (!lld) {
		diag_error(d, SRCLOC_NONE, "cannot find ld.lld to link the HSACO (install lld-19, or set "
					   "TILECC_LD_LLD)");
		goto done;
	}
	char *argv[] = {(char *)lld, "-shared", "--no-undefined", "-o", "@OUT", "@IN"};
	rc = through_tool(d, "linking the HSACO", "k.o", obj, olen, argv, 6, out, len);
	time_phase(tr, "linking (ld.lld)", t, NULL);
done:
	free(obj);
	cg_close(&c, tm);
	return rc;
}
