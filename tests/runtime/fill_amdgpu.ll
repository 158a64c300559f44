; fill_amdgpu.ll: a tilecc-style kernel for AMD GPUs, written by hand: fill(out, value, n)
; sets out[i] = value for i < n, one wave of 64 threads per program, with its NAME__meta
; global as tilecc emits it (docs/abi.md). tests/runtime/CMakeLists.txt builds it into an
; HSACO for gfx90a with LLVM's clang, for test_runtime_hip.
target triple = "amdgcn-amd-amdhsa"

@fill__meta = addrspace(1) constant [98 x i8] c"tilecc-kernel=1\0Aname=fill\0Atarget=amdgcn\0Aparams=*i32:16,i32,i32\0Anum_warps=1\0Ashared=0\0Ablock=64,1,1\0A\00", align 1

define amdgpu_kernel void @fill(ptr addrspace(1) %out, i32 %value, i32 %n) #0 {
entry:
  %pid = call i32 @llvm.amdgcn.workgroup.id.x()
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %base = mul i32 %pid, 64
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %store, label %done

store:
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %value, ptr addrspace(1) %p, align 4
  br label %done

done:
  ret void
}

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workitem.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="1,64" }
