/* elf_check.c: validation of a CPU shared object before anything maps it (docs/abi.md,
 * "What the loader accepts").
 *
 * Why libtilert maps host objects itself (elf_load.c) instead of validating them for
 * glibc's dlopen: dlopen reads much more of a file than its structure (hash tables it
 * walks without bounds, version chains it follows until a zero link, assertions that abort
 * the process on a bad DT_PLTREL or a verneed naming no DT_NEEDED, RELRO ranges it
 * mprotects, notes it parses), and it then runs the object's constructors, whose code and
 * data no validation can check: a flipped byte in a GOT entry that a crt destructor calls,
 * or in the table of globals that an AddressSanitizer constructor registers, crashes the
 * process after every structural check passed. A loader of our own reads only what it needs
 * (program headers, the dynamic section, the symbol and string tables, the relocations and
 * the symbol versions of imports), checks each of those reads here, and runs no code of the
 * module: its constructors and destructors are not run, which tilecc's objects (linked by
 * ld.lld without crt files) do not have anyway. The price: the module is not in the dynamic
 * linker's list (no dladdr, gdb sees its code as unknown, a kernel's own references to its
 * exported symbols bind to its own definitions), and it cannot have thread-local storage.
 *
 * The accepted subset, checked below in this order (anything else is refused, with what):
 *   header     64-bit, little-endian, ELF version 1, OS ABI System V or GNU, ABI version 0,
 *              ET_DYN, the host's e_machine, standard header and program header sizes;
 *              on riscv64 the lp64d ABI (e_flags).
 *   segments   PT_LOAD (at most 16, sorted, not sharing a page, in the file, filesz <=
 *              memsz, a power-of-two alignment of a page or more with offset = vaddr modulo
 *              it, never writable and executable, a span of at most 1 GiB, the first one at
 *              file offset 0); exactly one PT_DYNAMIC, inside a writable PT_LOAD's file
 *              bytes; PT_PHDR, PT_NOTE, PT_GNU_EH_FRAME, PT_GNU_PROPERTY inside a PT_LOAD's
 *              file bytes; at most one PT_GNU_RELRO, inside a writable PT_LOAD;
 *              PT_GNU_STACK without PF_X; PT_NULL; PT_RISCV_ATTRIBUTES on riscv64. No
 *              PT_TLS, no PT_INTERP.
 *   dynamic    terminated by DT_NULL inside the segment; each tag of a known set at most
 *              once (DT_NEEDED up to 16 times); DT_STRTAB, DT_STRSZ, DT_SYMTAB and DT_HASH
 *              or DT_GNU_HASH present; RELA tables only (DT_PLTREL = DT_RELA), DT_RELR;
 *              no DT_TEXTREL, DT_RPATH, DT_RUNPATH, filters or audit libraries; DT_FLAGS
 *              and DT_FLAGS_1 limited to binding flags. Every address inside a PT_LOAD's
 *              file bytes; DT_INIT, DT_FINI and the init/fini arrays are accepted and
 *              ignored (nothing is run).
 *   strings    the string table ends in a NUL, so every offset below DT_STRSZ names a
 *              terminated string; DT_NEEDED names are plain library names (no '/').
 *   symbols    their count from DT_HASH (nchain) or from the last DT_GNU_HASH chain; each
 *              name inside the string table; types NOTYPE, OBJECT, FUNC, SECTION, FILE;
 *              bindings LOCAL, GLOBAL, WEAK; a defined FUNC inside an executable PT_LOAD,
 *              a defined OBJECT inside a PT_LOAD, other defined symbols inside the span.
 *   relocs     for the machine: none, relative, absolute 64-bit, GOT and PLT slots;
 *              each one's 8 bytes inside a writable PT_LOAD, its symbol index below the
 *              count; DT_RELR addresses and bitmaps the same.
 *   versions   DT_VERSYM entries naming index 0, 1 or a version that DT_VERNEED or
 *              DT_VERDEF defines (at most 64 indices); verneed and verdef chains walked
 *              by their DT_*NUM counts, every entry inside the file, the last link zero,
 *              each verneed file one of the DT_NEEDED names.
 *   sections   the section header table and every section with file bytes inside the file
 *              (nothing reads them, but a truncated object is reported as one). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tilert_int.h"

enum {
	MAX_PHNUM = 64,
	MAX_SPAN = 1 << 30,      /* bytes of address space a module may span */
	MAX_ALIGN = 1 << 21,     /* largest PT_LOAD alignment */
	MAX_SYMS = 1 << 22,      /* dynamic symbols */
	MAX_DYN = 4096,          /* dynamic entries */
	MAX_NEEDED_NAME = 255,
};

#ifndef PT_GNU_PROPERTY
#define PT_GNU_PROPERTY 0x6474e553
#endif
#ifndef PT_RISCV_ATTRIBUTES
#define PT_RISCV_ATTRIBUTES 0x70000003
#endif
#ifndef DT_RELRSZ
#define DT_RELRSZ 35
#define DT_RELR 36
#define DT_RELRENT 37
#endif

