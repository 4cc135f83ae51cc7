// SPDX-License-Identifier: BSD-2-Clause
/*
 * track_memory.c - the tracker's memory.
 *
 * The tracker's hash tables double as keys arrive and are written at
 * random, so every 4 KiB page of a new table faults once, and each
 * doubling takes fresh pages.  On the virtual machines this project runs
 * on a fault costs about as much as copying the page (docs/performance.md).
 * So a block of 1 MiB or more is mapped here on its own, aligned to 2 MiB,
 * advised to use transparent huge pages and filled in one call
 * (MADV_POPULATE_WRITE): one fault a 2 MiB page, or one system call for
 * all the 4 KiB ones.  A table asks for its slots and 63 bytes to align
 * them, and a populated page is memory the run holds: a mapping of whole
 * huge pages would hold nearly 2 MiB a table for those bytes, so a short
 * tail is mapped in 4 KiB pages (mapped_size()).  All advice:
 * where the kernel says no, the pages fault as they would.  Anonymous
 * pages are zero, as zalloc's contract asks.  gbpdump owns this memory
 * (libvxgbp takes it through vxgbp_track_opts), so advising it is its own
 * business.  Smaller blocks come from calloc, their pages written once at
 * once: a table's first touch of a page is a probe, a read, which maps the
 * zero page, and the write after it replaces that page, which in a process
 * of several threads (gbpdump -j) flushes the other CPUs' TLBs by interrupt.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, madvise */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "track_memory.h"

#define TRACK_MEM_MAPPED (1u << 20) /* blocks of this size or more are mapped */
#define TRACK_MEM_HUGE (2u << 20)   /* a transparent huge page on x86-64 */
#define TRACK_MEM_PAGE 4096u

/* Linux 5.14; the value is the ABI's (asm-generic/mman-common.h) */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* The mapping of a block of size bytes: whole huge pages, and for the
 * tail past the last of them whole 4 KiB pages when it is under a quarter
 * of a huge page (filling one 2 MiB page costs about as much as filling
 * 512 KiB of 4 KiB pages), else one huge page more. */
static size_t mapped_size(size_t size)
{
	size_t huge = size & ~(size_t)(TRACK_MEM_HUGE - 1), tail = size - huge;

	if (tail >= TRACK_MEM_HUGE / 4)
		return huge + TRACK_MEM_HUGE;
	return huge + ((tail + TRACK_MEM_PAGE - 1) & ~(size_t)(TRACK_MEM_PAGE - 1));
}

/* size zeroed bytes from calloc, every page written (zero stays). */
static void *small_zalloc(size_t size)
{
	volatile uint8_t *p = calloc(1, size);

	for (size_t i = 0; p && i < size; i += 4096)
		p[i] = 0;
	return (void *)p;
}

void *gd_track_mem_zalloc(size_t size)
{
	size_t len, lead;
	uint8_t *raw, *p;

	if (size < TRACK_MEM_MAPPED)
		return small_zalloc(size);
	if (size > SIZE_MAX - 2 * (size_t)TRACK_MEM_HUGE)
		return NULL;
	len = mapped_size(size);
	/* one huge page more, to start on a boundary; the rest unmapped */
	raw = mmap(NULL, len + TRACK_MEM_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	p = (uint8_t *)(((uintptr_t)raw + TRACK_MEM_HUGE - 1) & ~(uintptr_t)(TRACK_MEM_HUGE - 1));
	lead = (size_t)(p - raw);
	if (lead)
		munmap(raw, lead);
	if (TRACK_MEM_HUGE - lead)
		munmap(p + len, TRACK_MEM_HUGE - lead);
#ifdef MADV_HUGEPAGE
	(void)madvise(p, len, MADV_HUGEPAGE);
#endif
	(void)madvise(p, len, MADV_POPULATE_WRITE);
	return p;
}

void gd_track_mem_free(void *p, size_t size)
{
	if (!p)
		return;
	if (size < TRACK_MEM_MAPPED)
		free(p);
	else
		munmap(p, mapped_size(size));
}
