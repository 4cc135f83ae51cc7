// SPDX-License-Identifier: BSD-2-Clause
/*
 * run.c - one gbpdump run (run.h): open what the options name (inputs,
 * --groups, --policy, the tracker, the outputs), push every frame through
 * the stages of frame.h on one thread (or -j's, parallel.h; the live
 * workers, live_run.c), then write the summaries and publish the outputs,
 * or nothing when the run failed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "check.h"
#include "check_ci.h"
#include "filter.h"
#include "frame.h"
#include "inputs.h"
#include "lines.h"
#include "live.h"
#include "merge.h"
#include "options.h"
#include "out.h"
#include "parallel.h"
#include "policy.h"
#include "print.h"
#include "progress.h"
#include "reader.h"
#include "report.h"
#include "run.h"
#include "stats.h"
#include "track_memory.h"
#include "writer.h"

static volatile sig_atomic_t stop;
static pcap_t *live_pcap;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
	if (live_pcap)
		pcap_breakloop(live_pcap);
}

struct groups_load {
	struct vxgbp_groups *g;
	const char *path;
};

/* One line of --groups FILE into the table (lines.h). */
static int groups_line(void *ctx, unsigned long lineno, char *line, size_t len)
{
	const char *path = ((struct groups_load *)ctx)->path;
	size_t col;
	int r = vxgbp_groups_parse_line(((struct groups_load *)ctx)->g, line, len, &col);

	if (r == VXGBP_E_SYNTAX)
		fprintf(stderr, "gbpdump: %s:%lu:%zu: expected 'ID NAME' (ID 0-65535, "
			"NAME up to 31 characters)\n", path, lineno, col + 1);
	else if (r < 0)
		fprintf(stderr, "gbpdump: %s:%lu: %s\n", path, lineno, vxgbp_strerror(r));
	return r < 0 ? -1 : 0;
}

/* Load --groups FILE into g.  0, or -1 after printing an error. */
static int load_groups(struct vxgbp_groups *g, const char *path)
{
	FILE *f = fopen(path, "r");
	struct groups_load l = { g, path };
	int rc;

	if (!f) {
		fprintf(stderr, "gbpdump: %s: %s\n", path, strerror(errno));
		return -1;
	}
	rc = lines_read(f, "gbpdump", path, 1023, groups_line, &l);
	fclose(f);
	return rc ? -1 : 0;
}

/* ---- one run ---- */

struct run {
	const char **prot, **prot_nouns; /* what no output may replace (protect()) */
	struct gd_reader rd;
	int rd_open;
	struct gd_writer wr;
	struct bpf_program prog;
	int have_prog;
	pcap_t *dead;
	struct gd_print pp;
	struct vxgbp_group_name *gstore;
	struct vxgbp_groups groups;
	struct gd_out *out;
	struct vxgbp_track *trk;   /* NULL: the run needs no cross-frame state */
	struct vxgbp_track_opts trk_opts; /* what it was started with */
	int trk_oom;               /* the tracker's zalloc failed once */
	struct gd_check *chk;      /* --check, --report */
	struct gd_report *rep;     /* --report */
	struct vxgbp_policy *policy; /* --policy (NULL without): judge pairs with
	                                vxgbp_policy_pair(), flows with _judge() */
	struct gd_frame_cfg fc;    /* the frame stages (frame.h) */
	struct gd_frame_state fs;  /* fs.matched: the frames that matched */
	struct vxgbp_pkt pkt;      /* the single-thread loop's parse */
	struct gd_inputs ins;      /* -r: every input (inputs.h) */
	int par_failed;            /* -j: the threads could not run */
	struct check_ci_file junit, sarif; /* --junit, --sarif FILE */
	struct gd_progress progress; /* the line on standard error */
	char errbuf[GD_ERRBUF];
};

static void *trk_zalloc(void *ctx, size_t size)
{
	void *p = gd_track_mem_zalloc(size);

	if (!p) /* -j: the workers' trackers share this allocator */
		__atomic_store_n(&((struct run *)ctx)->trk_oom, 1, __ATOMIC_RELAXED);
	return p;
}

static void trk_free(void *ctx, void *ptr, size_t size)
{
	(void)ctx;
	gd_track_mem_free(ptr, size);
}

