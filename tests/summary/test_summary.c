// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_summary.c - VXGBP_PARSE_SUMMARY against the full parse, on every
 * record of the captures named on the command line:
 *   - the summary parse, into a struct full of garbage, gives every field
 *     vxgbp.h says it fills as the full parse does (and the same result);
 *   - two trackers (VXGBP_TRACK_MATRIX, what gbpdump --stats uses), one fed
 *     the full parses and one the summary parses, end with the same
 *     summary, VNI, group and matrix tables.
 * Fails when no record took the summary's one-pass path (nothing tested).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>
#include <vxgbp/vxgbp.h>

static unsigned long frames, fast, fails;

static void fail(const char *file, unsigned long rec, const char *what)
{
	if (++fails <= 20)
		fprintf(stderr, "%s: record %lu: %s differs\n", file, rec, what);
}

/* The fields VXGBP_PARSE_SUMMARY claims (vxgbp.h), p full, q summary. */
static void compare(const char *file, unsigned long rec, const struct vxgbp_pkt *p,
		    const struct vxgbp_pkt *q)
{
	const struct vxgbp_l2 *a2 = &p->inner.l2, *b2 = &q->inner.l2;
	const struct vxgbp_l3 *a3 = &p->inner.l3, *b3 = &q->inner.l3;

	if (q->caplen != p->caplen || q->wirelen != p->wirelen)
		fail(file, rec, "caplen/wirelen");
	if (q->have != p->have || q->err != p->err || q->err_layer != p->err_layer)
		fail(file, rec, "have/err/err_layer");
	if (q->vxlan_off != p->vxlan_off || q->vx_kind != p->vx_kind ||
	    q->vx.flags != p->vx.flags || q->vx.group != p->vx.group ||
	    q->vx.vni != p->vx.vni || q->vx.rsvd != p->vx.rsvd)
		fail(file, rec, "the VXLAN header");
	if (q->n_encap != p->n_encap || q->n_nested != p->n_nested ||
	    q->has_cooked != p->has_cooked)
		fail(file, rec, "n_encap/n_nested/has_cooked");
	if (b2->off != a2->off || b2->src != a2->src || b2->dst != a2->dst ||
	    b2->ethertype != a2->ethertype || b2->n_vlan != a2->n_vlan)
		fail(file, rec, "inner.l2");
	if (b3->off != a3->off || b3->version != a3->version || b3->src != a3->src ||
	    b3->dst != a3->dst || b3->arp_spa != a3->arp_spa || b3->arp_tpa != a3->arp_tpa)
		fail(file, rec, "inner.l3");
}

static void *zalloc(void *ctx, size_t size)
{
	(void)ctx;
	return calloc(1, size);
}

static void zfree(void *ctx, void *ptr, size_t size)
{
	(void)ctx;
	(void)size;
	free(ptr);
}

static struct vxgbp_track *tracker(void)
{
	struct vxgbp_track_opts to = { VXGBP_TRACK_MATRIX, 0, zalloc, zfree, NULL };
	struct vxgbp_track *t = malloc(vxgbp_track_size());

	if (!t || vxgbp_track_init(t, &to)) {
		fprintf(stderr, "unit_summary: cannot start a tracker\n");
		exit(2);
	}
	return t;
}

/* The two trackers' tables, element by element. */
static void same_tables(const char *file, const struct vxgbp_track *a,
			const struct vxgbp_track *b)
{
	struct vxgbp_track_summary sa, sb;
	size_t n;

	vxgbp_track_summary(a, &sa);
	vxgbp_track_summary(b, &sb);
	if (memcmp(&sa, &sb, sizeof(sa))) {
		fail(file, 0, "the tracker's summary");
		return;
	}
	n = sa.vnis + sa.groups + sa.pairs + 1;
	{
		struct vxgbp_track_count *ca = calloc(n, sizeof(*ca)), *cb = calloc(n, sizeof(*cb));
		struct vxgbp_track_cell *ma = calloc(n, sizeof(*ma)), *mb = calloc(n, sizeof(*mb));
		int x, y;

		if (!ca || !cb || !ma || !mb)
			exit(2);
		x = vxgbp_track_vnis(a, ca, n);
		y = vxgbp_track_vnis(b, cb, n);
		if (x != y || (x > 0 && memcmp(ca, cb, (size_t)x * sizeof(*ca))))
			fail(file, 0, "the VNI table");
		x = vxgbp_track_groups(a, ca, n);
		y = vxgbp_track_groups(b, cb, n);
		if (x != y || (x > 0 && memcmp(ca, cb, (size_t)x * sizeof(*ca))))
			fail(file, 0, "the group table");
		x = vxgbp_track_matrix(a, ma, n);
		y = vxgbp_track_matrix(b, mb, n);
		if (x != y || (x > 0 && memcmp(ma, mb, (size_t)x * sizeof(*ma))))
			fail(file, 0, "the matrix");
		free(ca);
		free(cb);
		free(ma);
		free(mb);
	}
}

static int one_file(const char *file)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc = pcap_open_offline(file, errbuf);
	struct pcap_pkthdr *h;
	const u_char *d;
	struct vxgbp_parse_opts of, os;
	struct vxgbp_pkt *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));
	struct vxgbp_track *ta = tracker(), *tb = tracker();
	unsigned long rec = 0;

	if (!pc || !p || !q) {
		fprintf(stderr, "unit_summary: %s: %s\n", file, pc ? "out of memory" : errbuf);
		return 2;
	}
	vxgbp_parse_opts_init(&of);
	of.linktype = pcap_datalink(pc);
	os = of;
	os.flags |= VXGBP_PARSE_SUMMARY;
	while (pcap_next_ex(pc, &h, &d) == 1) {
		int r, s;

		rec++;
		frames++;
		r = vxgbp_pkt_parse(p, d, h->caplen, h->len, &of);
		memset(q, 0xa5, sizeof(*q));
		s = vxgbp_pkt_parse(q, d, h->caplen, h->len, &os);
		if (r != s)
			fail(file, rec, "the result");
		compare(file, rec, p, q);
		/* the full parse always initialises err_off; the summary's
		 * one-pass path leaves it alone */
		fast += q->err_off == (int)0xa5a5a5a5;
		vxgbp_track_frame(ta, p, rec, NULL);
		vxgbp_track_frame(tb, q, rec, NULL);
	}
	same_tables(file, ta, tb);
	vxgbp_track_fini(ta);
	vxgbp_track_fini(tb);
	free(ta);
	free(tb);
	free(p);
	free(q);
	pcap_close(pc);
	return 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (one_file(argv[i]))
			return 2;
	printf("unit_summary: %d captures, %lu records, %lu by the summary's one-pass path, "
	       "%lu differences\n", argc - 1, frames, fast, fails);
	if (!fast) {
		fprintf(stderr, "unit_summary: no record took the summary's one-pass path\n");
		return 1;
	}
	return fails ? 1 : 0;
}
