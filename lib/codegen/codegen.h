/* codegen.h: tile IR (with layouts) to LLVM IR through the LLVM-C API. */
#ifndef TILECC_CODEGEN_CODEGEN_H
#define TILECC_CODEGEN_CODEGEN_H

/* "19.1.7". */
const char *codegen_llvm_version(void);
/* 1 when LLVM was built with the named target ("nvptx64", "amdgcn", "riscv64", "x86-64"). */
int codegen_llvm_has_target(const char *llvm_name);

#endif
