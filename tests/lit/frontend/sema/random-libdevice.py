# tl.rand / randn / randint4x expand into Philox rounds (mulhi, muli, xori) with Triton's
# constants; the libdevice functions, through each import spelling, become their ops; the
# IR round-trips through the text form.
# RUN: %tilecc %s -k rng -s "*fp32:16, *u32:16, i64, 128" -o %t.tir
# RUN: FileCheck %s --check-prefix=RNG --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
# RUN: %tilecc %s -k ld -s "*fp32:16, *fp64:16, *i32:16, 64" -o %t2.tir
# RUN: FileCheck %s --check-prefix=LD --input-file %t2.tir
# RUN: %tilecc %t2.tir -O0 --emit=tir | diff %t2.tir -
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as cudadev


@triton.jit
def rng(out_ptr, u_ptr, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    r = tl.rand(seed, offs) + tl.randn(seed, offs, n_rounds=3)
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(out_ptr + offs, r)
    tl.store(u_ptr + offs, a ^ b ^ c ^ d)

# RNG-LABEL: func @rng(
# the key: seed as u64, its low and high words
# RNG: bitcast %seed : u64
# RNG: shri {{.*}} : u64
# RNG: trunci {{.*}} : u32
# RNG: trunci {{.*}} : u32
# RNG: bitcast %offs : tile<128xu32>
# RNG-DAG: constant {value = 3528531795} :
# RNG-DAG: constant {value = 3449720151} :
# RNG-DAG: constant {value = 2654435769} :
# RNG-DAG: constant {value = 3144134277} :
# RNG: mulhi {{.*}} : tile<128xu32>
# RNG: muli {{.*}} : tile<128xu32>
# the uniform float: the word as i32, x < 0 ? -x - 1 : x, times 4.6566127342e-10 in fp32
# RNG: bitcast {{.*}} : tile<128xi32>
# RNG: select
# RNG: itof {{.*}} : tile<128xf32>
# RNG: constant {value = 4.6566127342e-10} :
# Box-Muller
# RNG: maxnumf
# RNG: log
# RNG: sqrt
# RNG: cos


@triton.jit
def ld(x_ptr, d_ptr, i_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    d = tl.load(d_ptr + offs)
    y = libdevice.tanh(x) + libdevice.pow(x, 2.0) + libdevice.pow(x, 3) + cudadev.atan2(x, x)
    y += tl.math.erfinv(x) + libdevice.fmod(x, 1.5) + libdevice.hypot(x, x) + libdevice.ldexp(x, 4)
    y += libdevice.trunc(x) + libdevice.round(x) + libdevice.rint(x) + libdevice.nearbyint(x)
    tl.store(x_ptr + offs, y)
    tl.store(d_ptr + offs, libdevice.cbrt(d) + libdevice.pow(d, 0.5) + libdevice.log1p(d))
    k = libdevice.ilogb(x) + libdevice.isnan(d) + libdevice.isinf(x) + libdevice.signbit(d)
    tl.store(i_ptr + offs, k + libdevice.finitef(x) + libdevice.isfinited(d))

# LD-LABEL: func @ld(
# LD: tanh %x : tile<64xf32>
# LD: pow %x, {{.*}} : tile<64xf32>
# the int32 exponent converted to fp32 (libdevice's powi)
# LD: itof {{.*}} : tile<64xf32>
# LD: pow
# LD: atan2 %x, %x
# LD: erfinv %x
# LD: fmod
# LD: hypot %x, %x
# LD: constant {value = 4} : tile<64xi32>
# LD: ldexp %x, {{.*}} : tile<64xf32>
# LD: trunc %x
# LD: round %x
# LD: rint %x
# LD: nearbyint %x
# fp64 stays fp64 (a Python float promotes to it)
# LD: cbrt %d : tile<64xf64>
# LD: pow %d, {{.*}} : tile<64xf64>
# LD: log1p %d
# LD: ilogb %x : tile<64xi32>
# LD: cmpf %d, %d {pred = "uno"}
# LD: cmpf {{.*}} {pred = "oeq"}
# LD: bitcast %d : tile<64xi64>
# LD: cmpi {{.*}} {pred = "lt"}
# LD: cmpf {{.*}} {pred = "olt"}
