/* vec.h: growable arrays of any element type, backed by malloc.
 *
 *   VEC(int) v = {0};
 *   vec_push(&v, 3);
 *   for (size_t i = 0; i < v.len; i++) use(v.data[i]);
 *   vec_free(&v);
 *
 * The owner of the array calls vec_free(). Pushing reports out-of-memory by returning 0
 * from vec_reserve_(); vec_push then leaves the array unchanged. */
#ifndef TILECC_SUPPORT_VEC_H
#define TILECC_SUPPORT_VEC_H

#include <stddef.h>

#define VEC(T)                                                                                     \
	struct {                                                                                   \
		T *data;                                                                           \
		size_t len, cap;                                                                   \
	}

/* Grows (*data, *cap) to hold at least `need` elements of `elem` bytes. 1 on success. */
int vec_reserve_(void **data, size_t *cap, size_t need, size_t elem);

#define vec_reserve(v, n) vec_reserve_((void **)&(v)->data, &(v)->cap, (n), sizeof(*(v)->data))
#define vec_push(v, x)                                                                             \
	do {                                                                                       \
		if (vec_reserve((v), (v)->len + 1))                                                \
			(v)->data[(v)->len++] = (x);                                               \
	} while (0)
#define vec_pop(v) ((v)->data[--(v)->len])
#define vec_last(v) ((v)->data[(v)->len - 1])
#define vec_clear(v) ((v)->len = 0)
#define vec_free(v)                                                                                \
	do {                                                                                       \
		free((v)->data);                                                                   \
		(v)->data = NULL;                                                                  \
		(v)->len = (v)->cap = 0;                                                           \
	} while (0)

#endif
