// SPDX-License-Identifier: BSD-2-Clause
/*
 * track_table.c - the tracker's memory: every byte comes from the caller's
 * zalloc and goes back through its free, never more than the budget held
 * at once (a table that doubles holds its old and its new slots for the
 * time of the copy, and both count).  The tables themselves: see track.h.
 */
#include <stdint.h>
#include <string.h>

#include "track.h"
#include "track_sort.h"

void *vxgbpi_mem_get(struct trk_mem *m, size_t size)
{
	void *p;

	if (size > m->budget || m->held > m->budget - size)
		return NULL;
	if (!(p = m->zalloc(m->ctx, size)))
		return NULL;
	m->held += size;
	return p;
}

void vxgbpi_mem_put(struct trk_mem *m, void *ptr, size_t size)
{
	if (!ptr)
		return;
	m->free(m->ctx, ptr, size);
	m->held -= size;
}

_Alignas(64) struct trk_slot vxgbpi_slot_none[1];

void vxgbpi_tab_init(struct trk_tab *t, unsigned nw)
{
	memset(t, 0, sizeof(*t));
	t->s = vxgbpi_slot_none;
	t->end = vxgbpi_slot_none + 1;
	t->nw = nw;
}

void vxgbpi_tab_free(struct trk_mem *m, struct trk_tab *t)
{
	int rehash = t->rehash;

	vxgbpi_mem_put(m, t->raw, t->raw_size);
	vxgbpi_tab_init(t, t->nw);
	t->rehash = rehash;
}

/* The first free slot on k's probe sequence. */
static size_t free_slot(const struct trk_slot *s, size_t cap, uint64_t h)
{
	size_t i;

	for (i = h & (cap - 1); s[i].k[0]; i = (i + 1) & (cap - 1))
		;
	return i;
}

/* The n slots at o into the empty table ns of cap slots, 4-word keys:
 * their hash is in the slot (a loop of its own, the key width a constant:
 * the matrix's tables move every key at each doubling). */
static void move4(struct trk_slot *ns, size_t cap, const struct trk_slot *o, size_t n)
{
	for (const struct trk_slot *e = o + n; o < e; o++)
		if (o->k[0])
			ns[free_slot(ns, cap, o->k[TRK_KEY4])] = *o;
}

/* Double t (TRK_TAB_MIN slots when empty).  0, or -1: it keeps its size. */
static int tab_grow(struct trk_mem *m, struct trk_tab *t)
{
	size_t ncap = t->cap ? t->cap * 2 : TRK_TAB_MIN, size;
	struct trk_slot *ns;
	void *raw;

	/* 63 bytes of slack to align the slots on a cache line */
	if (ncap > (SIZE_MAX - 63) / sizeof(*ns))
		return -1;
	size = ncap * sizeof(*ns) + 63;
	if (!(raw = vxgbpi_mem_get(m, size)))
		return -1;
	ns = (struct trk_slot *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
	if (t->nw == TRK_KEY4 && !t->rehash)
		move4(ns, ncap, t->s, t->cap);
	else
		for (size_t j = 0; j < t->cap; j++) {
			const struct trk_slot *o = &t->s[j];

			if (o->k[0])
				ns[free_slot(ns, ncap, trk_hash(o->k, t->nw))] = *o;
		}
	vxgbpi_mem_put(m, t->raw, t->raw_size);
	t->raw = raw;
	t->raw_size = size;
	t->s = ns;
	t->end = ns + ncap;
	t->cap = ncap;
	t->mask = ncap - 1;
	t->last = NULL;
	return 0;
}

struct trk_slot *vxgbpi_tab_insert(struct trk_mem *m, struct trk_tab *t, const uint64_t *k,
				   uint64_t h)
{
	struct trk_slot *s;

	if ((t->n + 1) * 4 > t->cap * 3 && (t->stuck || tab_grow(m, t) < 0)) {
		t->stuck = 1;
		t->dropped++;
		return NULL;
	}
	s = &t->s[free_slot(t->s, t->cap, h)];
	for (unsigned j = 0; j < t->nw; j++) /* a few words: no call to memcpy */
		s->k[j] = k[j];
	if (t->nw == TRK_KEY4)
		s->k[TRK_KEY4] = h; /* for tab_grow */
	t->n++;
	return t->last = s;
}

static void swap_bytes(unsigned char *a, unsigned char *b, size_t size)
{
	while (size--) {
		unsigned char c = *a;

		*a++ = *b;
		*b++ = c;
	}
}

/* Move element i of the heap [0, n) down to its place, swapping. */
static void sift_down(unsigned char *b, size_t i, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			return;
		if (c + 1 < n && cmp(b + c * size, b + (c + 1) * size) < 0)
			c++;
		if (cmp(b + i * size, b + c * size) >= 0)
			return;
		swap_bytes(b + i * size, b + c * size, size);
		i = c;
	}
}

static void swap_heapsort(unsigned char *b, size_t n, size_t size,
			  int (*cmp)(const void *, const void *))
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(b, i, n, size, cmp);
	for (size_t end = n; end > 1; end--) {
		swap_bytes(b, b + (end - 1) * size, size);
		sift_down(b, 0, end - 1, size, cmp);
	}
}

void vxgbpi_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	unsigned char *b = base, tmp[256];

	if (n < 2)
		return;
	if (size > sizeof(tmp)) { /* none of the tracker's: swap in place */
		swap_heapsort(b, n, size, cmp);
		return;
	}
	trk_heapsort(b, n, size, tmp, cmp);
}
