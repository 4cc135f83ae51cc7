/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * progress.h - a progress line on standard error while gbpdump reads a
 * file: bytes read of the total (compressed bytes when the input is
 * compressed), frames, frames/s, MB/s and the time left, redrawn in place
 * with \r at most every GD_PROGRESS_MS (GBPDUMP_PROGRESS_INTERVAL_MS in the
 * environment changes that, for tests), and erased before anything else
 * is printed.  The frame loop only counts down: the clock is read once
 * every GD_PROGRESS_EVERY frames.
 */
#ifndef GBPDUMP_PROGRESS_H
#define GBPDUMP_PROGRESS_H

#include <stdint.h>

#include "reader.h"

#define GD_PROGRESS_MS 250u
#define GD_PROGRESS_EVERY 1024u

struct gd_progress {
	unsigned left;        /* frames until the next look at the clock */
	int on;               /* 1: drawing is allowed */
	int shown;            /* 1: a line is on the terminal now */
	int fd;               /* standard error */
	uint64_t start_ns, next_ns, interval_ns;
	const char *name;     /* the input, as given */
};

/* Decide whether to show progress (want: the run is one that may show it;
 * it is shown only when fd is a terminal). */
void progress_init(struct gd_progress *p, int want, int fd, const char *name);
/* The slow part of progress_tick(): look at the clock, maybe redraw. */
void progress_step(struct gd_progress *p, const struct gd_reader *r);
/* Erase the line, if one is shown (before any other output). */
void progress_clear(struct gd_progress *p);

/* Once per frame: nearly free. */
static inline void progress_tick(struct gd_progress *p, const struct gd_reader *r)
{
	if (p->on && !--p->left)
		progress_step(p, r);
}

#endif /* GBPDUMP_PROGRESS_H */