/* What the tracker does for this run: the matrix for --stats, the rules
 * for --check, --json and -v, both for --report; nothing for plain text
 * and -w. */
static unsigned track_modes(const struct opts *o)
{
	if (o->wfile)
		return 0;
	if (o->report)
		return VXGBP_TRACK_MATRIX | VXGBP_TRACK_RULES;
	if (o->stats)
		return VXGBP_TRACK_MATRIX;
	if (o->check || o->json || o->verbose)
		return VXGBP_TRACK_RULES;
	return 0;
}

/* The tracker and the checker.  GO_ON, or the exit status. */
static int open_track(struct run *r, const struct opts *o)
{
	struct vxgbp_track_opts to = { .size = sizeof(to), .what = track_modes(o),
				       .budget = o->budget, .zalloc = trk_zalloc,
				       .free = trk_free, .ctx = r, .fabric = o->fabric };
	int e;

	if (o->pfile) /* --policy: the flows; the audit alone needs nothing else */
		to.what = (o->check || o->stats || o->report ? to.what : 0) | VXGBP_TRACK_FLOWS;
	if (o->check && o->json) /* the summary's first sightings (merge.h) */
		to.what |= VXGBP_TRACK_FIRSTS;
	if ((o->check || o->report) && !(r->chk = check_new(o->profile, o->no_csum))) {
		fprintf(stderr, "gbpdump: out of memory\n");
		return EXIT_IO;
	}
	if (r->chk)
		check_set_fabric(r->chk, o->fabric);
	if (!to.what)
		return GO_ON;
	if (!(r->trk = malloc(vxgbp_track_size()))) {
		fprintf(stderr, "gbpdump: out of memory\n");
		return EXIT_IO;
	}
	r->trk_opts = to;
	if ((e = vxgbp_track_init(r->trk, &to)) == 0)
		return GO_ON;
	free(r->trk);
	r->trk = NULL;
	if (e == VXGBP_E_NOSPACE && !r->trk_oom) {
		fprintf(stderr, "gbpdump: --track-budget %s: too small for the fixed part of "
			"the cross-frame tables\n", o->budget_arg ? o->budget_arg : "");
		return EXIT_USAGE;
	}
	fprintf(stderr, "gbpdump: %s\n", e == VXGBP_E_NOSPACE ? "out of memory"
		: vxgbp_strerror(e));
	return EXIT_IO;
}

/* --groups.  GO_ON, or the exit status. */
static int open_groups(struct run *r, const struct opts *o)
{
	vxgbp_groups_init(&r->groups, NULL, 0);
	r->pp.groups = &r->groups;
	if (!o->gfile)
		return GO_ON;
	if (!(r->gstore = calloc(65536, sizeof(*r->gstore)))) {
		fprintf(stderr, "gbpdump: out of memory\n");
		return EXIT_IO;
	}
	vxgbp_groups_init(&r->groups, r->gstore, 65536);
	return load_groups(&r->groups, o->gfile) ? EXIT_USAGE : GO_ON;
}

/* The BPF expression: kernel-side when live, else compiled for
 * pcap_offline_filter.  GO_ON, or EXIT_USAGE. */
static int open_filter(struct run *r, const struct opts *o)
{
	int rr;

	if (!o->filter)
		return GO_ON;
	if (o->iface) {
		rr = reader_set_filter(&r->rd, o->filter, r->errbuf);
	} else {
		r->dead = gd_pcap_filter(reader_dlt(&r->rd),
					 r->rd.snaplen ? (int)r->rd.snaplen : 262144,
					 PCAP_TSTAMP_PRECISION_NANO, o->filter, &r->prog, NULL,
					 r->errbuf, sizeof(r->errbuf));
		rr = r->dead ? 0 : -1;
		r->have_prog = !rr;
	}
	if (!rr)
		return GO_ON;
	fprintf(stderr, "gbpdump: %s\n", r->errbuf);
	return EXIT_USAGE;
}

/* Everything a run reads from and writes to.  GO_ON, or the exit status. */
/* --junit and --sarif FILE, refused now when they cannot be written
 * (check_ci.h).  GO_ON, or EXIT_IO after a message. */
