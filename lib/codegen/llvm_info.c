/* llvm_info.c: facts about the LLVM this build links, through the LLVM-C API. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "codegen/codegen.h"

const char *codegen_llvm_version(void)
{
	static char buf[32];
	if (!buf[0]) {
		unsigned maj = 0, min = 0, pat = 0;
		LLVMGetVersion(&maj, &min, &pat);
		snprintf(buf, sizeof buf, "%u.%u.%u", maj, min, pat);
	}
	return buf;
}

int codegen_llvm_has_target(const char *llvm_name)
{
	static int init;
	if (!init) {
		LLVMInitializeAllTargetInfos();
		init = 1;
	}
	for (LLVMTargetRef t = LLVMGetFirstTarget(); t; t = LLVMGetNextTarget(t)) {
		const char *n = LLVMGetTargetName(t);
		if (n && !strcmp(n, llvm_name))
			return 1;
	}
	return 0;
}
