#!/usr/bin/env python3
"""rv_weak_glibc.py: marks an ELF shared object's need of a glibc version weak, in place.

scipy-openblas32's riscv64 library asks for GLIBC_2.38 (for one symbol, __isoc23_strtol);
the riscv64 sysroot of Debian 12's cross compiler has glibc 2.36, whose loader refuses the
library. With the requirement weak the loader takes it, and the symbol binds to the
definition that bench/cpu/rv_icount.c exports. Only for the benchmark's copy in the
build directory.

    rv_weak_glibc.py LIB.so [VERSION]      (VERSION: GLIBC_2.38)
"""
import struct
import sys


def main():
    path = sys.argv[1]
    want = (sys.argv[2] if len(sys.argv) > 2 else "GLIBC_2.38").encode()
    data = bytearray(open(path, "rb").read())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit("rv_weak_glibc: not a little-endian ELF64 file: " + path)
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    SHT_GNU_VERNEED = 0x6FFFFFFE
    done = 0
    for name, typ, flags, addr, off, size, link, info, align, entsize in secs:
        if typ != SHT_GNU_VERNEED:
            continue
        stroff = secs[link][4]
        pos = off
        for _ in range(info):
            vn_version, vn_cnt, vn_file, vn_aux, vn_next = struct.unpack_from("<HHIII", data, pos)
            apos = pos + vn_aux
            for _ in range(vn_cnt):
                vna_hash, vna_flags, vna_other, vna_name, vna_next = struct.unpack_from("<IHHII", data, apos)
                end = data.index(b"\0", stroff + vna_name)
                if bytes(data[stroff + vna_name:end]) == want:
                    struct.pack_into("<H", data, apos + 4, vna_flags | 0x2)  # VER_FLG_WEAK
                    done += 1
                apos += vna_next
            pos += vn_next
    if not done:
        sys.exit("rv_weak_glibc: %s needs no %s" % (path, want.decode()))
    open(path, "wb").write(data)


if __name__ == "__main__":
    main()
