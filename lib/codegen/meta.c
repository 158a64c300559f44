/* meta.c: what the lowerings put in NAME__meta: the runtime parameters in signature
 * syntax ("*fp32:16,i32:16"), shared by every target. */
#include "codegen/cg.h"

void cg_signature_text(strbuf *b, const ir_func *f)
{
	for (int i = 0; i < f->body->nargs; i++) {
		const ir_type *t = f->body->args[i]->type;
		if (i)
			strbuf_putc(b, ',');
		const ir_type *s = t->kind == IR_PTR ? t->elem : t;
		if (t->kind == IR_PTR)
			strbuf_putc(b, '*');
		static const char *const names[] = {
		    [IR_I1] = "i1", [IR_I8] = "i8", [IR_I16] = "i16", [IR_I32] = "i32", [IR_I64] = "i64",
		    [IR_U8] = "u8", [IR_U16] = "u16", [IR_U32] = "u32", [IR_U64] = "u64",
		    [IR_F8E4NV] = "fp8e4nv", [IR_F8E5] = "fp8e5", [IR_F16] = "fp16", [IR_BF16] = "bf16",
		    [IR_F32] = "fp32", [IR_F64] = "fp64"};
		strbuf_puts(b, s->kind < IR_PTR ? names[s->kind] : "?");
		if (f->params[i].equal_to_1)
			strbuf_puts(b, ":1");
		else if (f->params[i].divisibility >= 16)
			strbuf_puts(b, ":16");
	}
}

