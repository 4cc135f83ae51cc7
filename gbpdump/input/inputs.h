/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * inputs.h - several -r inputs read as one stream: -r a -r b -r DIR.
 *
 * The names: every -r in the order given; a directory stands for the
 * capture files in it (not its subdirectories), sorted by name (strcmp):
 * regular files named *.pcap, *.pcapng or *.cap, also with .gz, .zst or
 * .xz after it; hidden files (a leading dot) and anything else are skipped.
 *
 * The stream: frame numbers continue from one input to the next (the
 * readers' own numbers stay in their error messages, with the file's name
 * and offset); each input has its own link type, hence its own parse
 * options and BPF program (the frame configuration of frame.h).  The run's
 * first input is read by run.c's reader; inputs.c opens the others, each
 * when its turn comes and closed when it is read, so the number of inputs
 * is limited by nothing but disk (`ulimit -n` does not count them).  They
 * are all opened once at the start, one after the other, to find what is
 * wrong with any (unreadable, not a capture, a filter its link type cannot
 * take) before a frame is printed, and to learn their link types.
 */
#ifndef GBPDUMP_INPUTS_H
#define GBPDUMP_INPUTS_H

#include <stdint.h>

#include "frame.h"
#include "progress.h"
#include "reader.h"

/* An input after the first: how its frames are read (frame.h), kept for
 * the whole run (a -j batch of it may still be parsed and printed when the
 * next input is open), while its reader is open only when it is read. */
struct gd_input {
	struct vxgbp_parse_opts popts;
	struct bpf_program prog;
	int have_prog;
	pcap_t *dead;
	struct gd_frame_cfg fc;
	int linktype;                /* -1: standard input, known when read */
};

struct gd_inputs {
	struct gd_reader *first;     /* run.c's reader of names[0] */
	const struct gd_frame_cfg *first_fc;
	struct gd_input *more;       /* names[1..n-1] */
	struct gd_reader more_rd;    /* the reader of names[cur] when cur > 0 */
	int more_open;
	char *const *names;          /* names[0..n-1] */
	unsigned flags;              /* reader_open()'s */
	const char *filter;          /* the BPF expression, or NULL */
	unsigned n, cur;             /* inputs; the one being read */
	struct gd_reader *rd;        /* its reader and frame configuration */
	const struct gd_frame_cfg *fc;
	uint64_t base;               /* frames of the inputs before cur */
	struct gd_progress *progress;
};

/* The names -r gave (args), directories expanded, into a new NULL-ended
 * array (*names, each string owned by it) of *n names.  0, or -1 with
 * errbuf (a directory without a capture file in it is an error). */
int inputs_list(const char *const *args, unsigned nargs, char ***names, unsigned *n,
		char *errbuf);
void inputs_list_free(char **names);

/* Check names[1..n-1], the inputs after the first (its reader and frame
 * configuration are run.c's: s->first, s->first_fc and s->progress are
 * set before), each opened and closed again; names and filter (the BPF
 * expression or NULL) are kept until inputs_close().  0, or -1 with
 * errbuf; inputs_close() in any case. */
int inputs_open(struct gd_inputs *s, char *const *names, unsigned n, unsigned flags,
		const char *filter, char *errbuf);
/* The link type every input has, or -1 when they differ or one of them is
 * standard input after the first (-w writes one, known before). */
int inputs_linktype(const struct gd_inputs *s);
/* The gd_par_src callback (parallel.h), for -j 1 as well. */
int inputs_next(void *ctx, struct gd_rec *rec, const struct gd_frame_cfg **cfg, char *errbuf);
/*
 * The current input's next records walked in the caller's loop (reader.h,
 * gd_walk): 1 with w and *cfg set, 0 when the next record must come from
 * inputs_next() (it is not one the walk takes, or a progress line is drawn:
 * it ticks for every record).  inputs_walk_end() when gd_walk_next() said
 * 0 or the loop stops, before inputs_next().
 */
static inline int inputs_walk_begin(const struct gd_inputs *s, struct gd_walk *w,
				    const struct gd_frame_cfg **cfg)
{
	if (s->progress || !reader_walk_begin(s->rd, w, s->base))
		return 0;
	*cfg = s->fc;
	return 1;
}

static inline void inputs_walk_end(struct gd_inputs *s, const struct gd_walk *w)
{
	reader_walk_end(s->rd, w);
}
void inputs_close(struct gd_inputs *s);

#endif /* GBPDUMP_INPUTS_H */
