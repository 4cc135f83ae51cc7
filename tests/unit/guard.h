/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * guard.h - place test input right before an inaccessible page, so that a
 * read of even one byte past the end faults (SIGSEGV) instead of reading
 * neighbouring memory; ASan alone does not see reads into a buffer's own
 * slack.  Layout: [PROT_NONE][data pages][PROT_NONE], data end-aligned.
 */
#ifndef VXGBP_GUARD_H
#define VXGBP_GUARD_H

#include <stddef.h>
#include <stdint.h>

struct guard {
	uint8_t *map;  /* the whole mapping */
	size_t maplen;
	uint8_t *data; /* first accessible byte */
	size_t cap;    /* accessible bytes */
};

/* Map room for up to cap bytes.  0, or -1 (errno set). */
int guard_init(struct guard *g, size_t cap);
/* Copy n bytes so that they end exactly at the protected page; returns
 * the copy (for n == 0 the address of the protected page itself), or
 * NULL when n > cap. */
const uint8_t *guard_place(struct guard *g, const void *src, size_t n);
void guard_free(struct guard *g);

#endif