static int open_ci(struct run *r, const struct opts *o)
{
	const char *const *in = r->prot, *const *no = r->prot_nouns;

	if ((o->junit && check_ci_open(&r->junit, o->junit, in, no, o->force, r->errbuf) < 0) ||
	    (o->sarif && check_ci_open(&r->sarif, o->sarif, in, no, o->force, r->errbuf) < 0)) {
		fprintf(stderr, "gbpdump: %s\n", r->errbuf);
		return EXIT_IO;
	}
	return GO_ON;
}

static void frame_setup(struct run *r, const struct opts *o);

/* -r: the threads of -j (default: the CPUs this process may use). */
static unsigned file_jobs(const struct opts *o)
{
	return o->live.workers ? o->live.workers : gd_par_cpus();
}

/* -r: the inputs, directories expanded (inputs.h); --report, --junit and
 * --sarif name one input.  GO_ON, or the exit status. */
static int open_list(struct run *r, struct opts *o)
{
	if (inputs_list(o->rargs, o->n_rargs, &o->rfiles, &o->n_rfiles, r->errbuf) < 0) {
		fprintf(stderr, "gbpdump: %s\n", r->errbuf);
		return EXIT_IO;
	}
	o->rfile = o->rfiles[0];
	if (o->n_rfiles > 1 && (o->report || o->junit || o->sarif)) {
		fprintf(stderr, "gbpdump: --report, --junit and --sarif read one capture, "
			"not %u\n", o->n_rfiles);
		return EXIT_USAGE;
	}
	return GO_ON;
}

/* The inputs after the first, read on from it.  GO_ON, or the exit status. */
static int open_more(struct run *r, const struct opts *o)
{
	r->ins.first = &r->rd;
	r->ins.first_fc = &r->fc;
	r->ins.progress = &r->progress;
	if (inputs_open(&r->ins, o->rfiles, o->n_rfiles, o->read_flags, o->filter,
			r->errbuf) < 0) {
		fprintf(stderr, "gbpdump: %s\n", r->errbuf);
		return EXIT_IO;
	}
	if (o->wfile && inputs_linktype(&r->ins) < 0) {
		fprintf(stderr, "gbpdump: -w writes one link type; the inputs have several (or "
			"standard input after the first, whose link type is not known yet)\n");
		return EXIT_USAGE;
	}
	return GO_ON;
}

/* What no output may replace: every capture, the groups and the policy
 * file, each with what a message calls it (common/atomic_file.h).  GO_ON,
 * or EXIT_IO. */
static int protect(struct run *r, const struct opts *o)
{
	size_t n = 0, max = o->n_rfiles + 3;

	if (!(r->prot = calloc(max, sizeof(*r->prot))) ||
	    !(r->prot_nouns = calloc(max, sizeof(*r->prot_nouns)))) {
		fprintf(stderr, "gbpdump: out of memory\n");
		return EXIT_IO;
	}
	for (unsigned i = 0; i < o->n_rfiles; i++, n++) {
		r->prot[n] = o->rfiles[i];
		r->prot_nouns[n] = "the capture";
	}
	if (o->gfile) {
		r->prot[n] = o->gfile;
		r->prot_nouns[n++] = "the groups file";
	}
	if (o->pfile) {
		r->prot[n] = o->pfile;
		r->prot_nouns[n++] = "the policy file";
	}
	return GO_ON;
}

