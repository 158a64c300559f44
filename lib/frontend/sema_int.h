/* sema_int.h: what the pieces of sema share (sema.c: specialization, scopes, statements and
 * control flow; sema_expr.c: values, promotion, operators, casts, broadcasting;
 * sema_builtins.c: the builtin table, its binder and the tl.* handlers; sema_builtins_math.c:
 * the element-wise math handlers and the Python and math builtins). Not a public header. */
#ifndef TILECC_FRONTEND_SEMA_INT_H
#define TILECC_FRONTEND_SEMA_INT_H

#include <setjmp.h>
#include <stdbool.h>

#include "frontend/ast.h"
#include "frontend/sema.h"
#include "ir/ir.h"

/* ---- compile-time values -----------------------------------------------------------------
 * Everything an expression can evaluate to. SV_IR is a runtime value (scalar or tile) in the
 * IR being built; the others are known at compile time (Triton's constexprs and the Python
 * objects a kernel can name: modules, functions, dtypes). */
typedef enum sval_kind {
	SV_UNDEF,   /* no value (a helper that returns nothing) */
	SV_IR,      /* ir: an SSA value */
	SV_INT,     /* i: a Python int (constexpr) */
	SV_FLOAT,   /* f */
	SV_BOOL,    /* b */
	SV_NONE,
	SV_STR,     /* s */
	SV_DTYPE,   /* dtype: a scalar or pointer type (tl.float16, tl.pointer_type(...)) */
	SV_TUPLE,   /* tup: tuples and lists */
	SV_MODULE,  /* module: tl, tl.math, triton, math */
	SV_JITFN,   /* fn: a @triton.jit function of this file */
	SV_BUILTIN, /* builtin: a function of the tl surface or a Python builtin */
	SV_METHOD,  /* method: a builtin bound to a receiver, e.g. x.to */
	SV_SLICE,   /* a ':' inside a subscript (only full slices are meaningful) */
	SV_LAMBDA,  /* lambda: only inside decorators */
	SV_PYMOD,   /* pymod: a Python module of the search path (import pkg.utils as u) */
	SV_DESC,    /* desc: a tensor descriptor (tl.make_tensor_descriptor) */
	SV_TYPEINFO, /* dtype: torch.finfo(t) (a float dtype) or torch.iinfo(t) (an integer one) */
} sval_kind;

/* The modules tilecc provides itself: triton, triton.language (and .core), its math and
 * libdevice namespaces, triton.language.extra (and .cuda/.hip), Python's math, and the
 * compile-time part of torch (dtypes, finfo, iinfo: sema_torch.c). */
typedef enum sema_module_id {
	MOD_TL, MOD_TL_MATH, MOD_TRITON, MOD_MATH, MOD_TL_EXTRA, MOD_TL_EXTRA_VENDOR, MOD_TORCH,
	MOD_TL_STANDARD, /* triton.language.standard: tl's names and its private _log2 */
} sema_module_id;

typedef struct sema_pymod sema_pymod;
struct sema;

/* A tensor descriptor (sema_builtins_desc.c), made in the kernel or passed by the host as
 * a tensordesc<...> parameter: a global tensor's base, runtime shape (int32) and strides
 * (int64), and the block an access moves. */
typedef struct sema_desc {
	int rank;
	ir_value *base;
	ir_value *shape[5], *strides[5];
	int64_t block[5];
	bool pad_nan;       /* padding_option="nan": out-of-bounds reads give NaN */
	ir_value *pad_flag; /* a host descriptor's padding parameter (i1, true: NaN), or NULL */
} sema_desc;

typedef struct sval sval;
struct sval {
	sval_kind kind;
	union {
		ir_value *ir;
		int64_t i;
		double f;
		bool b;
		const char *s;
		const ir_type *dtype;
		struct {
			sval *items;
			int n;
		} tup;
		sema_module_id module;
		const ast_func *fn;
		int builtin; /* index into sema_builtins[] */
		struct {
			int builtin;
			sval *self;
		} method;
		const ast_expr *lambda;
		sema_pymod *pymod;
		const sema_desc *desc;
	};
};