static uint16_t rd16(const unsigned char *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static int in_file(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

/* The PT_LOAD whose memory holds [vaddr, vaddr+len) with all of flags, or NULL; with
 * file set, the bytes must also be file bytes (not the zero-filled tail). */
static const tilert_elf_segment *seg_of(const tilert_elf_layout *l, uint64_t vaddr, uint64_t len,
                                        unsigned flags, int file)
{
	for (unsigned i = 0; i < l->nload; i++) {
		const tilert_elf_segment *s = &l->load[i];
		uint64_t size = file ? s->filesz : s->memsz;

		if (vaddr >= s->vaddr && vaddr - s->vaddr <= size && len <= size - (vaddr - s->vaddr) &&
		    (s->flags & flags) == flags)
			return s;
	}
	return NULL;
}

/* The file offset of the file bytes [vaddr, vaddr+len) of a PT_LOAD, or 0 when they are
 * not all file bytes of one (offset 0 is the ELF header, which no table starts at). */
static uint64_t file_off(const tilert_elf_layout *l, uint64_t vaddr, uint64_t len)
{
	const tilert_elf_segment *s = seg_of(l, vaddr, len, 0, 1);

	return s ? s->offset + (vaddr - s->vaddr) : 0;
}

int tilert_elf_writable(const tilert_elf_layout *l, uint64_t vaddr, uint64_t len)
{
	return seg_of(l, vaddr, len, PF_W, 0) != NULL;
}

int tilert_elf_inside(const tilert_elf_layout *l, uint64_t vaddr, uint64_t len, unsigned flags)
{
	return seg_of(l, vaddr, len, flags, 0) != NULL;
}

static int bad(const char *what)
{
	return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: %s", what);
}

static int check_header(const Elf64_Ehdr *eh, size_t size)
{
	static const unsigned char zero[EI_NIDENT - EI_PAD];
	unsigned host = tilert_host_machine();
	const char *name, *host_name;

	if (eh->e_ident[EI_CLASS] != ELFCLASS64)
		return tilert_fail(TILERT_ERR_FORMAT, "%s ELF objects are not tilecc CPU artifacts",
		                   eh->e_ident[EI_CLASS] == ELFCLASS32 ? "32-bit" : "unknown-class");
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return tilert_fail(TILERT_ERR_FORMAT, "big-endian ELF objects are not tilecc CPU artifacts");
	if (eh->e_ident[EI_VERSION] != EV_CURRENT || eh->e_version != EV_CURRENT)
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF version %u", (unsigned)eh->e_version);
	if (eh->e_machine != host) {
		name = tilert_machine_name(eh->e_machine);
		host_name = tilert_machine_name(host);
		if (name)
			return tilert_fail(TILERT_ERR_FORMAT, "this is a%s %s object; the host is %s",
			                   strchr("aeiounx", name[0]) ? "n" : "", name,
			                   host_name ? host_name : "not a tilecc CPU target");
		return tilert_fail(TILERT_ERR_FORMAT, "ELF object for machine %u; the host is %s",
		                   (unsigned)eh->e_machine, host_name ? host_name : "unknown");
	}
	if (eh->e_type != ET_DYN)
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "not a shared object (ELF type %s); tilecc CPU artifacts are ET_DYN",
		                   eh->e_type == ET_REL ? "ET_REL" : eh->e_type == ET_EXEC ? "ET_EXEC" : "other");
	if ((eh->e_ident[EI_OSABI] != ELFOSABI_SYSV && eh->e_ident[EI_OSABI] != ELFOSABI_GNU) ||
	    eh->e_ident[EI_ABIVERSION] != 0 || memcmp(eh->e_ident + EI_PAD, zero, sizeof zero) != 0)
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF identification (OS ABI %u, version %u)",
		                   eh->e_ident[EI_OSABI], eh->e_ident[EI_ABIVERSION]);
	if (eh->e_ehsize != sizeof(Elf64_Ehdr))
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF header size %u", (unsigned)eh->e_ehsize);
	/* riscv64: the calling convention of the host's libraries, lp64d (no RVE). */
	if (eh->e_machine == EM_RISCV && (eh->e_flags & 0xe) != 0x4)
		return tilert_fail(TILERT_ERR_FORMAT, "riscv64 object with flags %#x: tilecc CPU "
		                   "artifacts use the lp64d ABI", (unsigned)eh->e_flags);
	if (eh->e_phnum == 0 || eh->e_phnum == PN_XNUM)
		return tilert_fail(TILERT_ERR_FORMAT, "ELF shared object without program headers");
	if (eh->e_phentsize != sizeof(Elf64_Phdr))
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF program header size %u",
		                   (unsigned)eh->e_phentsize);
	if (eh->e_phnum > MAX_PHNUM)
		return tilert_fail(TILERT_ERR_FORMAT, "ELF object with %u program headers (at most %d)",
		                   (unsigned)eh->e_phnum, MAX_PHNUM);
	if (!in_file(eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr), size))
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "truncated ELF: program headers beyond end of file (%zu bytes)", size);
	if (eh->e_shnum == 0)
		return TILERT_OK;
	if (eh->e_shentsize != sizeof(Elf64_Shdr))
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF section header size %u",
		                   (unsigned)eh->e_shentsize);
	if (!in_file(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr), size))
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "truncated ELF: section headers beyond end of file (%zu bytes)", size);
	if (eh->e_shstrndx != SHN_UNDEF && eh->e_shstrndx >= eh->e_shnum)
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF section name table index %u",
		                   (unsigned)eh->e_shstrndx);
	return TILERT_OK;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* A non-loaded segment's [vaddr, vaddr+memsz) must be file bytes of a PT_LOAD, at the
 * same file offset as the segment says. */
