from .cyc_a import X

Y = X + 1
