/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * track_sort.h - the tracker's in-place sort (internal): a heapsort (no
 * allocation; qsort may allocate) that the reading functions of
 * track_matrix.c and track_flows.c call with their own element size and
 * compare function.  It is static inline so that the compiler makes a
 * copy for each caller with the size and the compare function known:
 * the compare is then inlined and an element moves in a few word copies
 * (not a generic copy through a function pointer).
 * vxgbpi_sort() (track_table.c) is the same for any other caller.
 */
#ifndef VXGBP_TRACK_SORT_H
#define VXGBP_TRACK_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Copy one element: 8 bytes a step when the size allows, else a byte at a
 * time. */
static inline void trk_elem_copy(unsigned char *d, const unsigned char *s, size_t size)
{
	if (size % 8 == 0) {
		for (size_t i = 0; i < size; i += 8)
			memcpy(d + i, s + i, 8);
		return;
	}
	while (size--)
		*d++ = *s++;
}

/* Floyd's heapsort step: the element in tmp goes to its place in the heap
 * [0, n) whose subtree root i is a hole.  The hole first sinks to a leaf
 * along the larger children (one compare a level), then tmp rises from
 * there, never above i (a few compares): about half the compares of the
 * textbook sift-down, and elements move into the hole instead of being
 * swapped. */
static inline void trk_sift_hole(unsigned char *b, size_t i, size_t n, size_t size,
				 const unsigned char *tmp,
				 int (*cmp)(const void *, const void *))
{
	size_t c, root = i;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && cmp(b + c * size, b + (c + 1) * size) < 0)
			c++;
		trk_elem_copy(b + i * size, b + c * size, size);
		i = c;
	}
	while (i > root) {
		size_t up = (i - 1) / 2;

		if (cmp(b + up * size, tmp) >= 0)
			break;
		trk_elem_copy(b + i * size, b + up * size, size);
		i = up;
	}
	trk_elem_copy(b + i * size, tmp, size);
}

/* Sort n elements of size bytes at b; tmp holds one element. */
static inline void trk_heapsort(unsigned char *b, size_t n, size_t size, unsigned char *tmp,
				int (*cmp)(const void *, const void *))
{
	if (n < 2)
		return;
	for (size_t i = n / 2; i-- > 0;) {
		trk_elem_copy(tmp, b + i * size, size);
		trk_sift_hole(b, i, n, size, tmp, cmp);
	}
	for (size_t end = n - 1; end > 0; end--) {
		trk_elem_copy(tmp, b + end * size, size);
		trk_elem_copy(b + end * size, b, size);
		trk_sift_hole(b, 0, end, size, tmp, cmp);
	}
}

/* TRK_SORT(array, n, cmp): the call each reading function makes. */
#define TRK_SORT(arr, n, cmp)                                                       \
	do {                                                                        \
		unsigned char trk_tmp_[sizeof(*(arr))];                             \
		trk_heapsort((unsigned char *)(arr), (n), sizeof(*(arr)), trk_tmp_, \
			     (cmp));                                                \
	} while (0)

/*
 * An LSD radix sort by keys under 2^(TRK_RADIX_BITS * nd) (VNIs and groups,
 * a matrix cell's (src, dst)): one pass over the elements counts each
 * digit's values; a digit whose values are all the same (the top digit of
 * a capture's VNIs and groups, most often) gets no pass, each other digit
 * moves the elements stably from one array to the other.  Static inline
 * like the heapsort, so that each caller's copy has the size and the key
 * function known.  tmp: room for n elements; n < 2^32.
 */
#define TRK_RADIX_BITS 9
#define TRK_RADIX_VALS (1u << TRK_RADIX_BITS)
#define TRK_RADIX_MAXD 4

/* The counts of each digit's values (hist[d][v]) into where the first
 * element of each value goes; the digits that need a pass, as bits. */
static inline unsigned trk_radix_plan(uint32_t (*hist)[TRK_RADIX_VALS], unsigned nd, uint32_t n)
{
	unsigned need = 0;

	for (unsigned d = 0; d < nd; d++) {
		uint32_t sum = 0;
		int one = 0;

		for (unsigned v = 0; v < TRK_RADIX_VALS; v++) {
			uint32_t c = hist[d][v];

			one |= c == n;
			hist[d][v] = sum;
			sum += c;
		}
		need |= (unsigned)!one << d;
	}
	return need;
}

static inline void trk_radix(unsigned char *a, unsigned char *tmp, uint32_t n, size_t size,
			     unsigned nd, uint64_t (*key)(const void *))
{
	uint32_t hist[TRK_RADIX_MAXD][TRK_RADIX_VALS];
	unsigned char *from = a, *to = tmp, *sw;
	unsigned need;

	memset(hist, 0, sizeof(hist));
	for (uint32_t i = 0; i < n; i++) {
		uint64_t k = key(a + i * size);

		for (unsigned d = 0; d < nd; d++)
			hist[d][(k >> (d * TRK_RADIX_BITS)) & (TRK_RADIX_VALS - 1)]++;
	}
	need = trk_radix_plan(hist, nd, n);
	for (unsigned d = 0; d < nd; d++) {
		uint32_t *pos = hist[d];

		if (!(need >> d & 1))
			continue;
		for (uint32_t i = 0; i < n; i++) {
			const unsigned char *e = from + i * size;
			uint64_t v = (key(e) >> (d * TRK_RADIX_BITS)) & (TRK_RADIX_VALS - 1);

			trk_elem_copy(to + (size_t)pos[v]++ * size, e, size);
		}
		sw = from;
		from = to;
		to = sw;
	}
	if (from != a)
		memcpy(a, from, (size_t)n * size);
}

/* TRK_RADIX(array, tmp, n, nd, key): sort n elements by key (nd digits),
 * tmp holding n more. */
#define TRK_RADIX(arr, tmp, n, nd, key)                                                      \
	trk_radix((unsigned char *)(arr), (unsigned char *)(tmp), (n), sizeof(*(arr)), (nd), \
		  (key))

#endif /* VXGBP_TRACK_SORT_H */
