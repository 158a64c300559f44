/* ir.h: the tile IR. Types, values, ops, single-block regions, functions and modules;
 * the builder, printer, parser and verifier all work on these records.
 *
 * Ownership: an ir_context owns types (hash-consed: equal types are the same pointer) and
 * every IR record, all allocated from the compilation's arena. Nothing is freed on its own.
 *
 * Shape of the IR: a module holds functions; a function's body is one block whose
 * arguments are the kernel parameters; ops live in doubly linked lists inside blocks; an op
 * with regions (for, if, while, reduce, scan) owns one block per region. SSA values are
 * op results or block arguments. The op set is dialects/tile/ops.def, followed by the
 * GPU-level ops of dialects/gpu/ops.def. */
#ifndef TILECC_IR_IR_H
#define TILECC_IR_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/arena.h"
#include "support/diag.h"
#include "support/intern.h"
#include "support/strbuf.h"

/* ---- types --------------------------------------------------------------------------- */

typedef enum ir_type_kind {
	/* scalars, in promotion order within each family */
	IR_I1, IR_I8, IR_I16, IR_I32, IR_I64,
	IR_U8, IR_U16, IR_U32, IR_U64,
	IR_F8E4NV, IR_F8E5, IR_F16, IR_BF16, IR_F32, IR_F64,
	IR_PTR,  /* pointer: elem is the pointee (a scalar, or a tile for block pointers) */
	IR_TILE, /* tile: rank >= 1, shape, elem is a scalar or pointer type */
	IR_NUM_TYPE_KINDS
} ir_type_kind;

typedef struct ir_type ir_type;
struct ir_type {
	ir_type_kind kind;
	const ir_type *elem;  /* IR_PTR: pointee; IR_TILE: element */
	int addrspace;        /* IR_PTR: 1 = global (the default), 3 = shared */
	int rank;             /* IR_TILE */
	const int64_t *shape; /* IR_TILE: rank extents */
	const char *layout;   /* IR_TILE: layout attribute text, NULL until layouts exist */
};

typedef struct ir_context ir_context;

/* The context takes types and records from a; names are interned in names. */
ir_context *ir_context_create(arena *a, strtab *names);
arena *ir_arena(ir_context *c);
strtab *ir_names(ir_context *c);
/* The engine whose file table names the files in op locations (loc("k.py":3:5) when
 * printing); ir_parse_module sets it too. Borrowed. */
void ir_context_set_diag(ir_context *c, diag_engine *d);
diag_engine *ir_context_diag(ir_context *c);

const ir_type *ir_type_scalar(ir_context *c, ir_type_kind k);
const ir_type *ir_type_ptr(ir_context *c, const ir_type *pointee, int addrspace);
const ir_type *ir_type_tile(ir_context *c, const ir_type *elem, int rank, const int64_t *shape);
/* Same with a layout: the text printed after ", #" (NULL: none); copied and interned. */
const ir_type *ir_type_tile_layout(ir_context *c, const ir_type *elem, int rank,
				   const int64_t *shape, const char *layout);
/* Same shape as `like` (a tile) with another element type; a scalar `like` gives elem. */
const ir_type *ir_type_with_elem(ir_context *c, const ir_type *like, const ir_type *elem);

bool ir_type_is_int(const ir_type *t);     /* i1..u64 (scalar only) */
bool ir_type_is_signed(const ir_type *t);  /* i8..i64 (i1 counts as unsigned) */
bool ir_type_is_float(const ir_type *t);   /* f8..f64 */
bool ir_type_is_scalar(const ir_type *t);  /* not a tile */
int ir_type_bits(const ir_type *t);        /* scalar width; pointers are 64 */
/* The element type of a tile, or t itself. */
const ir_type *ir_type_elem(const ir_type *t);
int64_t ir_type_numel(const ir_type *t);   /* 1 for scalars */
/* "f32", "ptr<f16>", "tile<64x32xf32>". */
void ir_type_print(strbuf *out, const ir_type *t);
const char *ir_type_kind_name(ir_type_kind k); /* "i32", "bf16", ... for scalars */

/* ---- ops ----------------------------------------------------------------------------- */

