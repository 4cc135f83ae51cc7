// SPDX-License-Identifier: BSD-2-Clause
/*
 * seedgen.c - seed corpora for the fuzz harnesses, made from fixtures/:
 *
 *   seedgen OUTDIR FIXTURE...
 *
 * OUTDIR/reader/  every fixture file whole (pcap, pcapng);
 * OUTDIR/pkt/     every record of every classic pcap fixture, behind the
 *                 harness's option byte (Ethernet, checksums on);
 * OUTDIR/hdr/     the 8 bytes at each record's VXLAN header;
 * OUTDIR/groups/  every text fixture (group-name files);
 * OUTDIR/cipso/   CIPSO and CALIPSO options made with libvxgbp's builders,
 *                 plus any options found in the fixtures' frames.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

static const char *outdir;
static unsigned seq;

static int put(const char *sub, uint8_t pre, int use_pre, const void *b, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/seed-%05u", outdir, sub, seq++);
	if (!(f = fopen(path, "wb")))
		return -1;
	if (use_pre)
		fputc(pre, f);
	fwrite(b, 1, n, f);
	return fclose(f);
}

static uint32_t rd32(const uint8_t *b, int sw)
{
	uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
		     (uint32_t)b[3] << 24;
	return sw ? (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24) : v;
}

static void frames(const uint8_t *b, size_t n)
{
	struct vxgbp_parse_opts o;
	int sw;
	size_t at = 24;

	if (n < 24)
		return;
	if (rd32(b, 0) == 0xa1b2c3d4u || rd32(b, 0) == 0xa1b23c4du)
		sw = 0;
	else if (rd32(b, 1) == 0xa1b2c3d4u || rd32(b, 1) == 0xa1b23c4du)
		sw = 1;
	else
		return;
	vxgbp_parse_opts_init(&o);
	o.linktype = (int)(rd32(b + 20, sw) & 0xffff);
	while (at + 16 <= n) {
		uint32_t cl = rd32(b + at + 8, sw);
		struct vxgbp_pkt p = { .size = sizeof(p) };
		const uint8_t *fr = b + at + 16;

		if (cl > n - at - 16)
			break;
		put("pkt", 0, 1, fr, cl);
		vxgbp_pkt_parse(&p, fr, cl, cl, &o);
		if ((p.have & VXGBP_HAVE_VXLAN) && (size_t)p.vxlan_off + 8 <= cl)
			put("hdr", 0, 0, fr + p.vxlan_off, 8);
		for (int lvl = 0; lvl < 2; lvl++) {
			const struct vxgbp_l3 *l3 = lvl ? &p.inner.l3 : &p.outer.l3;

			if (l3->cipso_off >= 0)
				put("cipso", 0, 1, fr + l3->cipso_off, l3->cipso_len);
			if (l3->calipso_off >= 0)
				put("cipso", 1, 1, fr + l3->calipso_off, l3->calipso_len);
		}
		at += 16 + (size_t)cl;
	}
}

static void built_labels(void)
{
	static const uint16_t cats[] = { 0, 1, 2, 3, 7, 100, 200, 239 };
	static const uint16_t ecats[] = { 1, 5, 9, 1000 };
	uint8_t b[64];
	int n;

	for (uint8_t type = 1; type <= 6; type++) {
		struct vxgbp_cipso_tag_spec t = { .type = type, .level = 3 };

		if (type == 3 || type == 4)
			continue;
		t.cats = type == 2 ? ecats : cats;
		t.n_cats = type == 2 ? 4 : 8;
		if ((n = vxgbp_cipso_build(b, sizeof(b), 16, &t, 1)) > 0)
			put("cipso", 0, 1, b, (size_t)n);
	}
	{
		struct vxgbp_cipso_tag_spec t[2] = {
			{ .type = 1, .level = 1, .cats = cats, .n_cats = 3 },
			{ .type = 5, .level = 1, .cats = cats, .n_cats = 6 },
		};
		if ((n = vxgbp_cipso_build(b, sizeof(b), 3, t, 2)) > 0)
			put("cipso", 0, 1, b, (size_t)n);
	}
	static const uint16_t ccats[] = { 0, 31, 32, 100, 1951 };
	for (unsigned k = 0; k <= 5; k++)
		if ((n = vxgbp_calipso_build(b, sizeof(b), 7, 2, ccats, k, 0)) > 0)
			put("cipso", 1, 1, b, (size_t)n);
}

int main(int argc, char **argv)
{
	static const char *subs[] = { "reader", "pkt", "hdr", "groups", "cipso" };
	char path[4096];

	if (argc < 2) {
		fprintf(stderr, "usage: seedgen OUTDIR FIXTURE...\n");
		return 2;
	}
	outdir = argv[1];
	mkdir(outdir, 0755);
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", outdir, subs[i]);
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			perror(path);
			return 2;
		}
	}
	for (int i = 2; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *b;
		long n;
		const char *dot = strrchr(argv[i], '.');

		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		if (n < 0 || n > (1 << 20) || !(b = malloc((size_t)n + 1))) {
			fclose(f);
			continue;
		}
		if (fread(b, 1, (size_t)n, f) != (size_t)n)
			n = 0;
		fclose(f);
		if (dot && (!strcmp(dot, ".pcap") || !strcmp(dot, ".pcapng"))) {
			put("reader", 0, 0, b, (size_t)n);
			frames(b, (size_t)n);
		} else {
			put("groups", 0, 0, b, (size_t)n);
		}
		free(b);
	}
	built_labels();
	/* a few hand-made seeds so no corpus is ever empty */
	put("hdr", 0, 0, "\x88\x00\x02\x00\x00\x00\x64\x00", 8);
	put("groups", 0, 0, "# c\n0x200 web\n512 web2\n65535 max\n", 34);
	return 0;
}
