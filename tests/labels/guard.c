// SPDX-License-Identifier: BSD-2-Clause
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guard.h"

int guard_init(struct guard *g)
{
	long ps = sysconf(_SC_PAGESIZE);

	g->page = ps > 0 ? (size_t)ps : 4096;
	g->map = mmap(NULL, 2 * g->page, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->map == MAP_FAILED) {
		g->map = NULL;
		return -1;
	}
	if (mprotect(g->map + g->page, g->page, PROT_NONE)) {
		munmap(g->map, 2 * g->page);
		g->map = NULL;
		return -1;
	}
	return 0;
}

const uint8_t *guard_place(struct guard *g, const void *src, size_t n)
{
	uint8_t *dst;

	if (n > g->page)
		n = g->page;
	dst = g->map + g->page - n;
	if (n)
		memcpy(dst, src, n);
	return dst;
}

void guard_free(struct guard *g)
{
	if (g->map)
		munmap(g->map, 2 * g->page);
	g->map = NULL;
}
