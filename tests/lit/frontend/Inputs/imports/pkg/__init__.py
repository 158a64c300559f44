# A package for tests/lit/frontend/sema/imports.test.
from .consts import BIG

SCALE = 2