static int check_mapped(const tilert_elf_layout *l, const Elf64_Phdr *ph, unsigned i, const char *what)
{
	if (ph->p_filesz != ph->p_memsz || !seg_of(l, ph->p_vaddr, ph->p_memsz, PF_R, 1) ||
	    file_off(l, ph->p_vaddr, ph->p_memsz) != ph->p_offset)
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: the %s segment (%u) is not inside the "
		                   "file bytes of a loadable segment", what, i);
	return TILERT_OK;
}

/* Notes: namesz, descsz, type, then name and descriptor, each padded to align. */
static int check_notes(const unsigned char *data, const Elf64_Phdr *ph, unsigned i)
{
	uint64_t align = ph->p_align == 8 ? 8 : 4, off = 0, n = ph->p_filesz;

	while (off < n) {
		uint64_t namesz, descsz;

		if (n - off < 12)
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: truncated note in segment %u", i);
		namesz = rd32(data + ph->p_offset + off);
		descsz = rd32(data + ph->p_offset + off + 4);
		off += 12;
		namesz = (namesz + align - 1) & ~(align - 1);
		descsz = (descsz + align - 1) & ~(align - 1);
		if (namesz > n - off || descsz > n - off - namesz)
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: truncated note in segment %u", i);
		off += namesz + descsz;
		off = (off + align - 1) & ~(align - 1);
	}
	return TILERT_OK;
}

static int check_segments(const unsigned char *data, size_t size, const Elf64_Ehdr *eh,
                          tilert_elf_layout *l)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), prev_end = 0;
	int ndyn = 0, nrelro = 0;
	Elf64_Phdr ph;
	int rc;

	/* First the loadable segments, which every other one is checked against. */
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		tilert_elf_segment *s;

		memcpy(&ph, data + eh->e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
		if (ph.p_type != PT_LOAD)
			continue;
		if (!in_file(ph.p_offset, ph.p_filesz, size))
			return tilert_fail(TILERT_ERR_FORMAT,
			                   "truncated ELF: segment %u (offset %llu, %llu bytes) beyond end "
			                   "of file (%zu bytes)", i, (unsigned long long)ph.p_offset,
			                   (unsigned long long)ph.p_filesz, size);
		if (l->nload == TILERT_ELF_MAX_LOADS)
			return tilert_fail(TILERT_ERR_FORMAT, "ELF object with more than %d loadable segments",
			                   TILERT_ELF_MAX_LOADS);
		if (ph.p_filesz > ph.p_memsz)
			return tilert_fail(TILERT_ERR_FORMAT,
			                   "bad ELF: segment %u has more file bytes than memory", i);
		if (!is_pow2(ph.p_align) || ph.p_align < page || ph.p_align > MAX_ALIGN ||
		    (ph.p_vaddr - ph.p_offset) % ph.p_align != 0)
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: segment %u has alignment %llu for "
			                   "offset %#llx and address %#llx", i, (unsigned long long)ph.p_align,
			                   (unsigned long long)ph.p_offset, (unsigned long long)ph.p_vaddr);
		if ((ph.p_flags & ~(unsigned)(PF_R | PF_W | PF_X)) || !(ph.p_flags & PF_R) ||
		    (ph.p_flags & (PF_W | PF_X)) == (PF_W | PF_X))
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: segment %u has flags %#x (readable, "
			                   "and writable or executable but not both)", i, (unsigned)ph.p_flags);
		if (ph.p_vaddr > MAX_SPAN || ph.p_memsz > MAX_SPAN - ph.p_vaddr)
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: segment %u spans more than %d bytes",
			                   i, MAX_SPAN);
		if (l->nload == 0 ? ph.p_offset != 0
		                  : (ph.p_vaddr & ~(page - 1)) < prev_end)
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: loadable segment %u %s", i,
			                   l->nload ? "overlaps or precedes the one before it (by page)"
			                            : "is not at the start of the file");
		prev_end = (ph.p_vaddr + ph.p_memsz + page - 1) & ~(page - 1);
		s = &l->load[l->nload++];
		s->vaddr = ph.p_vaddr;
		s->memsz = ph.p_memsz;
		s->offset = ph.p_offset;
		s->filesz = ph.p_filesz;
		s->flags = ph.p_flags;
		if (ph.p_align > l->align)
			l->align = ph.p_align;
	}
	if (l->nload == 0)
		return tilert_fail(TILERT_ERR_FORMAT, "ELF object with no loadable segment is not a "
		                   "shared object");
	l->lo = l->load[0].vaddr & ~(page - 1);
	l->hi = prev_end;
	if (l->hi - l->lo > MAX_SPAN)
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: the segments span more than %d bytes",
		                   MAX_SPAN);
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		memcpy(&ph, data + eh->e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
		if (ph.p_type != PT_NULL && ph.p_type != PT_LOAD && !in_file(ph.p_offset, ph.p_filesz, size))
			return tilert_fail(TILERT_ERR_FORMAT,
			                   "truncated ELF: segment %u (offset %llu, %llu bytes) beyond end "
			                   "of file (%zu bytes)", i, (unsigned long long)ph.p_offset,
			                   (unsigned long long)ph.p_filesz, size);
		switch (ph.p_type) {
		case PT_NULL:
		case PT_LOAD:
			break;
		case PT_DYNAMIC:
			if (ndyn++)
				return bad("more than one dynamic segment");
			if (ph.p_filesz != ph.p_memsz || ph.p_filesz % sizeof(Elf64_Dyn) ||
			    ph.p_filesz == 0 || ph.p_vaddr % 8 || !seg_of(l, ph.p_vaddr, ph.p_filesz, PF_W, 1) ||
			    file_off(l, ph.p_vaddr, ph.p_filesz) != ph.p_offset)
				return bad("the dynamic segment is not inside the file bytes of a writable "
				           "loadable segment");
			l->dynamic = ph.p_offset;
			l->ndynamic = ph.p_filesz / sizeof(Elf64_Dyn);
			break;
		case PT_PHDR:
			if (ph.p_offset != eh->e_phoff || ph.p_filesz != (uint64_t)eh->e_phnum * sizeof ph)
				return bad("PT_PHDR does not describe the program headers");
			if ((rc = check_mapped(l, &ph, i, "program header")) != TILERT_OK)
				return rc;
			break;
		case PT_NOTE:
		case PT_GNU_PROPERTY:
			if ((rc = check_mapped(l, &ph, i, "note")) != TILERT_OK ||
			    (rc = check_notes(data, &ph, i)) != TILERT_OK)
				return rc;
			break;
		case PT_GNU_EH_FRAME:
			if ((rc = check_mapped(l, &ph, i, "unwind table")) != TILERT_OK)
				return rc;
			break;
		case PT_GNU_STACK:
			if (ph.p_flags & PF_X)
				return bad("the object asks for an executable stack");
			break;
		case PT_GNU_RELRO:
			if (nrelro++)
				return bad("more than one PT_GNU_RELRO");
			if (!seg_of(l, ph.p_vaddr, ph.p_memsz, PF_W, 0))
				return bad("PT_GNU_RELRO is not inside a writable loadable segment");
			l->relro = ph.p_vaddr;
			l->relro_size = ph.p_memsz;
			break;
		case PT_TLS:
			return tilert_fail(TILERT_ERR_FORMAT, "ELF object with thread-local storage: "
			                   "tilecc CPU artifacts have none");
		case PT_INTERP:
			return bad("a shared object with an interpreter (PT_INTERP) is a program");
		default:
			if (ph.p_type == PT_RISCV_ATTRIBUTES && l->machine == EM_RISCV)
				break;
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: segment %u has unsupported type %#x",
			                   i, (unsigned)ph.p_type);
		}
	}
	if (ndyn != 1)
		return tilert_fail(TILERT_ERR_FORMAT, "ELF object with %u loadable segment(s) and no "
		                   "dynamic segment is not a shared object", l->nload);
	return TILERT_OK;
}

