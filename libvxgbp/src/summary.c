// SPDX-License-Identifier: BSD-2-Clause
/*
 * summary.c - the one-line summary of a VXLAN(-GBP/-GPE) header that
 * gbpdump's text and the Wireshark plugin's Info column both print.  Plain
 * stores, no printf: gbpdump writes one for every frame.
 */
#include <string.h>

#include <vxgbp/vxgbp.h>

/* The text written so far: buf holds what fits of it. */
struct w {
	char *buf;
	size_t cap; /* bytes of buf, the NUL included */
	size_t len; /* of the whole text */
};

static void put(struct w *w, const char *s, size_t n)
{
	if (w->len + 1 < w->cap) {
		size_t room = w->cap - 1 - w->len;

		memcpy(w->buf + w->len, s, n < room ? n : room);
	}
	w->len += n;
}

static void puts_(struct w *w, const char *s)
{
	put(w, s, strlen(s));
}

static void put_dec(struct w *w, uint32_t v)
{
	char d[10];
	size_t n = sizeof(d);

	do
		d[--n] = (char)('0' + v % 10);
	while ((v /= 10));
	put(w, d + n, sizeof(d) - n);
}

/* "0x" and digits lower-case hex digits of v */
static void put_hex(struct w *w, uint32_t v, unsigned digits)
{
	static const char hex[] = "0123456789abcdef";
	char d[10] = "0x";

	for (unsigned i = 0; i < digits; i++)
		d[2 + i] = hex[(v >> (4 * (digits - 1 - i))) & 0xf];
	put(w, d, 2 + digits);
}

/* "VXLAN-GPE vni 10 flags [I,P] next-proto Ethernet": the GPE bits by
 * name (I, P, B, O, a version other than 0, the reserved bits), the Next
 * Protocol when P says there is one, a reserved field that is not zero. */
static void gpe(struct w *w, const struct vxgbp_hdr *h)
{
	static const struct {
		uint16_t bit;
		char name[2];
	} bits[] = { { VXGBP_F_I, "I" }, { VXGBP_GPE_F_P, "P" }, { VXGBP_GPE_F_B, "B" },
		     { VXGBP_GPE_F_O, "O" } };
	int sep = 0;

	puts_(w, "VXLAN-GPE vni ");
	put_dec(w, h->vni);
	puts_(w, " flags [");
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (h->flags & bits[i].bit) {
			put(w, ",", sep);
			put(w, bits[i].name, 1);
			sep = 1;
		}
	if (h->flags & VXGBP_GPE_F_VER) {
		put(w, ",", sep);
		puts_(w, "ver=");
		put_dec(w, (h->flags & VXGBP_GPE_F_VER) >> 12);
		sep = 1;
	}
	if (h->flags & VXGBP_GPE_F_RSVD) {
		put(w, ",", sep);
		put(w, "R=", 2);
		put_hex(w, h->flags & VXGBP_GPE_F_RSVD, 4);
	}
	put(w, "]", 1);
	if (h->flags & VXGBP_GPE_F_P) {
		const char *np = vxgbp_gpe_np_name(vxgbp_gpe_next_proto(h));

		puts_(w, " next-proto ");
		if (np)
			puts_(w, np);
		else
			put_hex(w, vxgbp_gpe_next_proto(h), 2);
	}
	if (h->group >> 8) {
		puts_(w, " rsvd-field ");
		put_hex(w, h->group >> 8, 2);
	}
}

/* "VXLAN-GBP vni 100 flags [G,I] group 512 (0x0200) web" or "VXLAN vni 10
 * flags [I] id-field 0x0042". */
static void vxlan(struct w *w, const struct vxgbp_hdr *h, unsigned sets, const char *name)
{
	char flags[VXGBP_FLAGS_STRLEN];
	int n = vxgbp_flags_format(flags, sizeof(flags), h->flags, sets);

	if (vxgbp_hdr_has_gbp(h))
		puts_(w, "VXLAN-GBP vni ");
	else
		puts_(w, "VXLAN vni ");
	put_dec(w, h->vni);
	puts_(w, " flags [");
	put(w, flags, n > 0 ? (size_t)n : 0);
	put(w, "]", 1);
	if (vxgbp_hdr_has_gbp(h)) {
		puts_(w, " group ");
		put_dec(w, h->group);
		puts_(w, " (");
		put_hex(w, h->group, 4);
		put(w, ")", 1);
		if (name) {
			put(w, " ", 1);
			puts_(w, name);
		}
	} else if (h->group) {
		puts_(w, " id-field ");
		put_hex(w, h->group, 4);
	}
}

int vxgbp_hdr_summary(char *buf, size_t buflen, const struct vxgbp_hdr *h,
		      enum vxgbp_vx_kind kind, unsigned sets, const char *group_name)
{
	struct w w = { buf, buf ? buflen : 0, 0 };

	if (!h || (kind != VXGBP_VX_VXLAN && kind != VXGBP_VX_GPE))
		return VXGBP_E_INVAL;
	if (kind == VXGBP_VX_GPE)
		gpe(&w, h);
	else
		vxlan(&w, h, sets, group_name);
	if (h->rsvd) {
		puts_(&w, " rsvd ");
		put_hex(&w, h->rsvd, 2);
	}
	if (w.cap)
		w.buf[w.len < w.cap ? w.len : w.cap - 1] = '\0';
	return w.len > 0x7fffffff ? VXGBP_E_NOSPACE : (int)w.len;
}
