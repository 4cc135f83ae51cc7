/* SPDX-License-Identifier: BSD-2-Clause */
/* guard.h - a buffer that ends right before a PROT_NONE page, so that any
 * read past its end faults (tests/labels). */
#ifndef LABELS_GUARD_H
#define LABELS_GUARD_H

#include <stddef.h>
#include <stdint.h>

struct guard {
	uint8_t *map;   /* two pages: data page, PROT_NONE page */
	size_t page;
};

/* 0 or -1 (mmap/mprotect failed). */
int guard_init(struct guard *g);
/* Copy n bytes (n <= one page) so that they end at the guard page; returns
 * the copy. */
const uint8_t *guard_place(struct guard *g, const void *src, size_t n);
void guard_free(struct guard *g);

#endif
