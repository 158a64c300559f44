# rvv-loops.awk: the self-loops (a block that branches back to its own label) of a RISC-V
# assembly file that do vector multiply-adds, each after a line "LOOP" (cpu-rvv-dot.test).
/^\.LBB[0-9_]+:/ { lab = substr($1, 1, length($1) - 1); blk = ""; next }
/^[^ \t.]/ { lab = ""; blk = "" }
{ blk = blk $0 "\n" }
lab != "" && $1 ~ /^b/ && $NF == lab { if (blk ~ /vfmacc|vfmadd|vmacc|vmadd/) printf "LOOP\n%s", blk; blk = "" }
