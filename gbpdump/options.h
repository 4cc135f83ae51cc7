/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.h - gbpdump's command line: what the user asked for (struct opts),
 * parsed and checked for combinations that make no sense, before anything
 * is opened.  run.h does what it says.
 */
#ifndef GBPDUMP_OPTIONS_H
#define GBPDUMP_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include <vxgbp/vxgbp.h>

#include "live.h"

#define EXIT_DATA 1  /* a data problem: unreadable record, truncated file */
#define EXIT_USAGE 2 /* a usage error */
#define EXIT_IO 2    /* an I/O or resource error (out of memory) */
#define EXIT_LIVE 5  /* a live capture's end counters do not add up */
#define GO_ON (-1)   /* no reason to exit yet */

struct opts {
	const char *rfile, *iface, *wfile, *gfile, *profile, *budget_arg;
	const char **rargs;        /* every -r, in order (rfile: the first input) */
	unsigned n_rargs;
	char **rfiles;             /* rargs, directories expanded (inputs.h) */
	unsigned n_rfiles;
	const char *pfile;         /* --policy FILE */
	const char *junit, *sarif; /* --junit FILE, --sarif FILE (imply --check) */
	int json, stats, check, force, tflag, verbose, eflag, no_csum;
	unsigned read_flags;
	uint32_t gbp_id, vni;
	int want_gbp, want_vni;
	unsigned long long count;
	size_t budget;             /* 0: the library's default */
	unsigned fabric;           /* --fabric-header: enum vxgbp_fabric_mode */
	struct vxgbp_parse_opts popts;
	char *filter;              /* the BPF expression, or NULL */
	const char *report;        /* --report FILE */
	int dot;                   /* --dot (with --stats) */
	char *cmdline;             /* the options, less --report FILE (the report's header) */
	int quiet;                 /* -q: no progress line */
	struct gd_live_opts live;  /* -B/--ring-size, -j (live.c) */
	int merge;                 /* --merge: the summaries below (merge.c) */
	char **mfiles;
	int nmfiles;
	size_t merge_max;          /* --merge-max-size; 0: MSUM_MAX_DEFAULT */
};

/* The command line into o: GO_ON, or the exit status (after a message, or
 * after --help/--version).  opts_free(o) either way. */
int opts_parse(int argc, char **argv, struct opts *o);
void opts_free(struct opts *o);

#endif /* GBPDUMP_OPTIONS_H */