/* ---- scopes --------------------------------------------------------------------------------
 * A scope is a flat list of bindings, looked up from the end; copying it is how control flow
 * snapshots the state of all variables. */
typedef struct binding {
	const char *name; /* interned */
	sval v;
} binding;

typedef struct scope {
	binding *b;
	int n, cap;
} scope;

/* ---- modules (sema_module.c) ---------------------------------------------------------------
 * Every Python file of a compilation (the kernel file and what it imports from the search
 * path) is a sema_pymod, read and parsed once. Module-level code is not run: a global is
 * evaluated when a kernel needs it, from the last statement that binds it (see
 * sema_module.c), and the result is cached in the module. */
typedef struct sema_global_entry sema_global_entry;
struct sema_pymod {
	const char *name;      /* dotted module name ("flag_gems.ops.add"; the file's stem for a
				* kernel file outside any package) */
	const char *pkg;       /* the package relative imports start from ("" at top level) */
	const char *path;      /* the file, NULL for a module that was not found */
	uint32_t file;         /* diag file index */
	const ast_module *ast; /* NULL when not found or not parsed */
	const char *why;       /* why it could not be loaded */
	sema_global_entry *cache;
	int ncache, capcache;
};

/* The module whose file index is `file` (the module a function was defined in). */
sema_pymod *sema_module_of_file(struct sema *s, uint32_t file);
/* The value of module-level name `name` of m as a kernel sees it (after the whole module
 * ran). Found: returns true. Not bound in m: returns false. Bound but not computable at
 * compile time: reports an error at use naming the reason, with a note at the definition. */
bool sema_module_global(struct sema *s, sema_pymod *m, const char *name, srcloc use, sval *out);
/* Attribute `name` of a module value (SV_PYMOD): a global of it or a submodule. */
sval sema_pymod_attr(struct sema *s, sema_pymod *m, const char *name, srcloc loc);
/* The name lookup of module-level code being evaluated lazily (s->lazy set): false when
 * the name is not bound before the statement being evaluated. */
bool sema_lazy_lookup(struct sema *s, const char *name, srcloc use, sval *out);
/* Sets up the module table and the kernel file's module from spec. */
void sema_modules_init(struct sema *s, const sema_spec *spec);
/* The -s template of a kernel: "*<dtype>, <type>, BLOCK=<constexpr>" (sema_list.c). */
void sema_signature_template(strbuf *out, const ast_func *fn);
/* Whether a function carries @triton.jit (as @jit, @triton.jit or @triton.jit(...)). */
bool sema_is_jit(const ast_func *fn);
/* Whether a function is a compile-time Python function: decorated @tl.constexpr (a
 * constexpr wrapping a function, which Triton calls at compile time) or
 * @triton.constexpr_function. */
bool sema_is_constexpr_fn(const ast_func *fn);

/* ---- the sema state ---------------------------------------------------------------------- */
/* Expressions nested deeper than this (x[0][0]..., a.a.a..., n + n + ... are each one
 * level a term) are "too deeply nested" rather than a risk to the C stack. */
#define SEMA_MAX_EXPR_DEPTH 1000

typedef struct sema {
	ir_context *ctx;
	arena *a;
	strtab *names;
	diag_engine *d;
	const ast_module *mod;
	sema_pymod *main;     /* the kernel file's module */
	sema_pymod *cur_mod;  /* the module whose globals the code being evaluated sees */
	const struct sema_lazy *lazy; /* module-level code being evaluated (see sema_module.c) */
	struct sema_modtab *mods;     /* every module of the compilation */
	scope *locals;   /* the function being evaluated */
	ir_builder b;    /* insertion point */
	jmp_buf *fail;   /* errors longjmp here after being reported */
	int64_t max_tile_elems; /* the largest tile a shape may describe */
	int depth;       /* helper call depth */
	int expr_depth;  /* expressions being evaluated, each inside the next (eval) */
	int pyfn_depth;  /* inside compile-time Python functions (@tl.constexpr, ...) */
	int in_loop;     /* inside a runtime loop: return is not allowed */
	const ast_func *kernel;
	struct sema_frame *frame; /* the function being evaluated: return value, nesting */
	/* interned names used by comparisons */
	const char *n_constexpr, *n_tl, *n_triton, *n_jit;
} sema;

