/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * parallel.h - gbpdump -j N: the frame stages of frame.h on N worker
 * threads, with the output and every cross-frame result of one thread.
 *
 * No reader thread: each worker (the calling thread is one) reads its own
 * next batch from a gd_par_src: a regular classic pcap file in blocks
 * (the records that start in a block of GD_PAR_CHUNK bytes, read by the
 * worker with pread(2) while the others read theirs, walked by the one
 * reader in block order: gd_par_src's blocks), any other input one worker
 * at a time, at most GD_PAR_CHUNK record bytes and GD_PAR_RECS records,
 * copied.  Either way the one reader takes every record in order: the
 * same errors at the same records as with one thread.  Then it
 *   1. parses its frames (gd_frame_parse), in parallel with the others;
 *   2. waits for the state token: batch k runs gd_frame_state() only after
 *      batch k-1 did, frame by frame in order (so the tracker, --check,
 *      --report and -w see exactly the one-thread sequence), and the first
 *      frame that stops the run (-c, -w failed) ends stage 2 for good;
 *      or, when the run's stage 2 needs no order (the matched count and a
 *      tracker of the matrix alone), runs it with no token into the
 *      worker's own state, made into the run's at the end;
 *   3. prints its frames (gd_frame_emit) into the batch's output blocks,
 *      in parallel;
 *   4. waits for the output token, writes the blocks to the run's
 *      standard output after batch k-1's (a run that prints nothing per
 *      frame takes no turn).
 * One batch per worker is in flight: memory does not grow with the capture.
 */
#ifndef GBPDUMP_PARALLEL_H
#define GBPDUMP_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#include "frame.h"
#include "out.h"
#include "reader.h"

/* A batch's parsed frames and records stay in a core's L2 cache between
 * stage 1 and stage 3 (2048 records a batch cost a third more CPU time). */
#define GD_PAR_CHUNK (256u * 1024)  /* record bytes per batch */
#define GD_PAR_RECS 256u            /* records per batch */
#define GD_PAR_MAX_JOBS 256u

/* Where records come from, called on the reading thread only: 1 with rec
 * and the frame configuration of its input, 0 at the end, -1 on an error
 * (errbuf).  rec's bytes are valid until the next call (a batch copies
 * them; a lent block's records are the block's, below). */
struct gd_par_src {
	int (*next)(void *ctx, struct gd_rec *rec, const struct gd_frame_cfg **cfg,
		    char *errbuf);
	void *ctx;
	/* NULL, or the reader of the one input when it may be read in blocks
	 * (reader_blocks_ok()): each worker reads a block of GD_PAR_CHUNK
	 * bytes with pread(2), in parallel with the others, and lends it to
	 * the reader, whose next() then takes the records that start in it,
	 * one worker at a time and in block order; the batch points into the
	 * block, no copy. */
	struct gd_reader *blocks;
};

struct gd_par_run {
	unsigned jobs;                 /* worker threads, >= 1 */
	struct gd_frame_state *fs;     /* stage 2's objects */
	struct gd_out *out;            /* standard output: batches in order */
	const struct gd_print *pp;     /* copied per worker */
};

/* Every record of src through the stages.  Returns the source's last
 * return (1: the run stopped early: -c, -w or the output failed; 0: the
 * end; -1: an error, errbuf says it), or -2 when the threads or their
 * memory could not be had (errbuf says it). */
int gd_par_run(struct gd_par_run *p, const struct gd_par_src *src, char *errbuf);

/* The CPUs this process may run on (sched_getaffinity), at least 1. */
unsigned gd_par_cpus(void);

#endif /* GBPDUMP_PARALLEL_H */