/* The dynamic tags read, each at most once (DT_NEEDED excepted); index in dyn_val. */
enum {
	D_STRTAB, D_STRSZ, D_SYMTAB, D_SYMENT, D_HASH, D_GNU_HASH, D_RELA, D_RELASZ, D_RELAENT,
	D_JMPREL, D_PLTRELSZ, D_PLTREL, D_RELACOUNT, D_RELR, D_RELRSZ, D_RELRENT, D_VERSYM,
	D_VERNEED, D_VERNEEDNUM, D_VERDEF, D_VERDEFNUM, D_FLAGS, D_FLAGS_1, D_SONAME, D_PLTGOT,
	D_INIT, D_FINI, D_INIT_ARRAY, D_INIT_ARRAYSZ, D_FINI_ARRAY, D_FINI_ARRAYSZ, D_BIND_NOW,
	D_SYMBOLIC, D_COUNT
};

static int dyn_index(int64_t tag)
{
	switch (tag) {
	case DT_STRTAB: return D_STRTAB;
	case DT_STRSZ: return D_STRSZ;
	case DT_SYMTAB: return D_SYMTAB;
	case DT_SYMENT: return D_SYMENT;
	case DT_HASH: return D_HASH;
	case DT_GNU_HASH: return D_GNU_HASH;
	case DT_RELA: return D_RELA;
	case DT_RELASZ: return D_RELASZ;
	case DT_RELAENT: return D_RELAENT;
	case DT_JMPREL: return D_JMPREL;
	case DT_PLTRELSZ: return D_PLTRELSZ;
	case DT_PLTREL: return D_PLTREL;
	case DT_RELACOUNT: return D_RELACOUNT;
	case DT_RELR: return D_RELR;
	case DT_RELRSZ: return D_RELRSZ;
	case DT_RELRENT: return D_RELRENT;
	case DT_VERSYM: return D_VERSYM;
	case DT_VERNEED: return D_VERNEED;
	case DT_VERNEEDNUM: return D_VERNEEDNUM;
	case DT_VERDEF: return D_VERDEF;
	case DT_VERDEFNUM: return D_VERDEFNUM;
	case DT_FLAGS: return D_FLAGS;
	case DT_FLAGS_1: return D_FLAGS_1;
	case DT_SONAME: return D_SONAME;
	case DT_PLTGOT: return D_PLTGOT;
	case DT_INIT: return D_INIT;
	case DT_FINI: return D_FINI;
	case DT_INIT_ARRAY: return D_INIT_ARRAY;
	case DT_INIT_ARRAYSZ: return D_INIT_ARRAYSZ;
	case DT_FINI_ARRAY: return D_FINI_ARRAY;
	case DT_FINI_ARRAYSZ: return D_FINI_ARRAYSZ;
	case DT_BIND_NOW: return D_BIND_NOW;
	case DT_SYMBOLIC: return D_SYMBOLIC;
	default: return -1;
	}
}

