/* desc.c: host tensor descriptors (tilert_tensor_desc), the C side of Triton's
 * TensorDescriptor: a kernel parameter of type tensordesc<DTYPE[BLOCK...]> takes the
 * struct's fields as 2 * rank + 2 launch arguments (docs/abi.md, "Tensor descriptor
 * parameters"). The checks are the ones Triton's host class makes, so that a descriptor
 * accepted here is one the kernel can rely on (its last stride is compiled as 1). */
#include <string.h>

#include "tilert_int.h"

int tilert_tensor_desc_init(tilert_tensor_desc *d, void *base, size_t elem_size, int rank,
                            const int64_t *shape, const int64_t *strides, const char *padding)
{
	if (!d || !shape || !strides)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "tensor descriptor: NULL argument");
	if (rank < 1 || rank > TILERT_DESC_MAX_RANK)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
		                   "tensor descriptor: rank %d (must be 1 to %d)", rank,
		                   TILERT_DESC_MAX_RANK);
	if (elem_size != 1 && elem_size != 2 && elem_size != 4 && elem_size != 8)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
		                   "tensor descriptor: element size %zu (must be 1, 2, 4 or 8)", elem_size);
	if ((uintptr_t)base % 16)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
		                   "tensor descriptor: base %p is not 16-byte aligned", base);
	int nan = 0;
	if (padding && !strcmp(padding, "nan"))
		nan = 1;
	else if (padding && strcmp(padding, "zero"))
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
		                   "tensor descriptor: padding \"%s\" (must be \"zero\" or \"nan\")",
		                   padding);
	for (int i = 0; i < rank; i++) {
		if (shape[i] < 0 || shape[i] > INT32_MAX)
			return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
			                   "tensor descriptor: shape[%d] = %lld (must be 0 to INT32_MAX)", i,
			                   (long long)shape[i]);
		if (i == rank - 1 && strides[i] != 1)
			return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
			                   "tensor descriptor: the last stride is %lld (must be 1)",
			                   (long long)strides[i]);
		if (i < rank - 1 && (strides[i] * (int64_t)elem_size) % 16)
			return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
			                   "tensor descriptor: strides[%d] = %lld elements is not a multiple "
			                   "of 16 bytes", i, (long long)strides[i]);
	}
	memset(d, 0, sizeof *d);
	d->base = base;
	d->rank = rank;
	for (int i = 0; i < rank; i++) {
		d->shape[i] = (int32_t)shape[i];
		d->strides[i] = strides[i];
	}
	d->padding_nan = (uint8_t)nan;
	return TILERT_OK;
}

int tilert_tensor_desc_append(const tilert_tensor_desc *d, void **args, size_t cap, size_t *nargs)
{
	if (!d || !args || !nargs)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "tensor descriptor: NULL argument");
	if (d->rank < 1 || d->rank > TILERT_DESC_MAX_RANK)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
		                   "tensor descriptor: rank %d (not initialized?)", d->rank);
	size_t need = 2 * (size_t)d->rank + 2;
	if (*nargs > cap || cap - *nargs < need)
		return tilert_fail(TILERT_ERR_ARGUMENTS,
		                   "tensor descriptor: %zu arguments do not fit (%zu of %zu used)", need,
		                   *nargs, cap);
	/* the order of docs/abi.md: base, shape[], strides[], padding */
	void **a = args + *nargs;
	*a++ = (void *)&d->base;
	for (int i = 0; i < d->rank; i++)
		*a++ = (void *)&d->shape[i];
	for (int i = 0; i < d->rank; i++)
		*a++ = (void *)&d->strides[i];
	*a++ = (void *)&d->padding_nan;
	*nargs += need;
	return TILERT_OK;
}
