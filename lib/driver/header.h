/* header.h: the C header and source that embed a compiled kernel (see header.c). */
#ifndef TILECC_DRIVER_HEADER_H
#define TILECC_DRIVER_HEADER_H

#include <stdbool.h>
#include <stddef.h>

#include "ir/ir.h"
#include "support/strbuf.h"

/* Writes the header (into h) and the C source (into c) for kernel f whose artifact for
 * `target` is artifact[0..size); header_name is how the source includes the header. */
void header_write(strbuf *h, strbuf *c, const ir_func *f, const char *header_name,
		  const char *target, const char *artifact, size_t size);

/* One embedded artifact of a multi-target launcher (header_dispatch.c). */
typedef struct header_artifact {
	const char *target; /* "sm_90a", "gfx942", "x86-64" */
	const char *format; /* the tilert_format's enumerator suffix: "CUBIN", "PTX", "HSACO", "HOST" */
	const char *label;  /* "sm_90a cubin", "x86-64": what NAME_variant() answers */
	const char *bytes;
	size_t size;
} header_artifact;

/* Writes the header and source of a launcher for kernel f that picks one of arts[0..n) at
 * run time through tilert_variant_load (docs/abi.md, "Several targets in one launcher");
 * targets lists the targets for the comments. */
void header_write_multi(strbuf *h, strbuf *c, const ir_func *f, const char *header_name,
			const char *targets, const header_artifact *arts, size_t n);

/* One specialization variant of a launcher with several (header_spec.c): its signature,
 * its launch conditions (tilert_spec_choose: one character per runtime parameter) and its
 * artifacts, one set per target (arts[0..n), as header_write_multi takes them). */
typedef struct header_spec {
	const char *signature; /* "*fp32:16, *fp32, i32:16": what NAME_last_variant() answers */
	const char *conds;     /* "D--D" */
	const header_artifact *arts;
	size_t n;
} header_spec;

/* Writes the header and source of a launcher for kernel f over specs[0..nspec), the most
 * specialized first and the last one unconditional (docs/abi.md, "Specialization variants"). */
void header_write_spec(strbuf *h, strbuf *c, const ir_func *f, const char *header_name,
		       const char *targets, const header_spec *specs, size_t nspec);

/* One set of embedded artifacts of a launcher with several variants (a specialization
 * variant, a tuned config's variant): one artifact per target, and a label for the comments. */
typedef struct header_set {
	const char *label; /* "*fp32:16, *fp32, i32:16", "BLOCK=64 num_warps=4 EVEN=True" */
	const header_artifact *arts;
	size_t n;
} header_set;

/* Writes, for a launcher over sets[0..n) (header_spec.c, header_tune.c), each set's
 * artifacts and its tilert_variant table, the targets' labels, the table arts[] ({v, n} per
 * set) and the lazy loader over it, guarded by one mutex:
 *   static int load(size_t s, tilert_kernel **out)  set s, loaded on its first use
 *                                                   (tilert_variant_load)
 *   static int last                                 the set the last launch used, -1 before
 *   void NAME_unload(void)                          unloads every set
 *   const char *NAME_variant(void)                  set dflt's chosen artifact ("x86-64")
 *   tilert_format NAME_format(void)                 its format
 * The caller writes what picks a set and calls load(). */
void header_write_sets(strbuf *c, const char *kernel, const header_set *sets, size_t n, size_t dflt);

/* Pieces the writers share: TILECC_KERNEL_<NAME>_H; the launcher's prototype; the
 * launcher's definition, which calls NAME_kernel() (spec: the source's spec_load(), given
 * the values of the parameters) and then tilert_launch(). */
void header_guard(strbuf *b, const char *name);
/* The header's include guard, includes and extern "C" opening, after its first comment. */
void header_open(strbuf *h, const char *kernel);
void header_prototype(strbuf *b, const ir_func *f);
/* The parameters of the prototype, each as ",\n\t\tTYPE NAME". */
void header_params(strbuf *b, const ir_func *f);
/* Parameter i's name as a C identifier (a C keyword or a name the launchers use gets a
 * trailing underscore; argI when it has none). */
void header_param_name(strbuf *b, const ir_value *a, int i);
void header_launcher(strbuf *c, const ir_func *f, bool spec);
/* The bytes as the body of a C array initializer ("0" for none), 16 a line. */
void header_put_bytes(strbuf *c, const char *bytes, size_t size);

#endif
