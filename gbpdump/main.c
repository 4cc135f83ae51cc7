// SPDX-License-Identifier: BSD-2-Clause
/*
 * gbpdump - read VXLAN Group Policy traffic the way tcpdump reads the rest.
 *
 *   gbpdump -r capture.pcap [options] [BPF expression]
 *   gbpdump -i eth0 [options] [BPF expression]
 *
 * Data flow: reader (fast classic pcap or libpcap) -> BPF filter
 * (pcap_offline_filter on the record in place) -> vxgbp_pkt_parse() ->
 * --gbp/--vni filters -> one consumer: text, --json, --stats or -w.
 * Nothing on the per-frame path allocates.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vxgbp/vxgbp.h>

#include "check.h"
#include "out.h"
#include "print.h"
#include "reader.h"
#include "stats.h"
#include "writer.h"

#define EXIT_DATA 1  /* a data problem: unreadable record, truncated file */
#define EXIT_USAGE 2 /* usage or I/O error */

static volatile sig_atomic_t stop;
static pcap_t *live_pcap;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
	if (live_pcap)
		pcap_breakloop(live_pcap);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: gbpdump [-r FILE | -i IFACE] [options] [BPF expression]\n"
"Print VXLAN and VXLAN Group Policy (draft-smith-vxlan-group-policy) traffic.\n"
"\n"
"Input:\n"
"  -r FILE         read a pcap or pcapng file ('-' for standard input)\n"
"  -i IFACE        capture live on IFACE (libpcap)\n"
"  --libpcap       read classic pcap through libpcap too (the fast reader is\n"
"                  the default; both give the same output)\n"
"Selection:\n"
"  -c N            stop after N matching frames\n"
"  --port N        also decode UDP port N as VXLAN (4789 and 8472 always;\n"
"                  up to %d times)\n"
"  --gbp ID        only frames with the G bit and group ID (decimal or 0x hex)\n"
"  --vni N         only VXLAN frames with VNI N\n"
"  EXPRESSION      a pcap-filter(7) expression on the outer frame\n"
"Output:\n"
"  -n              numeric output (gbpdump never resolves names; accepted for\n"
"                  tcpdump habit)\n"
"  -v              more detail: IP fields, the Linux mark and verdicts, every\n"
"                  finding (without -v only MUST-level findings are shown)\n"
"  -e              print link-level headers (outer and inner)\n"
"  -t, -tt, -tttt  no time stamp / seconds since the epoch / date and time\n"
"  --json          one JSON object per frame (times in UTC)\n"
"  --groups FILE   names for group IDs, 'ID NAME' per line, '#' comments\n"
"  --stats         print only a summary at the end: per VNI, per group, and\n"
"                  the group-to-group matrix\n"
"  --check         conformance report instead of frames: counts per rule\n"
"                  (level, source), then the first occurrences; with --json one\n"
"                  JSON object\n"
"  --profile NAME  rule levels for --check (implies it):\n"
"                  strict (default; the draft and RFC 7348), linux (what a\n"
"                  Linux 6.12 gbp device drops is MUST, what it ignores SHOULD),\n"
"                  vpp (VPP's E and S flag bits allowed)\n"
"  -w FILE         write the matching frames to FILE (classic pcap); never\n"
"                  overwrites the input, nor an existing FILE without --force\n"
"  --force         let -w replace an existing file\n"
"  -h, --help      this text;  --version  the version\n"
"\n"
"Exit status: 0 all frames read; 1 a data problem (an unreadable or truncated\n"
"record: everything before it was processed); 2 a usage or I/O error.\n"
"With --check: 0 pass, 3 warn (SHOULD findings only), 4 fail (a MUST finding);\n"
"1 and 2 as above take precedence.\n",
		VXGBP_MAX_PORTS);
}

