// SPDX-License-Identifier: BSD-2-Clause
/*
 * options.c - gbpdump's command line (options.h): --help, the options into
 * struct opts, and the combinations refused before anything is opened.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

#include "check.h"
#include "cli.h"
#include "inputs.h"
#include "options.h"
#include "reader.h"

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

/* usage(): the options that choose frames and headers. */
static void usage_select(FILE *f)
{
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
"  --fabric-header gbp|first|innermost\n"
"                  the VXLAN header the analysis (--stats, --check, --policy,\n"
"                  --report, cross-frame findings) follows when a frame has\n"
"                  several, as through a mirror: gbp (default) the first with\n"
"                  G walking inward, else the innermost; first; innermost\n",
		VXGBP_MAX_PORTS);
}

static void usage(FILE *f)
{
	usage_input(f);
	usage_select(f);
	fprintf(f,
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
"  --profile ");
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
	OPT_REPORT, OPT_DOT, OPT_FABRIC,
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

/* --fabric-header MODE, by libvxgbp's names: GO_ON. */
static int parse_fabric(struct opts *o, const char *arg)
{
	int m = vxgbp_fabric_lookup(arg);

	if (m < 0)
		return bad_value("--fabric-header", "gbp, first or innermost", arg);
	o->fabric = (unsigned)m;
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
	case OPT_FABRIC:
		return parse_fabric(o, arg);
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

int opts_parse(int argc, char **argv, struct opts *o)
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
		{ "fabric-header", required_argument, NULL, OPT_FABRIC },
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

void opts_free(struct opts *o)
{
	free(o->filter);
	free(o->cmdline);
	free(o->rargs);
	inputs_list_free(o->rfiles);
}
