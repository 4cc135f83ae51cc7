// SPDX-License-Identifier: BSD-2-Clause
/*
 * labels.c - text and JSON printers of CIPSO / CALIPSO labels (labels.h).
 * Nothing here reads a label byte itself: libvxgbp decodes, we print.
 */
#include "labels.h"

/* libvxgbp writes the category text ("0,1,5-9"); it lands in the output
 * buffer a run at a time, however long the set. */
static int out_put(void *ctx, const char *s, size_t n)
{
	out_write(ctx, s, n);
	return 0;
}

static int tag_has_cats(const struct vxgbp_cipso_tag *t)
{
	unsigned it = 0;
	uint16_t lo, hi;

	return vxgbp_cipso_cat_next(t, &it, &lo, &hi);
}

static void tag_cats(struct gd_out *o, const struct vxgbp_cipso_tag *t)
{
	vxgbp_cipso_cats_put(t, out_put, o);
}

static int calipso_has_cats(const struct vxgbp_calipso *c)
{
	unsigned it = 0;
	uint16_t lo, hi;

	return vxgbp_calipso_cat_next(c, &it, &lo, &hi);
}

static void calipso_cats(struct gd_out *o, const struct vxgbp_calipso *c)
{
	vxgbp_calipso_cats_put(c, out_put, o);
}

static void hex_bytes(struct gd_out *o, const uint8_t *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++)
		out_hex(o, p[i], 2);
}

static const char *err_word(int r)
{
	return r == VXGBP_E_TRUNCATED ? "truncated" : "malformed";
}

/* One tag, text: "tag 1 bitmap lvl 1 cat 0,1" / "tag 7 freeform 0a0b". */
static void text_tag(struct gd_out *o, const struct vxgbp_cipso_tag *t, int with_type)
{
	if (with_type) {
		out_str(o, "tag ");
		out_u64(o, t->type);
		out_putc(o, ' ');
		out_str(o, vxgbp_cipso_tag_name(t->type));
	}
	if (t->has_level) {
		out_str(o, with_type ? " lvl " : "lvl ");
		out_u64(o, t->level);
		if (tag_has_cats(t)) {
			out_str(o, " cat ");
			tag_cats(o, t);
		}
	} else if (t->data_len) {
		out_putc(o, ' ');
		hex_bytes(o, t->data, t->data_len);
	}
}

static void text_cipso(struct gd_out *o, const uint8_t *opt, size_t len, int verbose)
{
	struct vxgbp_cipso c;
	const struct vxgbp_cipso_tag *t;
	int r = vxgbp_cipso_parse(&c, opt, len);

	out_str(o, " cipso");
	if (r < 0) {
		out_str(o, " len ");
		out_u64(o, c.len);
		out_str(o, " [");
		out_str(o, err_word(r));
		out_putc(o, ']');
		return;
	}
	if (verbose) {
		out_str(o, " len ");
		out_u64(o, c.len);
	}
	out_str(o, " doi ");
	out_u64(o, c.doi);
	if (verbose) {
		for (unsigned i = 0; i < c.n_tags; i++) {
			out_str(o, " [");
			text_tag(o, &c.tags[i], 1);
			out_putc(o, ']');
		}
		return;
	}
	if ((t = vxgbp_cipso_label_tag(&c))) {
		out_putc(o, ' ');
		text_tag(o, t, 0);
	} else if (c.n_tags) {
		out_putc(o, ' ');
		text_tag(o, &c.tags[0], 1);
	}
}

static void text_calipso(struct gd_out *o, const uint8_t *opt, size_t len, int verbose)
{
	struct vxgbp_calipso c;
	int r = vxgbp_calipso_parse(&c, opt, len);

	out_str(o, " calipso");
	if (r < 0) {
		out_str(o, " len ");
		out_u64(o, (unsigned)c.data_len + 2);
		out_str(o, " [");
		out_str(o, err_word(r));
		out_putc(o, ']');
		return;
	}
	if (verbose) {
		out_str(o, " len ");
		out_u64(o, (unsigned)r);
	}
	out_str(o, " doi ");
	out_u64(o, c.doi);
	out_str(o, " lvl ");
	out_u64(o, c.level);
	if (calipso_has_cats(&c)) {
		out_str(o, " cat ");
		calipso_cats(o, &c);
	}
	if (verbose) {
		out_str(o, " cmpt ");
		out_u64(o, c.cmpt_len);
	}
	if (verbose || !c.csum_ok) {
		out_str(o, " csum 0x");
		out_hex(o, c.csum, 4);
		if (c.csum_ok) {
			out_str(o, " ok");
		} else {
			out_str(o, " bad (want 0x");
			out_hex(o, c.csum_calc, 4);
			out_putc(o, ')');
		}
	}
}

void labels_print_text(struct gd_out *o, const uint8_t *frame, const struct vxgbp_l3 *l3,
		       int verbose)
{
	if (!frame || !l3)
		return;
	if (l3->cipso_off >= 0)
		text_cipso(o, frame + l3->cipso_off, l3->cipso_len, verbose);
	if (l3->calipso_off >= 0)
		text_calipso(o, frame + l3->calipso_off, l3->calipso_len, verbose);
}