#define VARIADIC (-1)
enum {
	T_PURE = 1 << 0,
	T_COMMUTATIVE = 1 << 1,
	T_READ = 1 << 2,
	T_WRITE = 1 << 3,
	T_TERMINATOR = 1 << 4,
	T_ELEMENTWISE = 1 << 5,
};

/* The verifier's type rules named in ops.def; see verify.c for each. */
typedef enum ir_rule {
	V_NONE, V_CONSTANT, V_PROGRAM_ID, V_MAKE_RANGE, V_SPLAT, V_BROADCAST, V_EXPAND_DIMS,
	V_RESHAPE, V_TRANS, V_JOIN, V_SPLIT, V_SAME_INT, V_SAME_FLOAT, V_LDEXP, V_CMPI, V_CMPF, V_SELECT,
	V_CAST, V_ADDPTR, V_LOAD, V_STORE, V_ATOMIC_RMW, V_ATOMIC_CAS, V_MAKE_BLOCK_PTR, V_ADVANCE,
	V_DOT, V_REDUCE, V_SCAN, V_SAME_AS_OPERAND, V_FOR, V_IF, V_WHILE, V_YIELD, V_CONDITION,
	V_ASSERT, V_CONVERT_LAYOUT, V_GATHER, V_INLINE_ASM, V_LOCAL_VIEW, V_LOCAL_LOAD, V_ASYNC_COPY,
	V_ASYNC_WAIT,
} ir_rule;

typedef enum ir_opcode {
#define OP(e, s, no, nr, ng, tr, rule) IR_OP_##e,
#include "tile/ops.def"
#define OP(e, s, no, nr, ng, tr, rule) IR_OP_##e,
#include "gpu/ops.def"
	IR_NUM_OPS
} ir_opcode;

typedef struct ir_opinfo {
	const char *name;
	int noperands, nresults, nregions; /* VARIADIC allowed for the first two */
	unsigned traits;
	ir_rule rule;
} ir_opinfo;

extern const ir_opinfo ir_ops[IR_NUM_OPS];
/* Looks an op up by its text name; -1 when unknown. */
int ir_opcode_from_name(const char *name);

typedef struct ir_op ir_op;
typedef struct ir_block ir_block;
typedef struct ir_value ir_value;
typedef struct ir_func ir_func;
typedef struct ir_module ir_module;
typedef struct ir_use ir_use;

/* One operand slot of an op, linked into the use list of the value it names, so a value's
 * uses are found without walking the function. Every op holds one per operand (op->uses,
 * parallel to op->operands); ir_op_create, ir_op_set_operand, the replace functions and
 * ir_op_erase keep the lists right, so nothing else may write op->operands. A detached op
 * (removed, not erased) keeps its uses: ir_op_erase is how an op goes away. */
struct ir_use {
	ir_value *value; /* == user->operands[index]; NULL: the slot is empty */
	ir_op *user;
	int index;
	ir_use *prev, *next; /* in value->uses */
};

struct ir_value {
	const ir_type *type;
	ir_op *def;         /* defining op; NULL for a block argument */
	ir_block *block;    /* block argument: its block; result: NULL */
	int index;          /* result number or argument number */
	const char *name;   /* interned hint for printing ("offs"); may be NULL */
	ir_use *uses;       /* every operand slot that names this value, in no order */
};

typedef enum ir_attr_kind {
	IR_ATTR_INT, IR_ATTR_FLOAT, IR_ATTR_BOOL, IR_ATTR_STR, IR_ATTR_INTS, IR_ATTR_TYPE
} ir_attr_kind;

typedef struct ir_attr {
	const char *name; /* interned */
	ir_attr_kind kind;
	union {
		int64_t i;    /* INT, BOOL */
		double f;     /* FLOAT */
		const char *s; /* STR (interned) */
		struct {
			const int64_t *v;
			int n;
		} ints;
		const ir_type *type;
	};
} ir_attr;

struct ir_op {
	ir_opcode code;
	srcloc loc;
	ir_value **operands;
	ir_use *uses;      /* noperands entries: uses[i] is operand i's slot in its use list */
	int noperands;
	ir_value *results; /* array of nresults values */
	int nresults;
	ir_attr *attrs;    /* kept sorted by name so that printing is canonical */
	int nattrs, capattrs;
	ir_block **regions;
	int nregions;
	ir_op *prev, *next;
	ir_block *parent;
};

