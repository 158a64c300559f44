# cubin.py: launches a tilecc cubin from Python through the CUDA driver API (ctypes), on
# torch's current stream, for the GPU scripts that compare tilecc with Triton in one process
# (bench/gpu/bench.py, tests/gpu/tutorials.py). Tooling for the GPU machine only: tilecc has
# no Python in it.
import ctypes

import torch

cuda = ctypes.CDLL("libcuda.so.1")
cuda.cuGetErrorName.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]


def check(r, what):
    if r != 0:
        s = ctypes.c_char_p()
        cuda.cuGetErrorName(r, ctypes.byref(s))
        raise RuntimeError(f"{what}: {s.value.decode()}")


def func_facts(fn, block, shared):
    """What the driver says of a kernel handle (a CUfunction, ours or Triton's
    CompiledKernel.function) launched with `block` threads and `shared` bytes of dynamic
    shared memory: registers, static shared bytes, the dynamic-shared limit it was opted
    into, its preferred carveout (-1: the driver's default) and the programs per SM the
    occupancy calculator gives. For comparing how the two are launched, not timed."""
    f = ctypes.c_void_p(fn)
    out = {}
    for name, attr in (("regs", 4), ("static_shared", 1), ("max_dynamic_shared", 8), ("carveout", 9)):
        v = ctypes.c_int()
        if cuda.cuFuncGetAttribute(ctypes.byref(v), attr, f) == 0:
            out[name] = v.value
    n = ctypes.c_int()
    if cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(ctypes.byref(n), f, block, ctypes.c_size_t(shared)) == 0:
        out["programs_per_sm"] = n.value
    return out


class Cubin:
    """A tilecc kernel: the cubin's NAME entry and its NAME__meta (block size, shared
    memory). Arguments: tensors (their device pointers), floats (fp32), ints (i32), or
    ctypes values as they are (c_int64 for an i64 parameter). drop_ones: the kernel was
    compiled from Triton's TTIR, which has no parameter for an int argument equal to 1 (Triton
    specializes those away), so such arguments are not passed."""

    def __init__(self, path, name, drop_ones=False):
        self.drop_ones = drop_ones
        torch.cuda.init()
        torch.empty(1, device="cuda")  # make torch's primary context current
        data = open(path, "rb").read()
        if data.startswith(b"TILECC-FAILED"):
            raise RuntimeError(data.decode(errors="replace"))
        self.mod = ctypes.c_void_p()
        check(cuda.cuModuleLoadData(ctypes.byref(self.mod), data), "cuModuleLoadData")
        self.fn = ctypes.c_void_p()
        check(cuda.cuModuleGetFunction(ctypes.byref(self.fn), self.mod, name.encode()), "cuModuleGetFunction")
        ptr, size = ctypes.c_uint64(), ctypes.c_size_t()
        check(cuda.cuModuleGetGlobal_v2(ctypes.byref(ptr), ctypes.byref(size), self.mod, (name + "__meta").encode()),
              "cuModuleGetGlobal")
        buf = ctypes.create_string_buffer(size.value)
        check(cuda.cuMemcpyDtoH_v2(buf, ptr, size), "cuMemcpyDtoH")
        self.meta = dict(l.split("=", 1) for l in buf.raw.split(b"\0")[0].decode().splitlines() if "=" in l)
        self.block = int(self.meta["block"].split(",")[0])
        self.shared = int(self.meta["shared"])
        if self.shared > 48 * 1024:
            check(cuda.cuFuncSetAttribute(self.fn, 8, self.shared), "cuFuncSetAttribute")  # MAX_DYNAMIC_SHARED
            # No cuFuncSetCacheConfig(PREFER_SHARED), which Triton's launcher calls: on the
            # H200 it made tilecc's matmul 0.93x -> 0.78x Triton (docs/perf.md, sixth session).

    def __call__(self, grid, *args):
        vals = []
        if self.drop_ones:
            args = [a for a in args if not (type(a) is int and a == 1)]
        for a in args:
            if isinstance(a, torch.Tensor):
                vals.append(ctypes.c_uint64(a.data_ptr()))
            elif isinstance(a, ctypes._SimpleCData):
                vals.append(a)
            elif isinstance(a, float):
                vals.append(ctypes.c_float(a))
            else:
                vals.append(ctypes.c_int32(a))
        arr = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in vals])
        g = list(grid) + [1] * (3 - len(grid))
        stream = torch.cuda.current_stream().cuda_stream
        check(cuda.cuLaunchKernel(self.fn, g[0], g[1], g[2], self.block, 1, 1, self.shared,
                                  ctypes.c_void_p(stream), arr, None), "cuLaunchKernel")