static int run_open(struct run *r, struct opts *o)
{
	int rc;

	print_init(&r->pp);
	r->pp.verbose = o->verbose;
	r->pp.fabric = o->fabric;
	r->pp.eflag = o->eflag;
	r->pp.tmode = o->tflag == 0 ? GD_TIME_LOCAL : o->tflag == 1 ? GD_TIME_NONE
		      : o->tflag == 2 ? GD_TIME_EPOCH : GD_TIME_DATE;
	if ((rc = open_groups(r, o)) != GO_ON)
		return rc;
	if (o->pfile && !(r->policy = policy_load(o->pfile, &r->groups)))
		return EXIT_USAGE;
	o->live.flags = o->read_flags;
	if ((!o->iface && (rc = open_list(r, o)) != GO_ON) || (rc = protect(r, o)) != GO_ON)
		return rc;
	if ((o->iface ? reader_open_live(&r->rd, o->iface, 262144, &o->live, r->errbuf)
		      : reader_open(&r->rd, o->rfile, o->read_flags, r->errbuf)) < 0) {
		fprintf(stderr, "gbpdump: %s\n", r->errbuf);
		return EXIT_IO;
	}
	r->rd_open = 1;
	/* progress only where it cannot mix with frames on the same terminal:
	 * the summary modes (--stats, --check, the --policy audit, --report
	 * alone) print at the end, -w prints nothing */
	progress_init(&r->progress, !o->iface && !o->quiet &&
		      (o->stats || o->check || o->wfile || o->pfile || o->report ||
		       !isatty(STDOUT_FILENO)),
		      STDERR_FILENO, r->rd.name);
	o->popts.linktype = r->rd.linktype;
	if ((rc = open_filter(r, o)) != GO_ON)
		return rc;
	if (o->wfile && writer_open(&r->wr, o->wfile, r->prot, r->prot_nouns,
				    o->force, r->rd.linktype,
				    r->rd.snaplen, r->rd.nsec_res, r->errbuf) < 0) {
		fprintf(stderr, "gbpdump: %s\n", r->errbuf);
		return EXIT_IO;
	}
	/* --stats prints no findings (and excludes --check): skip verifying
	 * checksums.  --report has findings. */
	if ((o->stats && !o->report) || o->no_csum)
		o->popts.flags |= VXGBP_PARSE_NO_CSUM;
	if ((rc = open_track(r, o)) != GO_ON || (rc = open_ci(r, o)) != GO_ON)
		return rc;
	if (o->report && !(r->rep = report_new())) {
		fprintf(stderr, "gbpdump: out of memory\n");
		return EXIT_IO;
	}
	if (r->chk)
		o->popts.flags |= check_parse_flags(r->chk);
	/* --stats alone reads what the matrix counts, no more (vxgbp.h) */
	if (o->stats && !r->chk && !r->rep && !o->pfile)
		o->popts.flags |= VXGBP_PARSE_SUMMARY;
	if (!(r->out = malloc(sizeof(*r->out)))) {
		fprintf(stderr, "gbpdump: out of memory\n");
		return EXIT_IO;
	}
	out_init(r->out, STDOUT_FILENO);
	frame_setup(r, o);
	return o->iface ? GO_ON : open_more(r, o);
}

/* The frame stages' configuration and state (frame.h) from the run.
 * After run_open(): o->popts is final then. */
static void frame_setup(struct run *r, const struct opts *o)
{
	r->fc.popts = &o->popts;
	r->fc.prog = r->have_prog ? &r->prog : NULL;
	r->fc.want_gbp = o->want_gbp;
	r->fc.want_vni = o->want_vni;
	r->fc.gbp_id = o->gbp_id;
	r->fc.vni = o->vni;
	r->fc.keep_unjudged = r->chk != NULL;
	r->fc.print = o->wfile || r->chk || o->stats || r->policy ? NULL
		      : o->json ? print_json : print_text;
	r->fc.pp = &r->pp;
	r->fs.trk = r->trk;
	r->fs.chk = r->chk;
	r->fs.rep = r->rep;
	r->fs.wr = o->wfile ? &r->wr : NULL;
	r->fs.count = o->count;
}

/* One frame through the three stages on this thread: 1 when the run must
 * stop after it (-c reached, -w or the output failed).  always_inline:
 * GCC leaves it a call in the record loop otherwise. */
static inline __attribute__((always_inline)) int
one_frame(struct run *r, const struct gd_frame_cfg *fc, const struct gd_rec *rec)
{
	uint64_t cross;

	if (!gd_frame_parse(fc, rec, &r->pkt))
		return 0;
	cross = gd_frame_state(&r->fs, rec, &r->pkt);
	gd_frame_emit(fc, &r->pp, r->out, rec, &r->pkt, cross);
	return r->out->err || gd_frame_stop(&r->fs);
}

/* The records the current input's walk takes (inputs_walk_begin()): 1
 * when the run must stop, 0 to read on with inputs_next(). */