/* A library name as DT_NEEDED may give it: letters, digits and ._+-, no path. */
static int is_lib_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > MAX_NEEDED_NAME)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '.' || *s == '_' || *s == '+' || *s == '-'))
			return 0;
	return 1;
}

/* A table of count entries of entsize bytes at address vaddr: its file offset, or 0. */
static uint64_t table_off(const tilert_elf_layout *l, uint64_t vaddr, uint64_t count, uint64_t entsize)
{
	if (count > UINT64_MAX / entsize)
		return 0;
	return file_off(l, vaddr, count * entsize);
}

static int check_dynamic(const unsigned char *data, tilert_elf_layout *l, uint64_t val[D_COUNT],
                         unsigned char have[D_COUNT])
{
	int ended = 0;

	for (uint64_t i = 0; i < l->ndynamic && i < MAX_DYN && !ended; i++) {
		const unsigned char *e = data + l->dynamic + i * sizeof(Elf64_Dyn);
		int64_t tag = (int64_t)rd64(e);
		uint64_t v = rd64(e + 8);
		int idx;

		if (tag == DT_NULL) {
			ended = 1;
			continue;
		}
		if (tag == DT_NEEDED) {
			if (l->nneeded == TILERT_ELF_MAX_NEEDED)
				return tilert_fail(TILERT_ERR_FORMAT, "ELF object needs more than %d libraries",
				                   TILERT_ELF_MAX_NEEDED);
			if (v > UINT32_MAX)
				return bad("DT_NEEDED beyond the string table");
			l->needed[l->nneeded++] = (uint32_t)v;
			continue;
		}
		if ((idx = dyn_index(tag)) < 0)
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: unsupported dynamic tag %#llx",
			                   (unsigned long long)tag);
		if (have[idx])
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: dynamic tag %#llx given twice",
			                   (unsigned long long)tag);
		have[idx] = 1;
		val[idx] = v;
	}
	if (!ended)
		return bad("the dynamic section has no DT_NULL");
	if (!have[D_STRTAB] || !have[D_STRSZ] || !have[D_SYMTAB] || (!have[D_HASH] && !have[D_GNU_HASH]))
		return bad("the dynamic section lacks a string table, a symbol table or a hash table");
	if (have[D_SYMENT] && val[D_SYMENT] != sizeof(Elf64_Sym))
		return bad("DT_SYMENT is not the size of a symbol");
	if ((have[D_FLAGS] && (val[D_FLAGS] & ~(uint64_t)(DF_ORIGIN | DF_SYMBOLIC | DF_BIND_NOW))) ||
	    (have[D_FLAGS_1] && (val[D_FLAGS_1] & ~(uint64_t)DF_1_NOW)))
		return bad("unsupported DT_FLAGS or DT_FLAGS_1 (text relocations, a program, ...)");
	if (val[D_STRSZ] == 0 || val[D_STRSZ] > UINT32_MAX ||
	    !(l->strtab = file_off(l, val[D_STRTAB], val[D_STRSZ])) ||
	    data[l->strtab + val[D_STRSZ] - 1] != 0)
		return bad("the string table is not inside a loadable segment or does not end in a NUL");
	l->strsz = val[D_STRSZ];
	for (unsigned i = 0; i < l->nneeded; i++)
		if (l->needed[i] >= l->strsz || !is_lib_name((const char *)data + l->strtab + l->needed[i]))
			return bad("a DT_NEEDED entry is not a library name");
	if (have[D_SONAME] && val[D_SONAME] >= l->strsz)
		return bad("DT_SONAME beyond the string table");
	/* RELA tables: DT_RELA with its size and entry size, DT_JMPREL with DT_PLTRELSZ and
	 * DT_PLTREL = DT_RELA; DT_RELR with its size and entry size. */
	if (have[D_RELA] || have[D_RELASZ] || have[D_RELAENT]) {
		if (!have[D_RELA] || !have[D_RELASZ] || !have[D_RELAENT] ||
		    val[D_RELAENT] != sizeof(Elf64_Rela) || val[D_RELASZ] % sizeof(Elf64_Rela) ||
		    (val[D_RELASZ] && !(l->rela[0] = file_off(l, val[D_RELA], val[D_RELASZ]))))
			return bad("bad DT_RELA table");
		l->nrela[0] = val[D_RELASZ] / sizeof(Elf64_Rela);
	}
	if (have[D_RELACOUNT] && val[D_RELACOUNT] > l->nrela[0])
		return bad("DT_RELACOUNT exceeds the DT_RELA table");
	if (have[D_JMPREL] || have[D_PLTRELSZ] || have[D_PLTREL]) {
		if (!have[D_JMPREL] || !have[D_PLTRELSZ] || !have[D_PLTREL] || val[D_PLTREL] != DT_RELA ||
		    val[D_PLTRELSZ] % sizeof(Elf64_Rela) ||
		    (val[D_PLTRELSZ] && !(l->rela[1] = file_off(l, val[D_JMPREL], val[D_PLTRELSZ]))))
			return bad("bad DT_JMPREL table");
		l->nrela[1] = val[D_PLTRELSZ] / sizeof(Elf64_Rela);
	}
	if (have[D_RELR] || have[D_RELRSZ] || have[D_RELRENT]) {
		if (!have[D_RELR] || !have[D_RELRSZ] || !have[D_RELRENT] || val[D_RELRENT] != 8 ||
		    val[D_RELRSZ] % 8 || (val[D_RELRSZ] && !(l->relr = file_off(l, val[D_RELR], val[D_RELRSZ]))))
			return bad("bad DT_RELR table");
		l->nrelr = val[D_RELRSZ] / 8;
	}
	if (have[D_PLTGOT] && !tilert_elf_writable(l, val[D_PLTGOT], 8))
		return bad("DT_PLTGOT is not inside a writable segment");
	return TILERT_OK;
}

