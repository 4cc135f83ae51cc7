// SPDX-License-Identifier: BSD-2-Clause
/*
 * gbpdump - read VXLAN Group Policy traffic the way tcpdump reads the rest.
 *
 *   gbpdump -r capture.pcap [options] [BPF expression]
 *   gbpdump -i eth0 [options] [BPF expression]
 *
 * Data flow: reader (fast classic pcap or libpcap) -> the frame stages of
 * frame.h: parse (BPF filter on the record in place, vxgbp_pkt_parse(),
 * --gbp/--vni filters), state (libvxgbp's cross-frame tracker when the run
 * needs it, --check, --report, -w), emit (text or --json).  Nothing on the
 * per-frame path allocates.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "check.h"
#include "check_ci.h"
#include "cli.h"
#include "filter.h"
#include "frame.h"
#include "inputs.h"
#include "live.h"
#include "out.h"
#include "parallel.h"
#include "policy.h"
#include "print.h"
#include "progress.h"
#include "reader.h"
#include "report.h"
#include "lines.h"
#include "merge.h"
#include "stats.h"
#include "track_memory.h"
#include "writer.h"

#define EXIT_DATA 1  /* a data problem: unreadable record, truncated file */
#define EXIT_USAGE 2 /* a usage error */
#define EXIT_IO 2    /* an I/O or resource error (out of memory) */
#define GO_ON (-1)   /* option parsing: no reason to exit */

static volatile sig_atomic_t stop;
static pcap_t *live_pcap;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
	if (live_pcap)
		pcap_breakloop(live_pcap);
}

/* usage(): its first part, the input options. */
static void usage_input(FILE *f)
{
	fputs(
"Usage: gbpdump [-r FILE | -i IFACE] [options] [BPF expression]\n"
"       gbpdump --merge [--json] [--groups FILE] [--policy FILE]\n"
"               [--merge-max-size BYTES] SUMMARY...\n"
"Print VXLAN and VXLAN Group Policy (draft-smith-vxlan-group-policy) traffic.\n"
"\n"
"Input:\n"
"  -r FILE         read a pcap or pcapng file ('-' for standard input), also\n"
"                  gzip, zstd or xz compressed (told by its first bytes);\n"
"                  several -r, or a directory (its *.pcap, *.pcapng, *.cap\n"
"                  files by name), read as one capture in the order given\n"
"  -i IFACE        capture live on IFACE: a TPACKET_V3 ring per worker, the\n"
"                  BPF expression run in the kernel (docs/live.md)\n"
"  -B KIB, --ring-size SIZE\n"
"                  live: each worker's ring, in KiB as tcpdump's -B, or in\n"
"                  bytes with k, M, G suffixes; default 32M\n"
"  -j N, --jobs N  N worker threads; default: the CPUs available.  -r: the\n"
"                  capture read in batches that they parse and print, output\n"
"                  and results exactly as with -j 1 (docs/parallel.md); live:\n"
"                  N sockets sharing the frames by flow hash (PACKET_FANOUT)\n"
"  --libpcap       read classic pcap through libpcap too (the fast reader is\n"
"                  the default; both give the same output); with -i capture\n"
"                  through libpcap (one worker)\n", f);
}

/* usage(): --profile's values from libvxgbp's table, "strict|linux|..."
 * (what the bash completion offers), then one line each. */
static void usage_profiles(FILE *f)
{
	const struct vxgbp_profile_info *pi;

	for (unsigned i = 0; (pi = vxgbp_profile_get(i)); i++)
		fprintf(f, "%s%s", i ? "|" : "", pi->name);
	fputs("\n                  rule levels for --check (implies it):\n", f);
	for (unsigned i = 0; (pi = vxgbp_profile_get(i)); i++)
		fprintf(f, "                  %-8s %s\n", pi->name, pi->text);
}