struct ir_block {
	ir_value **args;
	int nargs, capargs;
	ir_op *first, *last;
	ir_op *parent; /* owning op; NULL for a function body */
	ir_func *func; /* function body: its function */
};

/* A kernel parameter's facts from the signature, kept for the axis analysis. */
typedef struct ir_param_info {
	int64_t divisibility; /* :16 -> 16; 1 when nothing is known */
	bool equal_to_1;      /* :1 */
	const char *name;     /* source name */
	int desc_rank;        /* > 0: the base of a host tensor descriptor (tensordesc<...>),
			       * followed by its 2 * desc_rank + 1 other parameters */
} ir_param_info;

struct ir_func {
	const char *name;
	ir_block *body;          /* args = parameters */
	ir_param_info *params;   /* body->nargs entries */
	ir_attr *attrs;          /* num_warps, num_stages, ... (sorted by name) */
	int nattrs, capattrs;
	srcloc loc;
	ir_func *next;
	ir_module *module; /* the module that holds it */
};

struct ir_module {
	ir_context *ctx;
	ir_func *funcs, *last;
};

/* ---- construction ----------------------------------------------------------------------- */

ir_module *ir_module_create(ir_context *c);
/* Adds a function whose body block has the given parameter types and names. */
ir_func *ir_func_create(ir_module *m, const char *name, int nparams, const ir_type *const *types,
			const char *const *names, srcloc loc);

/* Creates a detached op (not in any block) with room for its operands, results and
 * regions; each region gets an empty block. */
ir_op *ir_op_create(ir_context *c, ir_opcode code, int noperands, ir_value *const *operands,
		    int nresults, const ir_type *const *result_types, srcloc loc);
void ir_block_append(ir_block *b, ir_op *op);
void ir_block_insert_before(ir_block *b, ir_op *before, ir_op *op); /* before NULL: append */
/* Unlinks op from its block; it keeps its operands (and so its uses): for moving ops. */
void ir_op_remove(ir_op *op);
/* Unlinks op from its block (if any) and drops the uses of its operands and of every op in
 * its regions (its operands array stays readable). Its results must have no uses left
 * outside it. */
void ir_op_erase(ir_op *op);
ir_value *ir_block_add_arg(ir_context *c, ir_block *b, const ir_type *t, const char *name);
/* Replaces every use of `from` by an op inside block b (recursively through regions) with
 * `to`: O(uses of from x region depth). */
void ir_replace_uses_in(ir_block *b, ir_value *from, ir_value *to);
/* Replaces every use of `from` with `to`, whoever the user is: O(uses of from). */
void ir_replace_all_uses(ir_value *from, ir_value *to);
void ir_op_set_operand(ir_op *op, int i, ir_value *v);
/* Whether op lies inside block b: in it, or in a region of an op inside it. */
bool ir_op_is_inside(const ir_op *op, const ir_block *b);
/* How many uses v has (every user, attached or not; erased ops have none). */
int ir_value_num_uses(const ir_value *v);
static inline bool ir_value_has_uses(const ir_value *v)
{
	return v->uses != NULL;
}
/* Whether some result of op has a use. */
bool ir_op_has_uses(const ir_op *op);

void ir_op_set_int(ir_context *c, ir_op *op, const char *name, int64_t v);
void ir_op_set_float(ir_context *c, ir_op *op, const char *name, double v);
void ir_op_set_bool(ir_context *c, ir_op *op, const char *name, bool v);
void ir_op_set_str(ir_context *c, ir_op *op, const char *name, const char *v);
void ir_op_set_ints(ir_context *c, ir_op *op, const char *name, const int64_t *v, int n);
void ir_op_set_type(ir_context *c, ir_op *op, const char *name, const ir_type *t);
/* name need not be interned; NULL when absent. */
const ir_attr *ir_op_attr(const ir_op *op, const char *name);
/* Sets a copy of *a (name interned, arrays copied); replaces an attribute of that name. */
void ir_op_set_attr(ir_context *c, ir_op *op, const ir_attr *a);
void ir_func_set_attr(ir_context *c, ir_func *f, const ir_attr *a);
int64_t ir_op_int(const ir_op *op, const char *name, int64_t dflt);
void ir_func_set_int(ir_context *c, ir_func *f, const char *name, int64_t v);
const ir_attr *ir_func_attr(const ir_func *f, const char *name);