static int walk_frames(struct run *r)
{
	const struct gd_frame_cfg *fc;
	struct gd_walk w;
	struct gd_rec rec;
	int halt = 0, full;

	if (!inputs_walk_begin(&r->ins, &w, &fc))
		return 0;
	full = gd_frame_reads_time(fc, &r->fs);
	while (!halt && gd_walk_next(&w, &rec, full))
		halt = one_frame(r, fc, &rec);
	inputs_walk_end(&r->ins, &w);
	return halt;
}

/* -r on this thread: the records each buffer holds walked in a loop
 * (walk_frames()), inputs_next() for the others (the first, those at a
 * buffer's end, pcapng, libpcap, errors).  The reader's last return, 1
 * when the run stopped early. */
static int run_serial(struct run *r)
{
	const struct gd_frame_cfg *fc;
	struct gd_rec rec;
	int rr;

	for (;;) {
		if (walk_frames(r))
			return 1;
		if ((rr = inputs_next(&r->ins, &rec, &fc, r->errbuf)) != 1)
			return rr;
		if (one_frame(r, fc, &rec))
			return 1;
	}
}

/* -r with -j N: the stages on N threads (parallel.h).  The reader's last
 * return, as the one-thread loop gives it. */
static int run_jobs(struct run *r, unsigned jobs)
{
	struct gd_par_src src = { inputs_next, &r->ins, r->ins.n == 1 && !r->ins.progress &&
				  reader_blocks_ok(&r->rd) ? &r->rd : NULL };
	struct gd_par_run p = { .jobs = jobs, .fs = &r->fs, .out = r->out, .pp = &r->pp };
	int rr = gd_par_run(&p, &src, r->errbuf);

	if (rr != -2)
		return rr;
	r->par_failed = 1; /* a resource error: run_finish() publishes nothing */
	return -1;
}

/* Every frame until the end, -c, an output error or a signal: the
 * reader's last return (0 at the end, -1 on a data error). */
static int run_loop(struct run *r, const struct opts *o)
{
	struct gd_rec rec;
	unsigned jobs;
	int rr;

	if (o->iface) {
		live_pcap = r->rd.pc;
		r->rd.stop = &stop; /* the rings look at it (live.c) */
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
		if (r->rd.lv && r->rd.lv->nsock > 1) /* -j: the workers (live_run.c) */
			return live_run(&r->rd, &r->fc, &r->fs, r->out, &stop, r->errbuf);
		while (!stop && (rr = reader_next(&r->rd, &rec, r->errbuf)) == 1)
			if (one_frame(r, &r->fc, &rec))
				break;
		return rr;
	}
	if ((jobs = file_jobs(o)) > 1)
		return run_jobs(r, jobs);
	return run_serial(r);
}

/* What stopped the tables: "track budget N bytes" or "out of memory". */
static const char *track_limit(const struct run *r, const struct opts *o, char *buf,
			       size_t n)
{
	if (r->trk_oom)
		return "out of memory";
	snprintf(buf, n, "track budget %zu bytes",
		 o->budget ? o->budget : VXGBP_TRACK_BUDGET_DEFAULT);
	return buf;
}

/* Standard error: what the tracker could not hold (the --check report
 * says it itself). */
static void track_warn(const struct run *r, const struct opts *o,
		       const struct vxgbp_track_summary *s, const char *limit)
{
	if (!r->trk || o->check || !s->full)
		return;
	if (s->full & VXGBP_TRACK_FULL_MIRRORS) /* a table of its own, not the budget's */
		fprintf(stderr, "gbpdump: warning: mirror table full: %llu frames (%llu bytes) "
			"through more mirrors not counted per mirror\n",
			(unsigned long long)s->dropped_mirrors,
			(unsigned long long)s->dropped_mirror_bytes);
	if (!(s->full & ~VXGBP_TRACK_FULL_MIRRORS))
		return;
	if (o->stats)
		fprintf(stderr, "gbpdump: warning: %s: tables full: %llu frames not counted per "
			"VNI, %llu frames (%llu bytes) not in the matrix, %llu endpoints not "
			"learned; the summary is incomplete\n", limit,
			(unsigned long long)s->dropped_vnis, (unsigned long long)s->dropped_pairs,
			(unsigned long long)s->dropped_pair_bytes,
			(unsigned long long)s->dropped_endpoints);
	else
		fprintf(stderr, "gbpdump: warning: %s: tables full: %llu endpoints, %llu flows "
			"not tracked; cross-frame findings are incomplete\n", limit,
			(unsigned long long)s->dropped_endpoints,
			(unsigned long long)s->dropped_flows);
}