/* "strict, linux, vpp, offload": the profiles, for an error message. */
static void profile_names(char *buf, size_t n)
{
	const struct vxgbp_profile_info *pi;
	size_t k = 0;

	buf[0] = '\0';
	for (unsigned i = 0; (pi = vxgbp_profile_get(i)) && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", pi->name);
}

static void usage(FILE *f)
{
	usage_input(f);
	fprintf(f,
"Selection:\n"
"  -c N            stop after N matching frames\n"
"  --port N        also decode UDP destination port N as VXLAN, at every\n"
"                  layer (4789 and 8472 always; up to %d times)\n"
"  --gbp ID        only frames with a VXLAN header, the first or a nested\n"
"                  one, with the G bit and group ID (decimal or 0x hex)\n"
"  --vni N         only frames with a VXLAN header of VNI N (any layer);\n"
"                  with --gbp, one header must match both\n"
"  EXPRESSION      a pcap-filter(7) expression on the outer frame\n"
"Output:\n"
"  -n              numeric output (gbpdump never resolves names; accepted for\n"
"                  tcpdump habit)\n"
"  -v              more detail: IP fields, the Linux mark and verdicts, every\n"
"                  finding, cross-frame ones included (without -v only\n"
"                  MUST-level findings of the frame itself are shown)\n"
"  -e              print link-level headers (outer and inner)\n"
"  -t, -tt, -tttt  no time stamp / seconds since the epoch / date and time\n"
"  --json          one JSON object per frame (times in UTC); its findings\n"
"                  include the cross-frame rules seen on that frame\n"
"  --groups FILE   names for group IDs, 'ID NAME' per line, '#' comments\n"
"  --policy FILE   audit the flows against a group policy (docs/policy.md):\n"
"                  every flow it denies and a summary instead of frames (with\n"
"                  --json one object); with --check the rules policy.denied and\n"
"                  policy.bypassed (A set on a denied flow); with --stats each\n"
"                  matrix cell's verdict (allow, deny, some)\n"
"  --stats         print only a summary at the end: per VNI, per group, and\n"
"                  the group-to-group matrix\n"
"  --dot           with --stats: the group graph in Graphviz DOT instead\n"
"  --report FILE   write an HTML report to FILE (one self-contained page: the\n"
"                  matrix as a heat map, the group graph, per-VNI and per-group\n"
"                  tables, findings over time and per rule, Linux verdicts);\n"
"                  alone it prints nothing on standard output, with --stats or\n"
"                  --check those print as usual; --force to replace FILE\n"
"  --check         conformance report instead of frames: counts per rule\n"
"                  (level, source), then the first occurrences; with --json one\n"
"                  JSON object\n"
"  --merge SUMMARY...  the summaries of --stats/--check --json, in capture order,\n"
"                  as one run over all their captures prints (docs/merge.md)\n"
"  --merge-max-size BYTES\n"
"                  refuse a summary larger than this (k, M, G; default 1G)\n"
"  --junit FILE    also write the --check results (implies it) to FILE as JUnit\n"
"                  XML: a test case per rule, failed by MUST or SHOULD findings\n"
"  --sarif FILE    also as SARIF 2.1.0: a result per occurrence listed, the\n"
"                  frame's record in the capture as its region; neither\n"
"                  overwrites the input, nor an existing FILE without --force\n"
"  --profile ",
		VXGBP_MAX_PORTS);
	usage_profiles(f);
	fprintf(f,
"  --no-checksums  verify no IP or UDP checksum (tshark's default); --check\n"
"                  then judges no checksum rule\n"
"  --track-budget BYTES\n"
"                  most memory for the cross-frame tables (endpoints, flows,\n"
"                  the matrix) of --check, --stats, --json and -v; suffixes\n"
"                  k, M, G (1024-based); default 256M.  When they are full,\n"
"                  new keys are not tracked and a warning says how many\n"
"  -w FILE         write the matching frames to FILE (classic pcap; '-':\n"
"                  standard output); never overwrites the input, nor an\n"
"                  existing FILE without --force\n"
"  --force         let -w, --report, --junit or --sarif replace an existing file\n"
"  -q, --quiet     no progress line (shown on standard error when it is a\n"
"                  terminal, while a file is read for --stats, --check, -w,\n"
"                  or with standard output not a terminal)\n"
"  -h, --help      this text;  --version  the version\n"
"\n"
"Exit status: 0 all frames read; 1 a data problem (an unreadable or truncated\n"
"record: everything before it was processed); 2 a usage, I/O or resource\n"
"error (out of memory).\n"
"With --check: 0 pass, 3 warn (SHOULD findings only), 4 fail (a MUST finding);\n"
"1 and 2 as above take precedence, and the verdict is then ERROR.\n"
"A run that fails (an I/O error, out of memory, a signal) puts no output file\n"
"in place and leaves no temporary file; -w keeps the frames read before a data\n"
"problem (1), as tcpdump does.\n");
}

/* ---- options ---- */

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

static int parse_u32(const char *s, uint32_t max, uint32_t *v)
{
	unsigned long long x;

	if (cli_parse_num(s, max, &x))
		return -1;
	*v = (uint32_t)x;
	return 0;
}

enum {
	OPT_JSON = 256, OPT_STATS, OPT_GROUPS, OPT_PORT, OPT_GBP, OPT_VNI, OPT_FORCE,
	OPT_VERSION, OPT_LIBPCAP, OPT_CHECK, OPT_PROFILE, OPT_BUDGET, OPT_NO_CSUM,
	OPT_REPORT, OPT_DOT,
};

enum { OPT_POLICY = 0x1000 }; /* --policy FILE (policy.c) */
enum { OPT_JUNIT = 0x1100, OPT_SARIF }; /* --junit, --sarif FILE (check_ci.c) */
enum { OPT_RING = 0x1200 }; /* --ring-size SIZE (live.c) */
enum { OPT_MERGE = 0x1300, OPT_MERGE_MAX }; /* --merge FILE..., --merge-max-size (merge.c) */

static int bad_value(const char *opt, const char *want, const char *got)
{
	fprintf(stderr, "gbpdump: %s: expected %s, got '%s'\n", opt, want, got);
	return EXIT_USAGE;
}

/* The options with a number: GO_ON, or the exit status. */
static int parse_num_opt(struct opts *o, int c, const char *arg)
{
	uint32_t v;

	switch (c) {
	case 'c':
		if (parse_u32(arg, UINT32_MAX, &v) || v == 0)
			return bad_value("-c", "a positive count", arg);
		o->count = v;
		return GO_ON;
	case OPT_PORT:
		if (parse_u32(arg, 65535, &v) || v == 0)
			return bad_value("--port", "1-65535", arg);
		if (vxgbp_parse_opts_add_port(&o->popts, (uint16_t)v) < 0) {
			fprintf(stderr, "gbpdump: --port: at most %d extra ports\n",
				VXGBP_MAX_PORTS);
			return EXIT_USAGE;
		}
		return GO_ON;
	case OPT_GBP:
		if (parse_u32(arg, 65535, &o->gbp_id))
			return bad_value("--gbp", "a group ID 0-65535", arg);
		o->want_gbp = 1;
		return GO_ON;
	case OPT_VNI:
		if (parse_u32(arg, VXGBP_VNI_MAX, &o->vni))
			return bad_value("--vni", "a VNI 0-16777215", arg);
		o->want_vni = 1;
		return GO_ON;
	case OPT_MERGE_MAX:
		if (cli_parse_size(arg, &o->merge_max) || !o->merge_max)
			return bad_value("--merge-max-size", "a positive size in bytes (k, M, G "
					 "suffixes)", arg);
		return GO_ON;
	default: /* OPT_BUDGET */
		if (cli_parse_size(arg, &o->budget))
			return bad_value("--track-budget", "a size in bytes (k, M, G suffixes)",
					 arg);
		o->budget_arg = arg;
		return GO_ON;
	}
}

/* An option that names one file: a second one is a mistake, not an
 * override.  GO_ON, or EXIT_USAGE. */
static int set_once(const char **slot, const char *arg, const char *name)
{
	if (*slot) {
		fprintf(stderr, "gbpdump: %s given twice ('%s' and '%s')\n", name, *slot, arg);
		return EXIT_USAGE;
	}
	*slot = arg;
	return GO_ON;
}

/* --report FILE, --dot, --merge: GO_ON. */
static int parse_report_opt(struct opts *o, int c, const char *arg)
{
	if (c == OPT_REPORT)
		return set_once(&o->report, arg, "--report");
	else if (c == OPT_MERGE)
		o->merge = 1;
	else
		o->dot = 1;
	return GO_ON;
}

/* One more -r: GO_ON, or EXIT_IO. */
static int add_rfile(struct opts *o, const char *arg)
{
	const char **v = realloc(o->rargs, (o->n_rargs + 1) * sizeof(*v));

	if (!v) {
		fprintf(stderr, "gbpdump: out of memory\n");
		return EXIT_IO;
	}
	o->rargs = v;
	v[o->n_rargs++] = arg;
	o->rfile = o->rargs[0];
	return GO_ON;
}

/* -i IFACE, -B KIB, -j N, --ring-size SIZE: GO_ON, or EXIT_USAGE. */
static int parse_live_opt(struct opts *o, int c, const char *arg)
{
	if (c == 'i') {
		o->iface = arg;
		return GO_ON;
	}
	return live_opt(&o->live, c == OPT_RING ? 'R' : c, arg) ? EXIT_USAGE : GO_ON;
}

/* --version: ours and libpcap's.  0. */
/* After --help or --version: 0, or EXIT_IO when standard output could not
 * take it (a full disk, /dev/full). */
static int stdout_done(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	fprintf(stderr, "gbpdump: standard output: %s\n", strerror(errno));
	return EXIT_IO;
}

static int print_version(void)
{
	printf("gbpdump (vxgbp) %s, %s\n", VXGBP_VERSION, pcap_lib_version());
	return stdout_done();
}


/* One option: GO_ON, or the exit status. */
static int parse_opt(struct opts *o, int c, const char *arg)
{
	switch (c) {
	case 'r':
		return add_rfile(o, arg);
	case 'i':
	case 'B':
	case 'j':
	case OPT_RING:
		return parse_live_opt(o, c, arg);
	case 'n':
		break;
	case 'v':
		o->verbose++;
		break;
	case 'e':
		o->eflag = 1;
		break;
	case 'q':
		o->quiet = 1;
		break;
	case 't':
		o->tflag++;
		break;
	case 'w':
		return set_once(&o->wfile, arg, "-w");
	case OPT_JSON:
		o->json = 1;
		break;
	case OPT_STATS:
		o->stats = 1;
		break;
	case OPT_GROUPS:
		return set_once(&o->gfile, arg, "--groups");
	case OPT_POLICY:
		return set_once(&o->pfile, arg, "--policy");
	case OPT_JUNIT:
	case OPT_SARIF:
		o->check = 1;
		return set_once(c == OPT_JUNIT ? &o->junit : &o->sarif, arg,
				c == OPT_JUNIT ? "--junit" : "--sarif");
	case OPT_FORCE:
		o->force = 1;
		break;
	case OPT_LIBPCAP:
		o->read_flags |= GD_READ_LIBPCAP;
		break;
	case OPT_NO_CSUM:
		o->no_csum = 1;
		break;
	case OPT_REPORT:
	case OPT_DOT:
	case OPT_MERGE:
		return parse_report_opt(o, c, arg);
	case OPT_PROFILE:
		o->profile = arg;
		/* fall through */
	case OPT_CHECK:
		o->check = 1;
		break;
	case 'h':
		usage(stdout);
		return stdout_done();
	case OPT_VERSION:
		return print_version();
	case 'c':
	case OPT_PORT:
	case OPT_GBP:
	case OPT_VNI:
	case OPT_BUDGET:
	case OPT_MERGE_MAX:
		return parse_num_opt(o, c, arg);
	default:
		usage(stderr);
		return EXIT_USAGE;
	}
	return GO_ON;
}

/* --junit and --sarif name files: not standard output (it has the
 * report), not the same as each other or --report.  GO_ON or EXIT_USAGE. */
static int ci_names(const struct opts *o)
{
	const char *n[] = { o->junit, o->sarif, o->report };
	static const char *const opt[] = { "--junit", "--sarif", "--report" };

	for (int i = 0; i < 2; i++) {
		if (n[i] && !strcmp(n[i], "-")) {
			fprintf(stderr, "gbpdump: %s -: standard output has the --check report; "
				"give a file name\n", opt[i]);
			return EXIT_USAGE;
		}
		for (int j = i + 1; j < 3; j++)
			if (n[i] && n[j] && !strcmp(n[i], n[j])) {
				fprintf(stderr, "gbpdump: %s and %s name the same file: %s\n",
					opt[i], opt[j], n[i]);
				return EXIT_USAGE;
			}
	}
	return GO_ON;
}

/* Options that do not go together: GO_ON, or EXIT_USAGE. */
static int check_combos(const struct opts *o)
{
	if (o->merge && (o->rfile || o->iface || o->wfile || o->report || o->dot || o->junit ||
			 o->sarif)) {
		fprintf(stderr, "gbpdump: --merge reads summaries: it does not combine with -r, "
			"-i, -w, --report, --dot, --junit or --sarif\n");
		return EXIT_USAGE;
	}
	if (o->merge)
		return GO_ON;
	if (o->merge_max) {
		fprintf(stderr, "gbpdump: --merge-max-size goes with --merge\n");
		return EXIT_USAGE;
	}
	if (!o->rfile == !o->iface) {
		fprintf(stderr, "gbpdump: give exactly one of -r FILE or -i IFACE "
			"(gbpdump --help)\n");
		return EXIT_USAGE;
	}
	if (o->wfile && (o->json || o->stats)) {
		fprintf(stderr, "gbpdump: -w writes frames; it does not combine with --json "
			"or --stats\n");
		return EXIT_USAGE;
	}
	if (o->pfile && o->wfile) {
		fprintf(stderr, "gbpdump: --policy audits flows; it does not combine with -w\n");
		return EXIT_USAGE;
	}
	if (o->check && (o->wfile || o->stats)) {
		fprintf(stderr, "gbpdump: --check does not combine with -w or --stats\n");
		return EXIT_USAGE;
	}
	if (o->dot && (!o->stats || o->json)) {
		fprintf(stderr, "gbpdump: --dot goes with --stats (and not --json)\n");
		return EXIT_USAGE;
	}
	if (o->report && (o->wfile || (o->json && !o->stats && !o->check) ||
			  (!strcmp(o->report, "-") && (o->stats || o->check)))) {
		fprintf(stderr, "gbpdump: --report does not combine with -w, nor --json without "
			"--stats or --check, nor (as -) with --stats or --check\n");
		return EXIT_USAGE;
	}
	if (ci_names(o) != GO_ON)
		return EXIT_USAGE;
	if (o->check && !check_profile_known(o->profile)) {
		char names[128];

		profile_names(names, sizeof(names));
		fprintf(stderr, "gbpdump: --profile: unknown profile '%s' (%s)\n", o->profile,
			names);
		return EXIT_USAGE;
	}
	return GO_ON;
}

/* Join argv[i..] into one filter expression. */
static char *join_args(int argc, char **argv, int i)
{
	size_t n = 1;
	char *s;

	for (int k = i; k < argc; k++)
		n += strlen(argv[k]) + 1;
	if (!(s = calloc(1, n)))
		return NULL;
	for (int k = i; k < argc; k++) {
		if (k > i)
			strcat(s, " ");
		strcat(s, argv[k]);
	}
	return s;
}

/* Is a an abbreviation of --report (getopt_long takes any unique one)? */
static int is_report_opt(const char *a)
{
	size_t n = strcspn(a, "=");

	return n >= 3 && n <= 8 && !strncmp(a, "--report", n);
}

/* -j N, -jN, --jobs N, --jobs=N (or an abbreviation): how many threads
 * made the results, not part of them.  2: the value is the next argument,
 * 1: in this one, 0: not -j. */
static int is_jobs_opt(const char *a)
{
	size_t n = strcspn(a, "=");

	if (!strncmp(a, "-j", 2))
		return a[2] ? 1 : 2;
	if (n >= 4 && n <= 6 && !strncmp(a, "--jobs", n))
		return a[n] ? 1 : 2;
	return 0;
}

/* argv[1..] as the report's header shows it: joined by spaces, without
 * --report FILE (where the report is written is not part of it) and -j N
 * (the report is the same with any). */
static char *cmdline_join(int argc, char **argv)
{
	size_t n = 1;
	char *s;

	for (int k = 1; k < argc; k++)
		n += strlen(argv[k]) + 1;
	if (!(s = calloc(1, n)))
		return NULL;
	for (int k = 1; k < argc; k++) {
		if (is_report_opt(argv[k])) {
			k += !strchr(argv[k], '=');
			continue;
		}
		if (is_jobs_opt(argv[k])) {
			k += is_jobs_opt(argv[k]) == 2;
			continue;
		}
		if (*s)
			strcat(s, " ");
		strcat(s, argv[k]);
	}
	return s;
}

/* The command line into o: GO_ON, or the exit status. */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "groups", required_argument, NULL, OPT_GROUPS },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "junit", required_argument, NULL, OPT_JUNIT },
		{ "sarif", required_argument, NULL, OPT_SARIF },
		{ "port", required_argument, NULL, OPT_PORT },
		{ "gbp", required_argument, NULL, OPT_GBP },
		{ "vni", required_argument, NULL, OPT_VNI },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "libpcap", no_argument, NULL, OPT_LIBPCAP },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "track-budget", required_argument, NULL, OPT_BUDGET },
		{ "no-checksums", no_argument, NULL, OPT_NO_CSUM },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "dot", no_argument, NULL, OPT_DOT },
		{ "ring-size", required_argument, NULL, OPT_RING },
		{ "jobs", required_argument, NULL, 'j' },
		{ "merge", no_argument, NULL, OPT_MERGE },
		{ "merge-max-size", required_argument, NULL, OPT_MERGE_MAX },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	memset(o, 0, sizeof(*o));
	vxgbp_parse_opts_init(&o->popts);
	while ((c = getopt_long(argc, argv, "r:i:c:nvetw:hqB:j:", lopts, NULL)) != -1)
		if ((rc = parse_opt(o, c, optarg)) != GO_ON)
			return rc;
	if ((rc = check_combos(o)) != GO_ON)
		return rc;
	if (o->merge) { /* the summaries, in capture order (merge.c) */
		o->mfiles = argv + optind;
		o->nmfiles = argc - optind;
		return GO_ON;
	}
	if ((optind < argc && !(o->filter = join_args(argc, argv, optind))) ||
	    (o->report && !(o->cmdline = cmdline_join(argc, argv)))) {
		fprintf(stderr, "gbpdump: out of memory\n");
		return EXIT_IO;
	}
	return GO_ON;
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
	struct vxgbp_track_opts to = { sizeof(to), track_modes(o), o->budget, trk_zalloc,
				       trk_free, r };
	int e;

	if (o->pfile) /* --policy: the flows; the audit alone needs nothing else */
		to.what = (o->check || o->stats || o->report ? to.what : 0) | VXGBP_TRACK_FLOWS;
	if (o->check && o->json) /* the summary's first sightings (merge.h) */
		to.what |= VXGBP_TRACK_FIRSTS;
	if ((o->check || o->report) && !(r->chk = check_new(o->profile, o->no_csum))) {
		fprintf(stderr, "gbpdump: out of memory\n");
		return EXIT_IO;
	}
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
		if ((rr = inputs_next(&r->ins, &rec, &fc, NULL, r->errbuf)) != 1)
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
				o->want_gbp ? (int64_t)o->gbp_id : -1, o->count, NULL };
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

int main(int argc, char **argv)
{
	static struct run run;
	struct opts o;
	int rc;

	if ((rc = parse_args(argc, argv, &o)) != GO_ON) {
		free(o.filter);
		free(o.cmdline);
		free(o.rargs);
		return rc;
	}
	if (o.merge) /* summaries instead of a capture (merge.c) */
		rc = run_merge(&run, &o);
	else if ((rc = run_open(&run, &o)) == GO_ON)
		rc = run_finish(&run, &o, run_loop(&run, &o));
	run_close(&run, &o);
	free(o.filter);
	free(o.cmdline);
	free(o.rargs);
	inputs_list_free(o.rfiles);
	return rc;
}