/* ------------------------------------------------------------------------
 * JSON
 */
static void key(struct gd_out *o, const char *k)
{
	out_json_str(o, k);
	out_putc(o, ':');
}

static void json_findings(struct gd_out *o, uint64_t f)
{
	int first = 1;

	out_putc(o, ',');
	key(o, "findings");
	out_putc(o, '[');
	for (unsigned r = 0; r < VXGBP_R__COUNT; r++) {
		const struct vxgbp_rule_info *ri;

		if (!(f & VXGBP_RB(r)) || !(ri = vxgbp_rule_get(r)))
			continue;
		if (!first)
			out_putc(o, ',');
		first = 0;
		out_json_str(o, ri->id);
	}
	out_putc(o, ']');
}

static void json_tag(struct gd_out *o, const struct vxgbp_cipso_tag *t)
{
	out_putc(o, '{');
	key(o, "type");
	out_u64(o, t->type);
	out_putc(o, ',');
	key(o, "name");
	out_json_str(o, vxgbp_cipso_tag_name(t->type));
	out_putc(o, ',');
	key(o, "len");
	out_u64(o, t->len);
	if (t->has_level) {
		out_putc(o, ',');
		key(o, "level");
		out_u64(o, t->level);
		out_putc(o, ',');
		key(o, "categories");
		out_putc(o, '"');
		tag_cats(o, t);
		out_putc(o, '"');
	} else if (t->data_len) {
		out_putc(o, ',');
		key(o, "data");
		out_putc(o, '"');
		hex_bytes(o, t->data, t->data_len);
		out_putc(o, '"');
	}
	out_putc(o, '}');
}

static void json_error(struct gd_out *o, int r)
{
	out_putc(o, ',');
	key(o, "error");
	out_json_str(o, err_word(r));
}

static void json_cipso(struct gd_out *o, const uint8_t *opt, size_t len)
{
	struct vxgbp_cipso c;
	const struct vxgbp_cipso_tag *t;
	int r = vxgbp_cipso_parse(&c, opt, len);

	out_putc(o, ',');
	key(o, "label");
	out_putc(o, '{');
	key(o, "type");
	out_json_str(o, "cipso");
	out_putc(o, ',');
	key(o, "len");
	out_u64(o, c.len);
	if (r < 0) {
		json_error(o, r);
	} else {
		out_putc(o, ',');
		key(o, "doi");
		out_u64(o, c.doi);
		if ((t = vxgbp_cipso_label_tag(&c))) {
			out_putc(o, ',');
			key(o, "level");
			out_u64(o, t->level);
			out_putc(o, ',');
			key(o, "categories");
			out_putc(o, '"');
			tag_cats(o, t);
			out_putc(o, '"');
		}
		out_putc(o, ',');
		key(o, "tags");
		out_putc(o, '[');
		for (unsigned i = 0; i < c.n_tags; i++) {
			if (i)
				out_putc(o, ',');
			json_tag(o, &c.tags[i]);
		}
		out_putc(o, ']');
	}
	json_findings(o, c.findings);
	out_putc(o, '}');
}

static void json_calipso(struct gd_out *o, const uint8_t *opt, size_t len)
{
	struct vxgbp_calipso c;
	int r = vxgbp_calipso_parse(&c, opt, len);

	out_putc(o, ',');
	key(o, "label");
	out_putc(o, '{');
	key(o, "type");
	out_json_str(o, "calipso");
	out_putc(o, ',');
	key(o, "len");
	out_u64(o, (unsigned)c.data_len + 2);
	if (r < 0) {
		json_error(o, r);
	} else {
		out_putc(o, ',');
		key(o, "doi");
		out_u64(o, c.doi);
		out_putc(o, ',');
		key(o, "level");
		out_u64(o, c.level);
		out_putc(o, ',');
		key(o, "categories");
		out_putc(o, '"');
		calipso_cats(o, &c);
		out_putc(o, '"');
		out_putc(o, ',');
		key(o, "cmpt_len");
		out_u64(o, c.cmpt_len);
		out_putc(o, ',');
		key(o, "checksum");
		out_str(o, "\"0x");
		out_hex(o, c.csum, 4);
		out_putc(o, '"');
		out_putc(o, ',');
		key(o, "checksum_ok");
		out_str(o, c.csum_ok ? "true" : "false");
		if (!c.csum_ok) {
			out_putc(o, ',');
			key(o, "checksum_calc");
			out_str(o, "\"0x");
			out_hex(o, c.csum_calc, 4);
			out_putc(o, '"');
		}
	}
	json_findings(o, c.findings);
	out_putc(o, '}');
}

void labels_print_json(struct gd_out *o, const uint8_t *frame, const struct vxgbp_l3 *l3)
{
	if (!frame || !l3)
		return;
	if (l3->cipso_off >= 0)
		json_cipso(o, frame + l3->cipso_off, l3->cipso_len);
	else if (l3->calipso_off >= 0)
		json_calipso(o, frame + l3->calipso_off, l3->calipso_len);
}