/* --report FILE, from what the run collected (a read error: rr < 0).
 * 0, or -1 after a message. */
static int write_report(struct run *r, const struct opts *o, const char *limit, int rr)
{
	char rerr[GD_ERRBUF];
	struct report_src src = {
		r->trk, r->chk, &r->groups, o->rfile ? o->rfile : o->iface,
		o->cmdline ? o->cmdline : "", limit, r->policy, rr < 0 ? rerr : NULL,
	};

	memcpy(rerr, r->errbuf, sizeof(rerr));
	if (report_write(r->rep, &src, o->report, r->prot, r->prot_nouns, o->force,
			 r->errbuf) == 0)
		return 0;
	fprintf(stderr, "gbpdump: %s\n", r->errbuf);
	return -1;
}

/* --junit and --sarif FILE from the check's results; rc: the exit status
 * so far, rr < 0: r->errbuf says what stopped the capture.  0, or -1 after
 * a message. */
static int write_ci(struct run *r, const struct opts *o, const struct vxgbp_track_summary *s,
		    int rr, int rc)
{
	char err[GD_ERRBUF];
	struct check_ci_run cr = { o->rfile, o->iface, s, rc, NULL, r->rd.zfmt != GD_Z_NONE };
	int ret = 0;

	if (rr < 0) {
		snprintf(err, sizeof(err), "%s", r->errbuf);
		cr.error = err;
	}
	if (o->junit && check_junit_write(&r->junit, r->chk, &cr, r->errbuf) < 0) {
		fprintf(stderr, "gbpdump: %s\n", r->errbuf);
		cr.exit_code = EXIT_IO;
		ret = -1;
	}
	if (o->sarif && check_sarif_write(&r->sarif, r->chk, &cr, r->errbuf) < 0) {
		fprintf(stderr, "gbpdump: %s\n", r->errbuf);
		ret = -1;
	}
	return ret;
}

/* What a mergeable summary records of this run (merge.h). */
static void summary_run(const struct run *r, const struct opts *o, struct msum_run *m)
{
	*m = (struct msum_run){ o->rfile, r->rd.linktype, r->rd.count, o->profile, o->no_csum,
				o->budget, o->gfile, o->pfile, o->filter,
				o->want_vni ? (int64_t)o->vni : -1,
				o->want_gbp ? (int64_t)o->gbp_id : -1, o->count, NULL,
				o->fabric };
}

