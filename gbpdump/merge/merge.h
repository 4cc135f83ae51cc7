/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * merge.h - mergeable summaries (docs/merge.md): what `--stats --json` and
 * `--check --json` add to their document ("summary", format version 2), and
 * `gbpdump --merge a.json b.json ...`, which combines such summaries, in
 * capture order, into what one run over all the inputs prints.
 *
 *   merge.c       the summary in memory, made from a run, merged, printed
 *   merge_io.c    the summary as JSON: written, read back
 *   merge_json.c  the JSON parsed by json-c into a tree that knows each
 *                 value's place (for errors)
 */
#ifndef GBPDUMP_MERGE_H
#define GBPDUMP_MERGE_H

#include <stdint.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "check.h"
#include "out.h"

#define MSUM_VERSION 2 /* 2: a group that is none is null, not 65536 or 131072 */
/* The largest summary --merge reads without --merge-max-size: a summary of
 * the default track budget is well below it, and a larger file is a
 * mistake (a capture, /dev/urandom) rather than a summary. */
#define MSUM_MAX_DEFAULT ((uint64_t)1 << 30)
/* Slots of libvxgbp's recent-frame cache (the slot is the low bits of the
 * hash: a slot number above it cannot come from this library). */
#define MSUM_SLOTS 65536u

/* A mirror (vxgbp_track_mirror) as a count's key: its kind above the 24
 * bits of its id (a VNI; an ERSPAN session has 10), so the counts sort as
 * vxgbp_track_mirrors() gives them. */
#define MSUM_MIRROR_KEY(kind, id) ((uint32_t)(kind) << 24 | (uint32_t)(id))
#define MSUM_MIRROR_ID_MAX 0xffffffu

/* One first occurrence of a rule (what check_rule_next gives). */
struct msum_occ {
	uint64_t frame;
	int off;
	int tie;          /* order within a frame: 1 the input's own; a key found
	                     at a merge: 0 a MAC, 2 an IP address */
	char what[128];
};

/* A rule found at one level. */
struct msum_find {
	unsigned rule;
	int level;        /* CHECK_MUST, _SHOULD, _INFO */
	uint64_t count;
	unsigned n;
	struct msum_occ first[CHECK_FIRST];
};

struct msum_input {
	char *name;
	int linktype;
	uint64_t records; /* frames read: the next input's frames are numbered after */
};

/* The options that change the results; summaries merge only when equal. */
struct msum_opts {
	int check;              /* 1: --check; 0: --stats */
	char profile[16];       /* --check */
	int checksums;          /* --check: 1 verified */
	uint64_t budget;        /* --track-budget in bytes (0: the default) */
	char groups[32];        /* "fnv1a64:<hex>" of the --groups file, or "" */
	char policy[32];        /* same for --policy */
	char *filter;           /* the BPF expression, or NULL */
	int64_t vni, gbp;       /* --vni, --gbp; -1 not given */
	unsigned fabric;        /* --fabric-header (enum vxgbp_fabric_mode) */
};

struct msum {
	int version;
	struct msum_opts o;
	struct msum_input *in;
	size_t nin;
	uint64_t records;       /* of all the inputs */
	uint64_t frames, bytes, vxlan, gbp, other, unparsed, unjudged;
	uint64_t unjudged_mac;  /* --check: frames not judged by source MAC */
	uint64_t d_eps, d_flows, d_vnis, d_pairs, d_pair_bytes; /* dropped */
	uint64_t approx_cache;  /* policy re-sightings across an input boundary
	                           on a GBP frame (the endpoint and flow updates
	                           one run skips there are not known) */
	uint64_t approx_budget; /* inputs whose tables were full */
	struct vxgbp_track_count *vnis, *groups;
	size_t nvnis, ngroups;
	struct vxgbp_track_count *mirrors; /* key: MSUM_MIRROR_KEY(kind, id) */
	size_t nmirrors;
	uint64_t d_mirrors, d_mirror_bytes; /* frames of mirrors not stored */
	struct vxgbp_track_entry *pairs, *eps, *flows;
	size_t npairs, neps, nflows;
	struct vxgbp_track_cached *cfirst, *clast; /* [TRK slots] by slot; frame 0 unused */
	size_t ncache;          /* slots of cfirst and clast (0: --stats) */
	struct msum_find *find;
	size_t nfind;
	char *error;            /* why a capture was not read to its end (the
	                           first such input's), or NULL */
};

/* What run.c knows of the run that the summary records. */
struct msum_run {
	const char *input;
	int linktype;
	uint64_t records;
	const char *profile;
	int no_csum;
	uint64_t budget;
	const char *gfile, *pfile, *filter;
	int64_t vni, gbp;
	uint64_t count;  /* -c: a summary of a cut run is refused at merge */
	const char *error; /* why the capture was not read to its end, or NULL */
	unsigned fabric;   /* --fabric-header */
};

void msum_free(struct msum *m);
/* The summary of a finished run (tracker t, checker c or NULL for
 * --stats).  0, or -1 after a message on standard error. */
int msum_from_run(struct msum *m, const struct msum_run *r, const struct vxgbp_track *t,
		  const struct gd_check *c);
/* Write ",\"summary\":{...}" (a member of the report's object). */
void msum_write(const struct msum *m, struct gd_out *o);
/* Read the summary member of file path's document into m.  0, or -1 after
 * one line on standard error naming the file (and the byte offset); -2
 * when the file cannot be read at all: unreadable, over max bytes, or
 * memory ran out. */
int msum_read(struct msum *m, const char *path, uint64_t max);
/* A summary holds each key once, its tables sorted (as msum_from_run
 * writes them; msum_append relies on it).  The table whose row *row
 * breaks that, or NULL when none does. */
const char *msum_unordered(const struct msum *m, size_t *row);
/* Append b (the next capture) to a.  0; -1 after a message naming path
 * (b's file) when b cannot be used with a; -2 when a count would pass
 * 2^64-1 or memory ran out. */
int msum_append(struct msum *a, const struct msum *b, const char *path);

/* gbpdump --stats --json / --check --json with a summary: what run.c
 * calls instead of stats_print / check_report.  Return as those do
 * (merge_check_run: 2 when memory ran out, after a message). */
int merge_stats_run(const struct msum_run *r, const struct vxgbp_track *t, struct gd_out *o,
		    const struct vxgbp_groups *groups, const struct vxgbp_policy *policy);
int merge_check_run(const struct msum_run *r, const struct vxgbp_track *t,
		    struct gd_check *c, const struct vxgbp_track_summary *s, const char *limit,
		    struct gd_out *o);

/* gbpdump --merge FILE... (the files, in capture order); max: the largest
 * file read (--merge-max-size); json: --json; gfile, pfile: --groups,
 * --policy given with it (NULL none), loaded into groups and policy.
 * Returns the exit status: --check's (0, 3, 4) or 0; 2 for a usage, I/O
 * or resource error (too large, out of memory, a count past 2^64-1); 1
 * for a summary that cannot be used. */
int merge_main(char **files, int nfiles, uint64_t max, int json, const char *gfile,
	       const char *pfile, const struct vxgbp_groups *groups,
	       const struct vxgbp_policy *policy);

/* "fnv1a64:<16 hex digits>" of a file's bytes into buf (32 bytes), or ""
 * for NULL.  0, or -1 after a message (unreadable). */
int msum_file_hash(char *buf, const char *path);

#endif /* GBPDUMP_MERGE_H */