/* The symbol count, from DT_HASH's nchain or the end of DT_GNU_HASH's last chain. */
static int count_symbols(const unsigned char *data, tilert_elf_layout *l, const uint64_t val[D_COUNT],
                         const unsigned char have[D_COUNT])
{
	uint64_t nsyms = 0;

	if (have[D_HASH]) {
		uint64_t off = file_off(l, val[D_HASH], 8), nbucket, nchain;

		if (!off)
			return bad("DT_HASH is not inside a loadable segment");
		nbucket = rd32(data + off);
		nchain = rd32(data + off + 4);
		if (nbucket == 0 || !table_off(l, val[D_HASH], 2 + nbucket + nchain, 4))
			return bad("DT_HASH table beyond its segment");
		nsyms = nchain;
	}
	if (have[D_GNU_HASH]) {
		uint64_t off = file_off(l, val[D_GNU_HASH], 16), nbuckets, symoffset, bloom, buckets;
		uint64_t last = 0, chain, n;

		if (!off)
			return bad("DT_GNU_HASH is not inside a loadable segment");
		nbuckets = rd32(data + off);
		symoffset = rd32(data + off + 4);
		bloom = rd32(data + off + 8);
		if (nbuckets == 0 || symoffset == 0 || !is_pow2(bloom) || rd32(data + off + 12) >= 64 ||
		    !table_off(l, val[D_GNU_HASH], 4 + 2 * bloom + nbuckets, 4))
			return bad("bad DT_GNU_HASH header");
		buckets = off + 16 + 8 * bloom;
		for (uint64_t b = 0; b < nbuckets; b++) {
			uint64_t v = rd32(data + buckets + 4 * b);

			if (v && v < symoffset)
				return bad("a DT_GNU_HASH bucket below its first symbol");
			if (v > last)
				last = v;
		}
		chain = val[D_GNU_HASH] + 16 + 8 * bloom + 4 * nbuckets;
		n = symoffset;
		if (last) {
			/* Walk the last chain to its end marker (bit 0), within the segment. */
			for (n = last;; n++) {
				uint64_t at = file_off(l, chain + 4 * (n - symoffset), 4);

				if (!at || n >= MAX_SYMS)
					return bad("a DT_GNU_HASH chain runs beyond its segment");
				if (rd32(data + at) & 1)
					break;
			}
			n++;
		}
		if (have[D_HASH] ? n > nsyms : (nsyms = n, 0))
			return bad("DT_GNU_HASH and DT_HASH disagree on the symbol count");
	}
	if (nsyms == 0 || nsyms > MAX_SYMS || !(l->symtab = table_off(l, val[D_SYMTAB], nsyms, sizeof(Elf64_Sym))))
		return bad("the symbol table is not inside a loadable segment");
	l->nsyms = nsyms;
	return TILERT_OK;
}

void tilert_elf_sym_get(const unsigned char *data, const tilert_elf_layout *l, uint64_t i, Elf64_Sym *s)
{
	memcpy(s, data + l->symtab + i * sizeof *s, sizeof *s);
}

static int check_symbols(const unsigned char *data, const tilert_elf_layout *l)
{
	Elf64_Sym s;

	for (uint64_t i = 1; i < l->nsyms; i++) {
		int type, bind;

		tilert_elf_sym_get(data, l, i, &s);
		type = ELF64_ST_TYPE(s.st_info);
		bind = ELF64_ST_BIND(s.st_info);
		if (s.st_name >= l->strsz)
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: symbol %llu's name is beyond the "
			                   "string table", (unsigned long long)i);
		if ((type != STT_NOTYPE && type != STT_OBJECT && type != STT_FUNC && type != STT_SECTION &&
		     type != STT_FILE) || (bind != STB_LOCAL && bind != STB_GLOBAL && bind != STB_WEAK))
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: symbol '%.64s' has unsupported type "
			                   "%d or binding %d", (const char *)data + l->strtab + s.st_name,
			                   type, bind);
		if (s.st_shndx == SHN_UNDEF || s.st_shndx == SHN_ABS)
			continue;
		if (s.st_shndx >= SHN_LORESERVE ||
		    (type == STT_FUNC && !tilert_elf_inside(l, s.st_value, s.st_size, PF_X)) ||
		    (type == STT_OBJECT && !tilert_elf_inside(l, s.st_value, s.st_size, PF_R)) ||
		    s.st_value < l->lo || s.st_value > l->hi)
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: symbol '%.64s' lies outside the "
			                   "object's loaded segments", (const char *)data + l->strtab + s.st_name);
	}
	return TILERT_OK;
}