/* The builder: an insertion point plus the location new ops get. */
typedef struct ir_builder {
	ir_context *ctx;
	ir_block *block;
	ir_op *before; /* insert before this op; NULL: at the end of block */
	srcloc loc;
} ir_builder;

/* Creates an op at the insertion point. Regions start as empty blocks. */
ir_op *ir_build(ir_builder *b, ir_opcode code, int noperands, ir_value *const *operands,
		int nresults, const ir_type *const *result_types);
/* One-result shorthands; return the result value. */
ir_value *ir_build0(ir_builder *b, ir_opcode code, const ir_type *t);
ir_value *ir_build1(ir_builder *b, ir_opcode code, const ir_type *t, ir_value *a);
ir_value *ir_build2(ir_builder *b, ir_opcode code, const ir_type *t, ir_value *a, ir_value *c);
ir_value *ir_build3(ir_builder *b, ir_opcode code, const ir_type *t, ir_value *a, ir_value *c,
		    ir_value *d);
/* constant {value = v}: integer (also i1) or float scalars and splatted tiles. */
ir_value *ir_const_int(ir_builder *b, const ir_type *t, int64_t v);
ir_value *ir_const_float(ir_builder *b, const ir_type *t, double v);

/* ---- text form, verifier -------------------------------------------------------------- */

enum { IR_PRINT_LOCS = 1 };
/* Prints the module in the text form of docs/ir.md. */
void ir_print_module(strbuf *out, const ir_module *m, unsigned flags);
void ir_print_func(strbuf *out, const ir_func *f, unsigned flags);
void ir_print_op(strbuf *out, const ir_op *op, unsigned flags); /* for diagnostics */

/* Parses the text form; reports errors through d with locations in `file`; NULL on error. */
ir_module *ir_parse_module(ir_context *c, diag_engine *d, uint32_t file, const char *text,
			   uint32_t len);

/* Checks structure and types; reports each problem through d at the op's location
 * (naming the op). Returns the number of problems (0: valid). */
int ir_verify_module(const ir_module *m, diag_engine *d);
/* The use-list part of it (verify_uses.c): every operand is on its value's use list and
 * every use on a list is an operand of an op in f. Returns the number of problems. */
int ir_verify_uses(const ir_func *f, diag_engine *d);

/* The limits on the attributes that later passes divide by, shift by or loop on. */
enum {
	IR_MAX_NUM_WARPS = 32,  /* num_warps: a power of two from 1 */
	IR_MAX_NUM_STAGES = 16, /* num_stages (function and loop): 0 to this */
	IR_MAX_NUM_CTAS = 16,   /* num_ctas: 1 to this */
	IR_MAX_UNROLL = 1024,   /* unroll (tl.range's loop_unroll_factor): 0 to this */
	IR_MAX_VEC = 16         /* vec: a power of two from 1 */
};
/* Checks one function attribute (is_func) or op attribute against those limits. NULL when
 * it is valid (or not one of them), else a message naming it, in buf. */
const char *ir_check_attr(const ir_attr *a, bool is_func, char *buf, size_t size);

/* ---- internal to lib/ir: a pointer-keyed hash map -------------------------------------- */

/* Maps keys to non-NULL values (NULL: absent; putting NULL erases). malloc'd; the owner
 * zero-initialises it and calls ir_ptrmap_free. */
typedef struct ir_ptrmap {
	struct ir_ptrmap_slot *slots;
	size_t cap, len;
} ir_ptrmap;
void *ir_ptrmap_get(const ir_ptrmap *m, const void *key);
bool ir_ptrmap_put(ir_ptrmap *m, const void *key, void *val); /* false: out of memory */
void ir_ptrmap_free(ir_ptrmap *m);

#endif