/* The summaries, the output flushed, -w closed.  Returns the exit status. */
static int run_finish(struct run *r, const struct opts *o, int rr)
{
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	char lbuf[64];
	const char *limit = track_limit(r, o, lbuf, sizeof(lbuf));
	struct gd_audit audit = { 0 };
	struct msum_run ms;
	int rc = 0, x;

	progress_clear(&r->progress); /* before any other output */
	if (rr < 0) {
		out_flush(r->out);
		fprintf(stderr, "gbpdump: %s\n", r->errbuf);
		rc = r->par_failed ? EXIT_IO : EXIT_DATA;
	}
	/* the capture stops here; counters that do not add up make the run
	 * incomplete, as a data error does (the message comes after them) */
	if (o->iface && !rc && live_check_counts(&r->rd, r->rd.count, r->errbuf) < 0) {
		rc = EXIT_LIVE;
		rr = -1;
	}
	if (r->trk)
		vxgbp_track_summary(r->trk, &s);
	summary_run(r, o, &ms);
	if (rr < 0) { /* the JSON says so, and no verdict is given on part of a capture */
		ms.error = r->errbuf;
		if (r->chk)
			check_set_error(r->chk, rc, r->errbuf);
	}
	if (o->stats && (o->dot ? dot_print(r->trk, r->out, &r->groups, r->policy,
					     o->rfile ? o->rfile : o->iface)
			 : o->json ? merge_stats_run(&ms, r->trk, r->out, &r->groups, r->policy)
			 : stats_print(r->trk, r->out, &r->groups, o->json, r->policy)) < 0) {
		fprintf(stderr, "gbpdump: out of memory\n");
		rc = EXIT_IO;
	}
	if (r->policy && policy_audit(&audit, r->policy, o->pfile, r->trk, &r->groups) < 0) {
		fprintf(stderr, "gbpdump: out of memory\n");
		rc = EXIT_IO;
	} else if (r->policy && r->chk) {
		policy_check(&audit, r->chk);
		check_set_extra(r->chk, policy_check_extra, &audit);
	} else if (r->policy && !o->stats) {
		policy_print(&audit, r->out, o->json, o->verbose);
	}
	if (o->check && (x = o->json ? merge_check_run(&ms, r->trk, r->chk, &s, limit, r->out)
			     : check_report(r->chk, &s, limit, r->out, o->json)) && !rc)
		rc = x;
	/* a failed run (EXIT_IO) publishes no file: run_close() drops them */
	if (o->check && rc != EXIT_IO && write_ci(r, o, &s, rr, rc) < 0)
		rc = EXIT_IO;
	if (r->rep && rc != EXIT_IO && write_report(r, o, limit, rr) < 0)
		rc = EXIT_IO;
	policy_audit_free(&audit);
	if (out_flush(r->out) < 0 && r->out->err != EPIPE) {
		fprintf(stderr, "gbpdump: standard output: %s\n", strerror(r->out->err));
		rc = EXIT_IO;
	}
	track_warn(r, o, &s, limit);
	if (o->wfile) {
		if (rc == EXIT_IO) {
			writer_close(&r->wr, 0, r->errbuf);
			fprintf(stderr, "gbpdump: %s: not written (the run failed)\n", o->wfile);
		} else if (writer_close(&r->wr, 1, r->errbuf) < 0) {
			fprintf(stderr, "gbpdump: %s\n", r->errbuf);
			rc = EXIT_IO;
		} else if (rc == EXIT_DATA) {
			fprintf(stderr, "gbpdump: %s: kept the %llu frames read before the error\n",
				o->wfile, r->fs.matched);
		}
	}
	if (o->iface) /* as tcpdump does, and what the rings tell (live.h) */
		live_print_counts(&r->rd, r->rd.count);
	return rc;
}

static void run_close(struct run *r, const struct opts *o)
{
	free(r->prot);
	free(r->prot_nouns);
	check_ci_discard(&r->junit); /* not written: an error came first */
	check_ci_discard(&r->sarif);
	if (o->wfile && r->wr.f)
		writer_close(&r->wr, 0, r->errbuf);
	if (r->have_prog)
		pcap_freecode(&r->prog);
	if (r->dead)
		pcap_close(r->dead);
	inputs_close(&r->ins);
	if (r->rd_open)
		reader_close(&r->rd);
	if (r->trk) {
		vxgbp_track_fini(r->trk);
		free(r->trk);
	}
	check_free(r->chk);
	policy_free(r->policy);
	report_free(r->rep);
	free(r->out);
	free(r->gstore);
}

/* gbpdump --merge: --groups and --policy as for a run, then merge.c. */
static int run_merge(struct run *r, const struct opts *o)
{
	int rc = open_groups(r, o);

	if (rc != GO_ON)
		return rc;
	if (o->pfile && !(r->policy = policy_load(o->pfile, &r->groups)))
		return EXIT_USAGE;
	return merge_main(o->mfiles, o->nmfiles, o->merge_max ? o->merge_max : MSUM_MAX_DEFAULT,
			  o->json, o->gfile, o->pfile, &r->groups, r->policy);
}

int run_main(struct opts *o)
{
	static struct run run;
	int rc;

	if (o->merge) /* summaries instead of a capture (merge.c) */
		rc = run_merge(&run, o);
	else if ((rc = run_open(&run, o)) == GO_ON)
		rc = run_finish(&run, o, run_loop(&run, o));
	run_close(&run, o);
	return rc;
}