/* The relocation kinds of the machine; tilert_elf_reloc_kind. */
int tilert_elf_reloc_kind(unsigned machine, uint32_t type)
{
	switch (machine) {
	case EM_X86_64:
		switch (type) {
		case R_X86_64_NONE: return TILERT_RELOC_NONE;
		case R_X86_64_64: return TILERT_RELOC_SYM_ADDEND;
		case R_X86_64_GLOB_DAT:
		case R_X86_64_JUMP_SLOT: return TILERT_RELOC_SLOT;
		case R_X86_64_RELATIVE: return TILERT_RELOC_RELATIVE;
		}
		break;
	case EM_RISCV:
		switch (type) {
		case R_RISCV_NONE: return TILERT_RELOC_NONE;
		case R_RISCV_64: return TILERT_RELOC_SYM_ADDEND;
		case R_RISCV_JUMP_SLOT: return TILERT_RELOC_SLOT;
		case R_RISCV_RELATIVE: return TILERT_RELOC_RELATIVE;
		}
		break;
	case EM_AARCH64:
		switch (type) {
		case R_AARCH64_NONE: return TILERT_RELOC_NONE;
		case R_AARCH64_ABS64:
		case R_AARCH64_GLOB_DAT:
		case R_AARCH64_JUMP_SLOT: return TILERT_RELOC_SYM_ADDEND;
		case R_AARCH64_RELATIVE: return TILERT_RELOC_RELATIVE;
		}
		break;
	}
	return -1;
}

static int check_relocs(const unsigned char *data, const tilert_elf_layout *l)
{
	for (int t = 0; t < 2; t++) {
		for (uint64_t i = 0; i < l->nrela[t]; i++) {
			const unsigned char *r = data + l->rela[t] + i * sizeof(Elf64_Rela);
			uint64_t off = rd64(r), info = rd64(r + 8), sym = ELF64_R_SYM(info);
			int kind = tilert_elf_reloc_kind(l->machine, (uint32_t)ELF64_R_TYPE(info));

			if (kind < 0)
				return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: relocation %llu has unsupported "
				                   "type %u", (unsigned long long)i, (unsigned)ELF64_R_TYPE(info));
			if (kind == TILERT_RELOC_NONE)
				continue;
			if (!tilert_elf_writable(l, off, 8))
				return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: relocation %llu at %#llx is not "
				                   "inside a writable segment", (unsigned long long)i,
				                   (unsigned long long)off);
			if (sym >= l->nsyms || (kind == TILERT_RELOC_RELATIVE && sym != 0) ||
			    (kind == TILERT_RELOC_SLOT && sym == 0))
				return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: relocation %llu has symbol index %llu",
				                   (unsigned long long)i, (unsigned long long)sym);
		}
	}
	for (uint64_t i = 0, where = 0, have_base = 0; i < l->nrelr; i++) {
		uint64_t e = rd64(data + l->relr + 8 * i);

		if (!(e & 1)) {
			if (!tilert_elf_writable(l, e, 8))
				return bad("a DT_RELR address is not inside a writable segment");
			where = e + 8;
			have_base = 1;
			continue;
		}
		if (!have_base)
			return bad("DT_RELR starts with a bitmap");
		for (int b = 1; b < 64; b++)
			if ((e >> b & 1) && !tilert_elf_writable(l, where + 8 * (uint64_t)(b - 1), 8))
				return bad("a DT_RELR bitmap names a word outside a writable segment");
		where += 63 * 8;
	}
	return TILERT_OK;
}

/* The version chains: verneed (the imports' versions, by index) and verdef (the object's
 * own, whose indices only have to exist). Each walked by its count, its last link zero. */