static int parse_u32(const char *s, uint32_t max, uint32_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || end == s || *end || x > max || s[0] == '-')
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* Load --groups FILE into g.  0, or -1 after printing an error. */
static int load_groups(struct vxgbp_groups *g, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned long lineno = 0;
	int rc = 0;

	if (!f) {
		fprintf(stderr, "gbpdump: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t col, len = strlen(line);
		int r;

		lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			fprintf(stderr, "gbpdump: %s:%lu: line too long\n", path, lineno);
			rc = -1;
			break;
		}
		r = vxgbp_groups_parse_line(g, line, len, &col);
		if (r == VXGBP_E_SYNTAX) {
			fprintf(stderr, "gbpdump: %s:%lu:%zu: expected 'ID NAME' (ID 0-65535, "
				"NAME up to 31 characters)\n", path, lineno, col + 1);
			rc = -1;
			break;
		}
		if (r < 0) {
			fprintf(stderr, "gbpdump: %s:%lu: %s\n", path, lineno, vxgbp_strerror(r));
			rc = -1;
			break;
		}
	}
	if (!rc && ferror(f)) {
		fprintf(stderr, "gbpdump: %s: read error\n", path);
		rc = -1;
	}
	fclose(f);
	return rc;
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

enum {
	OPT_JSON = 256, OPT_STATS, OPT_GROUPS, OPT_PORT, OPT_GBP, OPT_VNI, OPT_FORCE,
	OPT_VERSION, OPT_LIBPCAP, OPT_CHECK, OPT_PROFILE,
};

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "groups", required_argument, NULL, OPT_GROUPS },
		{ "port", required_argument, NULL, OPT_PORT },
		{ "gbp", required_argument, NULL, OPT_GBP },
		{ "vni", required_argument, NULL, OPT_VNI },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "libpcap", no_argument, NULL, OPT_LIBPCAP },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *rfile = NULL, *iface = NULL, *wfile = NULL, *gfile = NULL;
	char errbuf[GD_ERRBUF] = "", *filter = NULL;
	int json = 0, want_stats = 0, force = 0, tflag = 0, c, rc = 0, rr;
	unsigned read_flags = 0;
	uint32_t gbp_id = 0, vni = 0;
	int want_gbp = 0, want_vni = 0;
	unsigned long long count = 0, matched = 0;
	struct vxgbp_parse_opts popts;
	struct vxgbp_group_name *gstore = NULL;
	struct vxgbp_groups groups;
	struct gd_reader rd;
	struct gd_writer wr;
	struct gd_stats *st = NULL;
	struct gd_print pp;
	struct gd_out *out;
	struct gd_rec rec;
	struct vxgbp_pkt pkt;
	struct bpf_program prog;
	pcap_t *dead = NULL;
	int have_prog = 0, want_check = 0, nomem;
	const char *profile = NULL;
	struct gd_check *chk = NULL;

	vxgbp_parse_opts_init(&popts);
	print_init(&pp);
	vxgbp_groups_init(&groups, NULL, 0);
	memset(&wr, 0, sizeof(wr));

	while ((c = getopt_long(argc, argv, "r:i:c:nvetw:h", lopts, NULL)) != -1) {
		uint32_t v;

		switch (c) {
		case 'r':
			rfile = optarg;
			break;
		case 'i':
			iface = optarg;
			break;
		case 'c':
			if (parse_u32(optarg, UINT32_MAX, &v) || v == 0) {
				fprintf(stderr, "gbpdump: -c: expected a positive count, got '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			count = v;
			break;
		case 'n':
			break;
		case 'v':
			pp.verbose++;
			break;
		case 'e':
			pp.eflag = 1;
			break;
		case 't':
			tflag++;
			break;
		case 'w':
			wfile = optarg;
			break;
		case OPT_JSON:
			json = 1;
			break;
		case OPT_STATS:
			want_stats = 1;
			break;
		case OPT_GROUPS:
			gfile = optarg;
			break;
		case OPT_PORT:
			if (parse_u32(optarg, 65535, &v) || v == 0) {
				fprintf(stderr, "gbpdump: --port: expected 1-65535, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			if (vxgbp_parse_opts_add_port(&popts, (uint16_t)v) < 0) {
				fprintf(stderr, "gbpdump: --port: at most %d extra ports\n",
					VXGBP_MAX_PORTS);
				return EXIT_USAGE;
			}
			break;
		case OPT_GBP:
			if (parse_u32(optarg, 65535, &gbp_id)) {
				fprintf(stderr, "gbpdump: --gbp: expected a group ID 0-65535, got '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			want_gbp = 1;
			break;
		case OPT_VNI:
			if (parse_u32(optarg, VXGBP_VNI_MAX, &vni)) {
				fprintf(stderr, "gbpdump: --vni: expected a VNI 0-16777215, got '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			want_vni = 1;
			break;
		case OPT_FORCE:
			force = 1;
			break;
		case OPT_LIBPCAP:
			read_flags |= GD_READ_LIBPCAP;
			break;
		case OPT_PROFILE:
			profile = optarg;
			/* fall through */
		case OPT_CHECK:
			want_check = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case OPT_VERSION:
			printf("gbpdump (vxgbp) %s, %s\n", VXGBP_VERSION, pcap_lib_version());
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (!rfile == !iface) {
		fprintf(stderr, "gbpdump: give exactly one of -r FILE or -i IFACE "
			"(gbpdump --help)\n");
		return EXIT_USAGE;
	}
	if ((wfile && (json || want_stats)) || (json && want_stats && 0)) {
		fprintf(stderr, "gbpdump: -w writes frames; it does not combine with --json "
			"or --stats\n");
		return EXIT_USAGE;
	}
	if (want_check && (wfile || want_stats)) {
		fprintf(stderr, "gbpdump: --check does not combine with -w or --stats\n");
		return EXIT_USAGE;
	}
	if (want_check && !check_profile_known(profile)) {
		fprintf(stderr, "gbpdump: --profile: unknown profile '%s' (strict, linux, vpp)\n",
			profile);
		return EXIT_USAGE;
	}
	pp.tmode = tflag == 0 ? GD_TIME_LOCAL : tflag == 1 ? GD_TIME_NONE
		   : tflag == 2 ? GD_TIME_EPOCH : GD_TIME_DATE;
	if (optind < argc && !(filter = join_args(argc, argv, optind))) {
		fprintf(stderr, "gbpdump: out of memory\n");
		return EXIT_USAGE;
	}
	if (gfile) {
		if (!(gstore = calloc(65536, sizeof(*gstore)))) {
			fprintf(stderr, "gbpdump: out of memory\n");
			return EXIT_USAGE;
		}
		vxgbp_groups_init(&groups, gstore, 65536);
		if (load_groups(&groups, gfile)) {
			free(gstore);
			free(filter);
			return EXIT_USAGE;
		}
	}
	pp.groups = &groups;

	if ((iface ? reader_open_live(&rd, iface, 262144, errbuf)
		   : reader_open(&rd, rfile, read_flags, errbuf)) < 0) {
		fprintf(stderr, "gbpdump: %s\n", errbuf);
		free(gstore);
		free(filter);
		return EXIT_USAGE;
	}
	popts.linktype = rd.linktype;
	if (filter) {
		if (iface) {
			rr = reader_set_filter(&rd, filter, errbuf);
		} else {
			dead = pcap_open_dead_with_tstamp_precision(reader_dlt(&rd),
					rd.snaplen ? (int)rd.snaplen : 262144,
					PCAP_TSTAMP_PRECISION_NANO);
			rr = dead && pcap_compile(dead, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) == 0
				     ? 0 : -1;
			if (rr)
				snprintf(errbuf, sizeof(errbuf), "filter '%s': %s", filter,
					 dead ? pcap_geterr(dead) : "out of memory");
			have_prog = !rr;
		}
		if (rr) {
			fprintf(stderr, "gbpdump: %s\n", errbuf);
			rc = EXIT_USAGE;
			goto done;
		}
	}
	if (wfile && writer_open(&wr, wfile, rfile, force, rd.linktype, rd.snaplen,
				 rd.nsec_res, errbuf) < 0) {
		fprintf(stderr, "gbpdump: %s\n", errbuf);
		rc = EXIT_USAGE;
		goto done;
	}
	/* --stats prints no findings (and excludes --check): skip verifying
	 * checksums, a third of the per-frame work. */
	if (want_stats)
		popts.flags |= VXGBP_PARSE_NO_CSUM;
	if ((want_stats && !(st = stats_new())) ||
	    (want_check && !(chk = check_new(profile, &nomem)))) {
		fprintf(stderr, "gbpdump: out of memory\n");
		rc = EXIT_USAGE;
		goto done;
	}
	if (!(out = malloc(sizeof(*out)))) {
		fprintf(stderr, "gbpdump: out of memory\n");
		rc = EXIT_USAGE;
		goto done;
	}
	out_init(out, STDOUT_FILENO);
	if (iface) {
		live_pcap = rd.pc;
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
	}

	while (!stop && (rr = reader_next(&rd, &rec, errbuf)) == 1) {
		if (have_prog) {
			struct pcap_pkthdr ph;

			ph.ts.tv_sec = (time_t)rec.sec;
			ph.ts.tv_usec = (suseconds_t)rec.nsec;
			ph.caplen = rec.caplen;
			ph.len = rec.wirelen;
			if (!pcap_offline_filter(&prog, &ph, rec.data))
				continue;
		}
		vxgbp_pkt_parse(&pkt, rec.data, rec.caplen, rec.wirelen, &popts);
		if (want_gbp && (!(pkt.have & VXGBP_HAVE_VXLAN) || !vxgbp_hdr_has_gbp(&pkt.vx) ||
				 pkt.vx.group != gbp_id))
			continue;
		if (want_vni && (!(pkt.have & VXGBP_HAVE_VXLAN) || pkt.vx.vni != vni))
			continue;
		matched++;
		if (wfile)
			writer_add(&wr, &rec);
		else if (st)
			stats_add(st, &rec, &pkt);
		else if (chk)
			check_frame(chk, &rec, &pkt);
		else if (json)
			print_json(out, &pp, &rec, &pkt);
		else
			print_text(out, &pp, &rec, &pkt);
		if (out->err || wr.failed)
			break;
		if (count && matched >= count)
			break;
	}
	if (rr < 0) {
		out_flush(out);
		fprintf(stderr, "gbpdump: %s\n", errbuf);
		rc = EXIT_DATA;
	}
	if (st && stats_print(st, out, &groups, json) < 0) {
		fprintf(stderr, "gbpdump: out of memory: the --stats tables are incomplete\n");
		rc = EXIT_USAGE;
	}
	if (chk && (rr = check_report(chk, out, json)) && !rc)
		rc = rr;
	if (out_flush(out) < 0 && out->err != EPIPE) {
		fprintf(stderr, "gbpdump: standard output: %s\n", strerror(out->err));
		rc = EXIT_USAGE;
	}
	free(out);
	if (wfile) {
		if (writer_close(&wr, 1, errbuf) < 0) {
			fprintf(stderr, "gbpdump: %s\n", errbuf);
			rc = EXIT_USAGE;
		} else if (rc == EXIT_DATA) {
			fprintf(stderr, "gbpdump: %s: kept the %llu frames read before the error\n",
				wfile, matched);
		}
	}
	if (iface && !json && !st) {
		struct pcap_stat ps;

		if (pcap_stats(rd.pc, &ps) == 0)
			fprintf(stderr, "%llu frames matched, %u received by filter, "
				"%u dropped by kernel\n", matched, ps.ps_recv, ps.ps_drop);
	}
done:
	if (wfile && wr.f)
		writer_close(&wr, 0, errbuf);
	if (have_prog)
		pcap_freecode(&prog);
	if (dead)
		pcap_close(dead);
	reader_close(&rd);
	stats_free(st);
	check_free(chk);
	free(gstore);
	free(filter);
	return rc;
}
