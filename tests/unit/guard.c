// SPDX-License-Identifier: BSD-2-Clause
/* guard.c - guard-page buffers for over-read tests (see guard.h). */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guard.h"

int guard_init(struct guard *g, size_t cap)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t body = (cap + page - 1) / page * page;

	if (!body)
		body = page;
	g->maplen = body + 2 * page;
	g->map = mmap(NULL, g->maplen, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->map == MAP_FAILED) {
		g->map = NULL;
		return -1;
	}
	g->data = g->map + page;
	g->cap = body;
	if (mprotect(g->data, body, PROT_READ | PROT_WRITE)) {
		munmap(g->map, g->maplen);
		g->map = NULL;
		return -1;
	}
	return 0;
}

const uint8_t *guard_place(struct guard *g, const void *src, size_t n)
{
	uint8_t *at;

	if (n > g->cap)
		return NULL;
	at = g->data + g->cap - n;
	if (n)
		memcpy(at, src, n);
	return at;
}

void guard_free(struct guard *g)
{
	if (g->map)
		munmap(g->map, g->maplen);
	g->map = NULL;
}