/* A kernel found at module level: its function and decorators (sema.c). */
typedef struct jit_info {
	const ast_func *fn;
	bool is_jit;
	const ast_expr *autotune, *heuristics;
} jit_info;

/* A kernel parameter as the specialization gives it (sema_signature.c). */
typedef struct param_spec {
	bool is_constexpr;
	bool has_value;   /* constexpr value known */
	sval value;
	const ir_type *type; /* runtime parameter type (a descriptor's: the base pointer) */
	int64_t div;
	bool eq1;
	int desc_rank;    /* > 0: a host tensor descriptor, tensordesc<T[block]> */
	int64_t desc_block[5];
	srcloc loc;       /* where the value or type came from (for diagnostics) */
} param_spec;

/* Whether annotation a is tl.constexpr (or triton.language.constexpr, or its string). */
bool sema_is_constexpr_annotation(sema *s, const ast_expr *a);
/* The kernel's parameters specialized by spec's signature, definitions and the defaults
 * (sema_signature.c): ps[i] for each parameter, and the launch options the signature or
 * definitions set. */
void sema_specialize(sema *s, const jit_info *ji, const sema_spec *spec, param_spec *ps, int *num_warps,
		     int *num_stages);

/* Reports an error at loc and abandons the compilation (longjmp to the sema entry). */
_Noreturn void sema_fail(sema *s, srcloc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- values (sema_expr.c) ----------------------------------------------------------------- */
static inline sval sv_int(int64_t i) { sval v = {.kind = SV_INT}; v.i = i; return v; }
static inline sval sv_float(double f) { sval v = {.kind = SV_FLOAT}; v.f = f; return v; }
static inline sval sv_bool(bool b) { sval v = {.kind = SV_BOOL}; v.b = b; return v; }
static inline sval sv_ir(ir_value *x) { sval v = {.kind = SV_IR}; v.ir = x; return v; }
static inline sval sv_dtype(const ir_type *t) { sval v = {.kind = SV_DTYPE}; v.dtype = t; return v; }
static inline sval sv_none(void) { sval v = {.kind = SV_NONE}; return v; }
sval sv_tuple(sema *s, int n, const sval *items);

/* True for SV_INT, SV_FLOAT, SV_BOOL: Python numbers, Triton's weakly typed scalars. */
bool sv_is_number(const sval *v);
bool sv_is_compile_time(const sval *v);
/* "a tile<64xf32>", "the constexpr 3", "the module tl" for diagnostics. */
const char *sv_describe(sema *s, const sval *v);
/* Triton's name of a type: "fp32", "int32", "pointer<fp16>", "tensor [64, 32] of fp32". */
const char *sema_type_name(sema *s, const ir_type *t);
/* "[64, 32]" */
const char *sema_shape_str(sema *s, const ir_type *t);

/* The default type of a Python number, as Triton's to_tensor chooses it (int: i32, u32,
 * i64 or u64 by range; float: f32; bool: i1). */
const ir_type *sema_number_type(sema *s, const sval *v);
/* Materializes v as an IR value. Numbers become constants of their default type (or of
 * `as` when non-NULL: a scalar type); SV_IR passes through; anything else fails at loc. */
ir_value *sema_to_ir(sema *s, const sval *v, const ir_type *as, srcloc loc);
/* Python's int() of a float: truncation toward zero; NaN, infinities and values outside
 * 64 bits fail at loc. */
int64_t sema_float_to_int(sema *s, double f, srcloc loc);
/* Python's a ** b and math.pow(a, b) on floats: 0.0 to a negative power, a negative base to
 * a fractional power (a complex result) and overflow fail at loc, not C's inf and nan. */
double sema_float_pow(sema *s, double a, double b, srcloc loc);
/* A constant of scalar or tile type t holding the number v. */
ir_value *sema_const(sema *s, const ir_type *t, const sval *v);
/* Whether v is a scalar integer (or int1) constant; its value in *out. */
bool sema_ir_const_int(const ir_value *v, int64_t *out);
/* Requires a compile-time integer (constexpr or Python int); what names the argument. */
int64_t sema_expect_int(sema *s, const sval *v, srcloc loc, const char *what);
/* Requires a dtype (tl.float32 etc.). */
const ir_type *sema_expect_dtype(sema *s, const sval *v, srcloc loc, const char *what);
/* Requires a truth value known at compile time. */
bool sema_truth(sema *s, const sval *v, srcloc loc);

/* Casts x to the scalar element type `to` following Triton's cast rules (int to bool is
 * != 0, bf16 <-> fp16 through fp32, ...); bitcast reinterprets bits (same width). */
ir_value *sema_cast(sema *s, ir_value *x, const ir_type *to, bool bitcast, srcloc loc);
/* Broadcasts x (scalar or tile) to the tile shape of `like` (which must be reachable by
 * Triton's broadcasting rules); names both shapes on failure. */
ir_value *sema_broadcast_to(sema *s, ir_value *x, int rank, const int64_t *shape, srcloc loc);
/* Broadcasts two values against each other (rank extension on the left, dims of 1). */
void sema_broadcast_pair(sema *s, ir_value **x, ir_value **y, srcloc loc, const char *opname);

/* Binary and unary operators with Triton's promotion, for all value kinds (constexprs fold
 * with Python semantics). op is an ast_binop / ast_cmpop / ast_unop. */
sval sema_binary(sema *s, ast_binop op, sval l, sval r, srcloc loc);
sval sema_compare(sema *s, ast_cmpop op, sval l, sval r, srcloc loc);
sval sema_unary(sema *s, ast_unop op, sval x, srcloc loc);
/* Triton's computation type: both operands of an arithmetic op converted to one type and
 * broadcast to one shape. div_or_mod selects the fp16/bf16 -> fp32 rule. */
void sema_arith_operands(sema *s, sval l, sval r, bool div_or_mod, ir_value **lo, ir_value **ro,
			 srcloc loc, const char *opname);
/* The range of integer type t (int1: 0..1; uint64's maximum clamped to INT64_MAX). */
void sema_int_range(const ir_type *t, int64_t *lo, int64_t *hi);
/* Structural equality of compile-time values; SV_IR values are equal when identical. */
bool sema_sv_equal(const sval *a, const sval *b);
/* Element-wise maximum / minimum (tl.maximum, the reductions' combiners). */
ir_value *sema_max(sema *s, ir_value *x, ir_value *y, bool is_max, bool propagate_nan);
/* x != 0 as i1 (for conditions and casts to bool). */
ir_value *sema_to_i1(sema *s, ir_value *x, srcloc loc);

/* Block shape rule: every dim a power of two, at most 2^20 elements. */
void sema_check_shape(sema *s, int rank, const int64_t *shape, srcloc loc);

/* ---- builtins (sema_builtins.c) ------------------------------------------------------------ */

/* Arguments of a call, evaluated, positional then keyword. */
typedef struct sema_args {
	const sval *pos;
	const srcloc *pos_loc;
	int npos;
	const ast_keyword *kws; /* names and locations of keywords */
	const sval *kw;         /* their values */
	int nkw;
	srcloc loc;             /* the call */
	const sval *self;       /* the receiver of a method call (x.to(...)), or NULL */
} sema_args;

typedef sval (*sema_builtin_fn)(sema *s, const sema_args *a, const sval *slots,
				const srcloc *slot_loc, int id);

/* One entry of the builtin table: its Python-visible name, the namespace it lives in, the
 * parameter names (NULL-ended; the first `required` must be given; "*name" gathers the
 * remaining positional arguments into a tuple, and the parameters after it are keyword-only),
 * and the handler. */
typedef struct sema_builtin {
	const char *name;
	unsigned ns; /* SEMA_NS_* bits */
	const char *params[12];
	int required;
	sema_builtin_fn fn;
	bool method; /* also callable as x.name(...) with x as the first parameter */
} sema_builtin;

enum {
	SEMA_NS_TL = 1,      /* tl.name */
	SEMA_NS_MATH = 2,    /* tl.math.name */
	SEMA_NS_TRITON = 4,  /* triton.name */
	SEMA_NS_PY = 8,      /* Python builtins: min, max, range, float, int, len, ... */
	SEMA_NS_PYMATH = 16, /* import math: math.name on constexprs */
	SEMA_NS_DTYPE = 32,  /* methods of dtype objects: x.dtype.is_fp16() (sema_dtype.c) */
	SEMA_NS_DESC = 64,   /* methods of tensor descriptors: desc.load() (sema_builtins_desc.c) */
	SEMA_NS_TORCH = 128, /* torch.finfo, torch.iinfo (sema_torch.c) */
	SEMA_NS_TLSTD = 256, /* triton.language.standard's own names beyond tl's (_log2) */
};

extern const sema_builtin sema_builtins[];
extern const int sema_num_builtins;
/* The builtin `name` in namespace ns, or -1. Asked for SEMA_NS_TL | SEMA_NS_MATH together (the
 * method lookup), it also finds method-only entries (ns 0, e.g. x.to). */
int sema_find_builtin(const char *name, unsigned ns);
/* The method `name` (x.name(...)), or -1. */
int sema_find_method(const char *name);
/* Dtype attributes of tl: tl.float16 ... ; NULL when `name` is not one. */
const ir_type *sema_dtype_by_name(sema *s, const char *name);

/* Binds the call's arguments to the builtin's parameters (positional, then keywords; a
 * method's receiver is the first parameter) and calls it. Reports unknown keywords, too
 * many arguments and missing required ones with the builtin's name. */
sval sema_call_builtin(sema *s, int id, const sema_args *a);

/* ---- builtin handlers (sema_builtins.c, sema_builtins_math.c) ------------------------------
 * A handler gets the bound slots (sl, SV_UNDEF where not given) and their locations (sl_loc);
 * id names the table entry, so one handler can serve a family (exp, log, ...). */
#define SEMA_HANDLER(name) \
	sval name(sema *s, const sema_args *a, const sval *sl, const srcloc *sl_loc, int id)

/* The handlers of sema_builtins_math.c, which the table in sema_builtins.c names. */
SEMA_HANDLER(sema_bi_math1);
SEMA_HANDLER(sema_bi_abs);
SEMA_HANDLER(sema_bi_sigmoid);
SEMA_HANDLER(sema_bi_maximum);
SEMA_HANDLER(sema_bi_clamp);
SEMA_HANDLER(sema_bi_fma);
SEMA_HANDLER(sema_bi_umulhi);
SEMA_HANDLER(sema_bi_fdiv);
SEMA_HANDLER(sema_bi_where);
SEMA_HANDLER(sema_bi_cdiv);
SEMA_HANDLER(sema_bi_swizzle2d);
SEMA_HANDLER(sema_bi_py_minmax);
SEMA_HANDLER(sema_bi_py_float);
SEMA_HANDLER(sema_bi_py_int);
SEMA_HANDLER(sema_bi_py_bool);
SEMA_HANDLER(sema_bi_py_len);
SEMA_HANDLER(sema_bi_py_abs);
SEMA_HANDLER(sema_bi_next_power_of_2);
SEMA_HANDLER(sema_bi_log2_floor);
SEMA_HANDLER(sema_bi_pymath);
/* sema_builtins_libdevice.c: pow, atan2, fmod, hypot, ldexp, ilogb and the classifications. */
SEMA_HANDLER(sema_bi_libdevice);
/* The handlers of sema_builtins_random.c: Philox and the random numbers built on it. */
SEMA_HANDLER(sema_bi_philox_impl);
SEMA_HANDLER(sema_bi_philox);
SEMA_HANDLER(sema_bi_random);
SEMA_HANDLER(sema_bi_uint_to_uniform_float);
SEMA_HANDLER(sema_bi_pair_uniform_to_normal);
/* sema_builtins_sort.c */
SEMA_HANDLER(sema_bi_gather);
SEMA_HANDLER(sema_bi_flip);
SEMA_HANDLER(sema_bi_sort);
SEMA_HANDLER(sema_bi_topk);
SEMA_HANDLER(sema_bi_histogram);
/* sema_builtins_asm.c */
SEMA_HANDLER(sema_bi_inline_asm);
/* sema_builtins_desc.c */
SEMA_HANDLER(sema_bi_make_tensor_descriptor);
SEMA_HANDLER(sema_bi_desc_method);
/* Fails unless block (rank entries) is a block shape Triton accepts for elements of elem. */
void sema_desc_check_block(sema *s, const ir_type *elem, int rank, const int64_t *block,
			   srcloc loc);
/* The descriptor of a tensordesc<...> kernel parameter, from its 2 * rank + 2 runtime
 * parameters args: base, shape[rank] (i32), strides[rank] (i64), padding (i1). */
sval sema_host_desc(sema *s, int rank, const int64_t *block, ir_value *const *args);
/* The attribute `name` of the descriptor v: a method bound to it, or block_shape, dtype,
 * block_type, shape, strides. */
sval sema_desc_attr(sema *s, const sval *v, const char *name, srcloc loc);
/* sema_dtype.c */
SEMA_HANDLER(sema_bi_dtype_method);
SEMA_HANDLER(sema_bi_get_int_dtype);

/* The attribute `name` of the type t (x.dtype.name, ptr.type.element_ty, x.type.shape, or a
 * method such as is_fp16 bound to t), as Triton's dtype objects have them (sema_dtype.c). */
sval sema_dtype_attr(sema *s, const ir_type *t, const char *name, srcloc loc);
/* sema_torch.c: torch.finfo / torch.iinfo, the attribute `name` of module torch (a dtype or
 * one of those two; anything else is a located error), and the fields of a finfo/iinfo. */
SEMA_HANDLER(sema_bi_torch_info);
sval sema_torch_attr(sema *s, const char *name, srcloc loc);
sval sema_typeinfo_attr(sema *s, const sval *v, const char *name, srcloc loc);

/* The Python-visible name of builtin id ("exp", "max"). */
static inline const char *sema_builtin_name(int id) { return sema_builtins[id].name; }
/* An optional argument not given, or given as None. */
static inline bool sv_absent(const sval *v) { return v->kind == SV_UNDEF || v->kind == SV_NONE; }
/* The element type of a scalar or tile value. */
static inline const ir_type *sema_velem(const ir_value *v) { return ir_type_elem(v->type); }
/* Triton's to_tensor: numbers become constants of their default type. */
static inline ir_value *sema_to_tensor(sema *s, const sval *v, srcloc loc)
{
	return sema_to_ir(s, v, NULL, loc);
}

/* Requires an SV_IR value; fn names the builtin in the message. */
ir_value *sema_need_ir(sema *s, const sval *v, srcloc loc, const char *fn);
/* A constexpr int argument (bools count as 0/1); what names the parameter. */
int64_t sema_cint(sema *s, const sval *v, srcloc loc, const char *what);
/* A constexpr bool argument (ints count as != 0); dflt when absent. */
bool sema_cbool(sema *s, const sval *v, srcloc loc, const char *what, bool dflt);
/* The bf16 -> fp32 step Triton applies before max/min (no native bf16 max/compare). */
ir_value *sema_promote_bf16(sema *s, ir_value *x, srcloc loc);

/* Evaluates an expression in the current scope (sema.c). */
sval sema_eval_expr(sema *s, const ast_expr *e);
/* Attribute `name` of one of tilecc's own modules (sema.c). */
sval sema_module_attr(sema *s, sema_module_id m, const char *name, srcloc loc);

/* Calls a @triton.jit helper (sema.c): binds arguments, evaluates the body inline, and
 * returns its return value (SV_UNDEF when none). */
sval sema_call_jit(sema *s, const ast_func *fn, const sema_args *a);

/* The builder's current location follows the expression being lowered. */
static inline void sema_at(sema *s, srcloc loc) { s->b.loc = loc; }

#endif