static int check_versions(const unsigned char *data, tilert_elf_layout *l, const uint64_t val[D_COUNT],
                          const unsigned char have[D_COUNT])
{
	unsigned char defined[TILERT_ELF_MAX_VERSIONS] = { 0 };

	if (have[D_VERNEED] != have[D_VERNEEDNUM] || have[D_VERDEF] != have[D_VERDEFNUM] ||
	    (have[D_VERSYM] && !have[D_VERNEED] && !have[D_VERDEF]))
		return bad("incomplete symbol versions (DT_VERSYM, DT_VERNEED, DT_VERDEF)");
	if (have[D_VERNEED]) {
		uint64_t at = val[D_VERNEED];

		if (val[D_VERNEEDNUM] == 0 || val[D_VERNEEDNUM] > TILERT_ELF_MAX_NEEDED)
			return bad("bad DT_VERNEEDNUM");
		for (uint64_t n = 0; n < val[D_VERNEEDNUM]; n++) {
			uint64_t off = file_off(l, at, sizeof(Elf64_Verneed)), aux;
			Elf64_Verneed vn;
			unsigned lib = 0;

			if (!off || at % 4)
				return bad("a verneed entry is not inside a loadable segment");
			memcpy(&vn, data + off, sizeof vn);
			if (vn.vn_version != 1 || vn.vn_cnt == 0 || vn.vn_cnt > TILERT_ELF_MAX_VERSIONS ||
			    vn.vn_file >= l->strsz || (n + 1 == val[D_VERNEEDNUM]) != (vn.vn_next == 0))
				return bad("bad verneed entry");
			while (lib < l->nneeded && strcmp((const char *)data + l->strtab + l->needed[lib],
			                                  (const char *)data + l->strtab + vn.vn_file) != 0)
				lib++;
			if (lib == l->nneeded)
				return bad("a verneed entry names a library that is not DT_NEEDED");
			aux = at + vn.vn_aux;
			for (unsigned k = 0; k < vn.vn_cnt; k++) {
				uint64_t aoff = file_off(l, aux, sizeof(Elf64_Vernaux));
				Elf64_Vernaux va;
				unsigned ndx;

				if (!aoff || aux % 4)
					return bad("a vernaux entry is not inside a loadable segment");
				memcpy(&va, data + aoff, sizeof va);
				ndx = va.vna_other & 0x7fff;
				if (va.vna_name >= l->strsz || ndx < 2 || ndx >= TILERT_ELF_MAX_VERSIONS ||
				    (k + 1 == vn.vn_cnt) != (va.vna_next == 0))
					return bad("bad vernaux entry");
				l->version[ndx] = va.vna_name;
				l->version_lib[ndx] = (unsigned char)lib;
				defined[ndx] = 1;
				aux += va.vna_next;
			}
			at += vn.vn_next;
		}
	}
	if (have[D_VERDEF]) {
		uint64_t at = val[D_VERDEF];

		if (val[D_VERDEFNUM] == 0 || val[D_VERDEFNUM] >= TILERT_ELF_MAX_VERSIONS)
			return bad("bad DT_VERDEFNUM");
		for (uint64_t n = 0; n < val[D_VERDEFNUM]; n++) {
			uint64_t off = file_off(l, at, sizeof(Elf64_Verdef)), aux;
			Elf64_Verdef vd;

			if (!off || at % 4)
				return bad("a verdef entry is not inside a loadable segment");
			memcpy(&vd, data + off, sizeof vd);
			if (vd.vd_version != 1 || vd.vd_cnt == 0 || vd.vd_ndx == 0 ||
			    (vd.vd_ndx & 0x7fff) >= TILERT_ELF_MAX_VERSIONS ||
			    (n + 1 == val[D_VERDEFNUM]) != (vd.vd_next == 0))
				return bad("bad verdef entry");
			aux = at + vd.vd_aux;
			for (unsigned k = 0; k < vd.vd_cnt; k++) {
				uint64_t aoff = file_off(l, aux, sizeof(Elf64_Verdaux));
				Elf64_Verdaux vda;

				if (!aoff || aux % 4)
					return bad("a verdaux entry is not inside a loadable segment");
				memcpy(&vda, data + aoff, sizeof vda);
				if (vda.vda_name >= l->strsz || (k + 1 == vd.vd_cnt) != (vda.vda_next == 0))
					return bad("bad verdaux entry");
				aux += vda.vda_next;
			}
			defined[vd.vd_ndx & 0x7fff] = 1;
			at += vd.vd_next;
		}
	}
	if (have[D_VERSYM]) {
		if (!(l->versym = table_off(l, val[D_VERSYM], l->nsyms, 2)))
			return bad("DT_VERSYM is not inside a loadable segment");
		for (uint64_t i = 0; i < l->nsyms; i++) {
			unsigned ndx = rd16(data + l->versym + 2 * i) & 0x7fff;

			if (ndx >= 2 && (ndx >= TILERT_ELF_MAX_VERSIONS || !defined[ndx]))
				return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: symbol %llu has version index %u, "
				                   "which no verneed or verdef entry defines",
				                   (unsigned long long)i, ndx);
		}
	}
	return TILERT_OK;
}

static int check_sections(size_t size, const unsigned char *data, const Elf64_Ehdr *eh)
{
	Elf64_Shdr sh;

	for (unsigned i = 0; i < eh->e_shnum; i++) {
		memcpy(&sh, data + eh->e_shoff + (uint64_t)i * sizeof sh, sizeof sh);
		if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL &&
		    !in_file(sh.sh_offset, sh.sh_size, size))
			return tilert_fail(TILERT_ERR_FORMAT,
			                   "truncated ELF: section %u (offset %llu, %llu bytes) beyond end "
			                   "of file (%zu bytes)", i, (unsigned long long)sh.sh_offset,
			                   (unsigned long long)sh.sh_size, size);
	}
	return TILERT_OK;
}

int tilert_elf_check(const unsigned char *data, size_t size, tilert_elf_layout *l)
{
	uint64_t val[D_COUNT] = { 0 };
	unsigned char have[D_COUNT] = { 0 };
	Elf64_Ehdr eh;
	int rc;

	memset(l, 0, sizeof *l);
	if (size < sizeof eh)
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "truncated ELF: %zu bytes, the ELF header alone is %zu", size, sizeof eh);
	memcpy(&eh, data, sizeof eh);
	l->machine = eh.e_machine;
	if ((rc = check_header(&eh, size)) != TILERT_OK ||
	    (rc = check_segments(data, size, &eh, l)) != TILERT_OK ||
	    (rc = check_sections(size, data, &eh)) != TILERT_OK ||
	    (rc = check_dynamic(data, l, val, have)) != TILERT_OK ||
	    (rc = count_symbols(data, l, val, have)) != TILERT_OK ||
	    (rc = check_symbols(data, l)) != TILERT_OK ||
	    (rc = check_relocs(data, l)) != TILERT_OK ||
	    (rc = check_versions(data, l, val, have)) != TILERT_OK)
		return rc;
	return TILERT_OK;
}
