from .cyc_b import Y

X = Y + 1
