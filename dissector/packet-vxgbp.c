// SPDX-License-Identifier: BSD-2-Clause
/*
 * packet-vxgbp.c - Wireshark 4.0 plugin for VXLAN Group Policy
 * (draft-smith-vxlan-group-policy; Linux 3511494ce2f3).
 *
 * Nothing in this file reads a header field from packet bytes: the 8 bytes
 * are copied out of the tvb after a length check and handed to libvxgbp,
 * which decodes them, judges them (rule ids shared with gbpdump --check)
 * and models the Linux receive path (mark, accept/drop).  Frame-level rules
 * that need the outer IP/UDP come from vxgbp_pkt_parse() on the whole frame.
 *
 * What the plugin adds to Wireshark:
 *   - protocol "vxgbp" on UDP 4789 and 8472 (preference vxgbp.udp.port);
 *   - fields vxgbp.* (every header bit, mark, Linux verdicts, group name,
 *     one vxgbp.finding string per rule broken);
 *   - one expert info per libvxgbp rule;
 *   - group names from the UAT "vxgbp_groups" (ID, name);
 *   - tap "vxgbp" with a stats_tree (GUI: Statistics > VXLAN-GBP Groups,
 *     tshark -z vxgbp,tree) and a text report (tshark -z vxgbp,groups).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include <ws_version.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/expert.h>
#include <epan/uat.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>
#include <epan/stats_tree.h>
#include <epan/tfs.h>
#include <wsutil/wslog.h>
#include <wiretap/wtap.h>

#include <vxgbp/vxgbp.h>

#include "vxgbp-plugin.h"

#ifndef VXGBP_PLUGIN_VERSION
#define VXGBP_PLUGIN_VERSION VXGBP_VERSION
#endif

/* The three symbols Wireshark's plugin loader looks for. */
WS_DLL_PUBLIC_DEF const gchar plugin_version[] = VXGBP_PLUGIN_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;
WS_DLL_PUBLIC void plugin_register(void);

#define VXGBP_DEFAULT_PORTS "4789,8472"

static int proto_vxgbp = -1;
static int vxgbp_tap = -1;
static dissector_handle_t vxgbp_handle;
static dissector_handle_t eth_handle;

static int hf_flags = -1;
static int hf_flag_g = -1;
static int hf_flag_i = -1;
static int hf_flag_d = -1;
static int hf_flag_a = -1;
static int hf_flag_rsvd = -1;
static int hf_group = -1;
static int hf_group_rsvd = -1;
static int hf_vni = -1;
static int hf_rsvd = -1;
static int hf_group_name = -1;
static int hf_mark = -1;
static int hf_verdict_gbp = -1;
static int hf_verdict_nogbp = -1;
static int hf_finding = -1;

static gint ett_vxgbp = -1;
static gint ett_flags = -1;
static gint ett_linux = -1;
static gint ett_findings = -1;

/* One expert field per libvxgbp rule, indexed by enum vxgbp_rule. */
static expert_field ei_rule[VXGBP_R__COUNT];

/* ------------------------------------------------------------------------
 * Group names: UAT "vxgbp_groups", records (id, name).  The records are
 * validated by libvxgbp's group-file parser (the same syntax as
 * gbpdump --groups: "<id> <name>"), and the lookup table is a
 * struct vxgbp_groups rebuilt after every change.
 */
typedef struct {
	guint32 id;
	gchar *name;
} vxgbp_group_rec_t;

static vxgbp_group_rec_t *group_recs;
static guint n_group_recs;
static struct vxgbp_group_name *group_storage;
static struct vxgbp_groups group_table;
/* Preference: a group file as gbpdump --groups reads ("0x200 web" lines). */
static const char *pref_groups_file = "";

/* Run one (id, name) pair through libvxgbp's parser.  Returns NULL when it
 * is valid, else a newly allocated error text. */
static gchar *group_validate(guint32 id, const char *name, struct vxgbp_groups *into)
{
	struct vxgbp_group_name scratch[1];
	struct vxgbp_groups tmp;
	gchar *line;
	size_t col;
	int r;

	if (id > 0xffff)
		return g_strdup_printf("group ID %u is out of range (0-65535)", id);
	if (!name || !*name)
		return g_strdup("the group name is empty");
	if (!into) {
		vxgbp_groups_init(&tmp, scratch, 1);
		into = &tmp;
	}
	line = g_strdup_printf("%u %s", id, name);
	r = vxgbp_groups_parse_line(into, line, strlen(line), &col);
	g_free(line);
	if (r == VXGBP_E_SYNTAX)
		return g_strdup_printf("invalid group name \"%s\" (one word of 1-%zu printable characters)",
				       name, sizeof(scratch[0].name) - 1);
	if (r < 0)
		return g_strdup(vxgbp_strerror(r));
	return NULL;
}

/* Parse "512" or "0x200" into 0..65535. */
static gboolean group_id_parse(const char *s, unsigned len, guint32 *out)
{
	gchar *tmp = g_strndup(s, len), *end = NULL;
	guint64 v;
	gboolean ok;

	g_strstrip(tmp);
	v = g_ascii_strtoull(tmp, &end, 0);
	ok = *tmp && end && *end == '\0' && tmp[0] != '-' && v <= 0xffff;
	g_free(tmp);
	if (ok)
		*out = (guint32)v;
	return ok;
}

static gboolean group_id_chk(void *rec _U_, const char *ptr, unsigned len,
			     const void *u1 _U_, const void *u2 _U_, char **err)
{
	guint32 v;

	if (!group_id_parse(ptr, len, &v)) {
		*err = g_strdup("the group ID must be a number from 0 to 65535 (decimal or 0x hex)");
		return FALSE;
	}
	*err = NULL;
	return TRUE;
}

static void group_id_set(void *rec, const char *ptr, unsigned len,
			 const void *u1 _U_, const void *u2 _U_)
{
	guint32 v = 0;

	if (group_id_parse(ptr, len, &v))
		((vxgbp_group_rec_t *)rec)->id = v;
}

static void group_id_tostr(void *rec, char **out, unsigned *out_len,
			   const void *u1 _U_, const void *u2 _U_)
{
	*out = g_strdup_printf("%u", ((vxgbp_group_rec_t *)rec)->id);
	*out_len = (unsigned)strlen(*out);
}

static gboolean group_name_chk(void *rec _U_, const char *ptr, unsigned len,
			       const void *u1 _U_, const void *u2 _U_, char **err)
{
	gchar *name = g_strndup(ptr, len);

	*err = group_validate(0, name, NULL);
	g_free(name);
	return *err == NULL;
}

static void group_name_set(void *rec, const char *ptr, unsigned len,
			   const void *u1 _U_, const void *u2 _U_)
{
	vxgbp_group_rec_t *r = (vxgbp_group_rec_t *)rec;

	g_free(r->name);
	r->name = g_strndup(ptr, len);
}

static void group_name_tostr(void *rec, char **out, unsigned *out_len,
			     const void *u1 _U_, const void *u2 _U_)
{
	const vxgbp_group_rec_t *r = (const vxgbp_group_rec_t *)rec;

	*out = g_strdup(r->name ? r->name : "");
	*out_len = (unsigned)strlen(*out);
}

static void *group_copy_cb(void *dst, const void *src, size_t len _U_)
{
	const vxgbp_group_rec_t *s = (const vxgbp_group_rec_t *)src;
	vxgbp_group_rec_t *d = (vxgbp_group_rec_t *)dst;

	d->id = s->id;
	d->name = g_strdup(s->name);
	return d;
}

static gboolean group_update_cb(void *rec, char **err)
{
	const vxgbp_group_rec_t *r = (const vxgbp_group_rec_t *)rec;

	*err = group_validate(r->id, r->name, NULL);
	return *err == NULL;
}

static void group_free_cb(void *rec)
{
	vxgbp_group_rec_t *r = (vxgbp_group_rec_t *)rec;

	g_free(r->name);
	r->name = NULL;
}

/* Rebuild the lookup table: the group file first, then the UAT records
 * (a record wins over a file line with the same ID). */
static void groups_rebuild(void)
{
	gchar *text = NULL, **lines = NULL;
	guint n_lines = 0, i;
	size_t col;

	if (pref_groups_file && *pref_groups_file) {
		GError *gerr = NULL;

		if (g_file_get_contents(pref_groups_file, &text, NULL, &gerr)) {
			lines = g_strsplit(text, "\n", -1);
			n_lines = g_strv_length(lines);
		} else {
			ws_warning("vxgbp: group file: %s", gerr->message);
			g_error_free(gerr);
		}
	}
	g_free(group_storage);
	group_storage = n_group_recs + n_lines ? g_new0(struct vxgbp_group_name, n_group_recs + n_lines)
					       : NULL;
	vxgbp_groups_init(&group_table, group_storage, n_group_recs + n_lines);
	for (i = 0; i < n_lines; i++) {
		int r = vxgbp_groups_parse_line(&group_table, lines[i], strlen(lines[i]), &col);

		if (r < 0)
			ws_warning("vxgbp: %s:%u:%zu: %s", pref_groups_file, i + 1, col + 1,
				   vxgbp_strerror(r));
	}
	for (i = 0; i < n_group_recs; i++) {
		/* Already validated by group_update_cb. */
		gchar *err = group_validate(group_recs[i].id, group_recs[i].name, &group_table);

		g_free(err);
	}
	g_strfreev(lines);
	g_free(text);
}

static void group_post_update_cb(void)
{
	groups_rebuild();
}

static void group_reset_cb(void)
{
	g_free(group_storage);
	group_storage = NULL;
	vxgbp_groups_init(&group_table, NULL, 0);
}

static void prefs_apply_cb(void)
{
	groups_rebuild();
}

const char *vxgbp_plugin_group_name(guint16 id)
{
	return vxgbp_groups_name(&group_table, id);
}

/* ------------------------------------------------------------------------
 * Frame-level parse: the outer IP/UDP rules need the whole frame, which a
 * UDP subdissector does not get.  The bytes of the frame are the data
 * source of our tvb; its link type is the record's encapsulation.
 */
static int link_from_encap(int encap)
{
	switch (encap) {
	case WTAP_ENCAP_ETHERNET:
		return VXGBP_LINK_ETHERNET;
	case WTAP_ENCAP_RAW_IP:
		return VXGBP_LINK_RAW;
	case WTAP_ENCAP_RAW_IP4:
		return VXGBP_LINK_IPV4;
	case WTAP_ENCAP_RAW_IP6:
		return VXGBP_LINK_IPV6;
	case WTAP_ENCAP_NULL:
		return VXGBP_LINK_NULL;
	case WTAP_ENCAP_SLL:
		return VXGBP_LINK_LINUX_SLL;
	case WTAP_ENCAP_SLL2:
		return VXGBP_LINK_LINUX_SLL2;
	default:
		return -1;
	}
}

enum frame_match {
	FRAME_NONE,        /* no frame-level parse to use */
	FRAME_MATCH,       /* libvxgbp found the very VXLAN header this tvb starts with */
	FRAME_OUTER_ERROR, /* libvxgbp stopped in an outer layer Wireshark tolerated */
};

/* Parse the frame that carries tvb.  With FRAME_MATCH its frame findings
 * and inner layers belong to this PDU; with FRAME_OUTER_ERROR only the
 * reason it stopped (frame.truncated / frame.malformed) does. */
static enum frame_match frame_parse(tvbuff_t *tvb, packet_info *pinfo, struct vxgbp_pkt *p)
{
	struct vxgbp_parse_opts opts;
	tvbuff_t *ds;
	const guint8 *bytes;
	guint caplen, wirelen;
	int link;
	guint i;

	if (!pinfo->rec || pinfo->rec->rec_type != REC_TYPE_PACKET)
		return FRAME_NONE;
	link = link_from_encap(pinfo->rec->rec_header.packet_header.pkt_encap);
	if (link < 0)
		return FRAME_NONE;
	ds = tvb_get_ds_tvb(tvb);
	if (!ds || !pinfo->fd)
		return FRAME_NONE;
	caplen = tvb_captured_length(ds);
	wirelen = tvb_reported_length(ds);
	/* Only the frame itself (not a reassembled or decrypted buffer). */
	if (caplen != pinfo->fd->cap_len || caplen == 0)
		return FRAME_NONE;
	bytes = tvb_get_ptr(ds, 0, caplen);
	if (!bytes)
		return FRAME_NONE;

	vxgbp_parse_opts_init(&opts);
	opts.linktype = link;
	/* Whatever port brought us here (preference, Decode As). */
	if (pinfo->match_uint && pinfo->match_uint <= 0xffff &&
	    pinfo->match_uint != VXGBP_PORT_IANA && pinfo->match_uint != VXGBP_PORT_LINUX)
		vxgbp_parse_opts_add_port(&opts, (uint16_t)pinfo->match_uint);
	for (i = 0; i < 2; i++) {
		guint32 port = i ? pinfo->srcport : pinfo->destport;

		if (port != pinfo->match_uint && port <= 0xffff)
			(void)vxgbp_parse_opts_add_port(&opts, (uint16_t)port);
	}
	vxgbp_pkt_parse(p, bytes, caplen, wirelen, &opts);
	if ((p->have & VXGBP_HAVE_VXLAN) && p->vxlan_off >= 0 &&
	    p->vxlan_off == tvb_raw_offset(tvb))
		return FRAME_MATCH;
	if (!(p->have & VXGBP_HAVE_VXLAN) && p->err && p->err_off >= 0 &&
	    p->err_off <= tvb_raw_offset(tvb))
		return FRAME_OUTER_ERROR;
	return FRAME_NONE;
}

/* ------------------------------------------------------------------------
 * Dissection.
 */
static const char *verdict_str(wmem_allocator_t *pool, const struct vxgbp_hdr *h,
			       unsigned dev_flags)
{
	struct vxgbp_verdict v;

	vxgbp_verdict_linux(h, dev_flags, &v);
	if (v.accept)
		return "accept";
	return wmem_strdup_printf(pool, "drop (%s)", vxgbp_drop_name(v.why));
}

static void fill_endpoint(char *out, size_t outlen, const struct vxgbp_layers *ls,
			  int src)
{
	const struct vxgbp_l3 *l3 = &ls->l3;
	const struct vxgbp_l2 *l2 = &ls->l2;
	const uint8_t *a = src ? l3->src : l3->dst;
	char buf[64];

	out[0] = '\0';
	if ((l3->version == 4 || l3->version == 6) && a) {
		if (vxgbp_addr_format(buf, sizeof(buf), a, l3->version == 4 ? 4 : 16) > 0)
			g_snprintf(out, (gulong)outlen, "%s", buf);
		return;
	}
	a = src ? l2->src : l2->dst;
	if (l2->off >= 0 && a && vxgbp_mac_format(buf, sizeof(buf), a) > 0)
		g_snprintf(out, (gulong)outlen, "%s", buf);
}

static unsigned n_findings(guint64 f)
{
	unsigned n = 0;

	for (; f; f &= f - 1)
		n++;
	return n;
}

static int dissect_vxgbp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			 void *data _U_)
{
	guint8 raw[VXGBP_HDR_LEN];
	struct vxgbp_hdr h;
	struct vxgbp_pkt *pkt;
	proto_item *ti, *it;
	proto_tree *vt, *ft, *lt;
	vxgbp_tap_info_t *tap;
	const char *name = NULL;
	guint64 findings;
	enum frame_match fm;
	gboolean have_frame;
	guint caplen = tvb_captured_length(tvb);
	unsigned r;

	col_set_str(pinfo->cinfo, COL_PROTOCOL, "VXLAN-GBP");
	col_clear(pinfo->cinfo, COL_INFO);

	ti = proto_tree_add_item(tree, proto_vxgbp, tvb, 0, MIN(caplen, VXGBP_HDR_LEN), ENC_NA);
	vt = proto_item_add_subtree(ti, ett_vxgbp);

	if (caplen < VXGBP_HDR_LEN ||
	    vxgbp_hdr_decode(&h, tvb_memcpy(tvb, raw, 0, VXGBP_HDR_LEN), VXGBP_HDR_LEN) != VXGBP_HDR_LEN) {
		/* Cut short by the capture (truncated) or on the wire too
		 * (malformed), as libvxgbp's frame parser tells them apart. */
		unsigned rule = tvb_reported_length(tvb) < VXGBP_HDR_LEN ? VXGBP_R_MALFORMED
									: VXGBP_R_TRUNCATED;
		const struct vxgbp_rule_info *ri = vxgbp_rule_get(rule);

		col_set_str(pinfo->cinfo, COL_INFO, "VXLAN-GBP (header cut short)");
		it = proto_tree_add_string(vt, hf_finding, tvb, 0, caplen, ri ? ri->id : "");
		proto_item_set_generated(it);
		expert_add_info(pinfo, it, &ei_rule[rule]);
		return caplen;
	}

	/* Everything below comes from libvxgbp. */
	findings = vxgbp_hdr_check(&h);
	pkt = wmem_new0(pinfo->pool, struct vxgbp_pkt);
	fm = frame_parse(tvb, pinfo, pkt);
	have_frame = fm == FRAME_MATCH;
	if (fm == FRAME_MATCH)
		findings |= pkt->findings; /* frame and label (CIPSO/CALIPSO) rules */
	else if (fm == FRAME_OUTER_ERROR)
		findings |= pkt->findings & (VXGBP_RB(VXGBP_R_TRUNCATED) | VXGBP_RB(VXGBP_R_MALFORMED));

	if (vxgbp_hdr_has_gbp(&h))
		name = vxgbp_plugin_group_name(h.group);

	/* Info column: "VXLAN-GBP VNI=100 Group=0x0200 (web) [D] [A]" */
	col_add_fstr(pinfo->cinfo, COL_INFO, "VXLAN-GBP VNI=%u", h.vni);
	if (vxgbp_hdr_has_gbp(&h)) {
		col_append_fstr(pinfo->cinfo, COL_INFO, " Group=0x%04x", h.group);
		if (name)
			col_append_fstr(pinfo->cinfo, COL_INFO, " (%s)", name);
		if (h.flags & VXGBP_F_D)
			col_append_str(pinfo->cinfo, COL_INFO, " [D]");
		if (h.flags & VXGBP_F_A)
			col_append_str(pinfo->cinfo, COL_INFO, " [A]");
	} else {
		col_append_str(pinfo->cinfo, COL_INFO, " (no GBP)");
	}
	if (findings)
		col_append_fstr(pinfo->cinfo, COL_INFO, " [%u finding%s]", n_findings(findings),
				n_findings(findings) == 1 ? "" : "s");
	col_append_str(pinfo->cinfo, COL_INFO, " | ");
	col_set_fence(pinfo->cinfo, COL_INFO);

	proto_item_append_text(ti, ", VNI: %u", h.vni);
	if (vxgbp_hdr_has_gbp(&h)) {
		proto_item_append_text(ti, ", Group: 0x%04x", h.group);
		if (name)
			proto_item_append_text(ti, " (%s)", name);
	}

	/* The 8 header bytes.  The field values are libvxgbp's decode (the
	 * same numbers the bytes hold; vxgbp_hdr_encode(decode(b)) == b). */
	it = proto_tree_add_uint(vt, hf_flags, tvb, 0, 2, h.flags);
	ft = proto_item_add_subtree(it, ett_flags);
	proto_tree_add_boolean(ft, hf_flag_g, tvb, 0, 2, h.flags);
	proto_tree_add_boolean(ft, hf_flag_i, tvb, 0, 2, h.flags);
	proto_tree_add_boolean(ft, hf_flag_d, tvb, 0, 2, h.flags);
	proto_tree_add_boolean(ft, hf_flag_a, tvb, 0, 2, h.flags);
	proto_tree_add_uint(ft, hf_flag_rsvd, tvb, 0, 2, h.flags);
	{
		const char *sep = "";
		proto_item_append_text(it, " (");
		if (h.flags & VXGBP_F_G) {
			proto_item_append_text(it, "%sG", sep);
			sep = ", ";
		}
		if (h.flags & VXGBP_F_I) {
			proto_item_append_text(it, "%sI", sep);
			sep = ", ";
		}
		if (h.flags & VXGBP_F_D) {
			proto_item_append_text(it, "%sD", sep);
			sep = ", ";
		}
		if (h.flags & VXGBP_F_A) {
			proto_item_append_text(it, "%sA", sep);
			sep = ", ";
		}
		if (h.flags & VXGBP_F_RSVD_GBP)
			proto_item_append_text(it, "%sreserved 0x%04x", sep,
					       h.flags & VXGBP_F_RSVD_GBP);
		proto_item_append_text(it, ")");
	}

	if (vxgbp_hdr_has_gbp(&h)) {
		it = proto_tree_add_uint(vt, hf_group, tvb, 2, 2, h.group);
		if (name)
			proto_item_append_text(it, " (%s)", name);
	} else {
		proto_tree_add_uint(vt, hf_group_rsvd, tvb, 2, 2, h.group);
	}
	proto_tree_add_uint(vt, hf_vni, tvb, 4, 3, h.vni);
	proto_tree_add_uint(vt, hf_rsvd, tvb, 7, 1, h.rsvd);
	if (name) {
		it = proto_tree_add_string(vt, hf_group_name, tvb, 2, 2, name);
		proto_item_set_generated(it);
	}

	/* What a Linux VTEP would make of it. */
	lt = proto_tree_add_subtree(vt, tvb, 0, VXGBP_HDR_LEN, ett_linux, &it,
				    "Linux receive (vxlan_rcv)");
	proto_item_set_generated(it);
	it = proto_tree_add_uint(lt, hf_mark, tvb, 0, VXGBP_HDR_LEN, vxgbp_mark_from_hdr(&h));
	proto_item_set_generated(it);
	it = proto_tree_add_string(lt, hf_verdict_gbp, tvb, 0, VXGBP_HDR_LEN,
				   verdict_str(pinfo->pool, &h, VXGBP_DEV_GBP));
	proto_item_set_generated(it);
	it = proto_tree_add_string(lt, hf_verdict_nogbp, tvb, 0, VXGBP_HDR_LEN,
				   verdict_str(pinfo->pool, &h, 0));
	proto_item_set_generated(it);

	/* Findings: one string item each, with its expert info. */
	if (findings) {
		proto_tree *fdt = proto_tree_add_subtree_format(vt, tvb, 0, VXGBP_HDR_LEN,
								ett_findings, &it, "Findings: %u",
								n_findings(findings));
		proto_item_set_generated(it);
		for (r = 0; r < VXGBP_R__COUNT; r++) {
			const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

			if (!(findings & VXGBP_RB(r)) || !ri)
				continue;
			it = proto_tree_add_string(fdt, hf_finding, tvb, 0, VXGBP_HDR_LEN, ri->id);
			proto_item_set_generated(it);
			expert_add_info(pinfo, it, &ei_rule[r]);
		}
	}

	/* Tap. */
	tap = wmem_new0(pinfo->pool, vxgbp_tap_info_t);
	tap->vni = h.vni;
	tap->has_gbp = vxgbp_hdr_has_gbp(&h);
	tap->group = h.group;
	tap->bytes = pinfo->fd ? pinfo->fd->pkt_len : tvb_reported_length(tvb);
	tap->findings = findings;
	if (have_frame) {
		fill_endpoint(tap->src, sizeof(tap->src), &pkt->inner, 1);
		fill_endpoint(tap->dst, sizeof(tap->dst), &pkt->inner, 0);
	}
	tap_queue_packet(vxgbp_tap, pinfo, tap);

	/* The inner frame: Ethernet without FCS (RFC 7348 sec. 5). */
	if (tvb_reported_length_remaining(tvb, VXGBP_HDR_LEN) > 0)
		call_dissector(eth_handle, tvb_new_subset_remaining(tvb, VXGBP_HDR_LEN), pinfo, tree);
	return tvb_captured_length(tvb);
}

/* ------------------------------------------------------------------------
 * Registration.
 */
static expert_field_info ei_template(unsigned rule)
{
	const struct vxgbp_rule_info *ri = vxgbp_rule_get(rule);
	expert_field_info e = { NULL, PI_PROTOCOL, PI_NOTE, NULL, EXPFILL };
	GString *abbrev;
	const char *c;

	if (!ri)
		return e;
	/* "gbp.i-flag-clear" -> "vxgbp.rule.gbp.i_flag_clear" */
	abbrev = g_string_new("vxgbp.rule.");
	for (c = ri->id; *c; c++)
		g_string_append_c(abbrev, *c == '-' ? '_' : *c);
	e.name = g_string_free(abbrev, FALSE);
	e.summary = g_strdup_printf("%s [%s]", ri->text, ri->id);
	switch (ri->level) {
	case VXGBP_LEVEL_MUST:
		e.severity = PI_WARN;
		break;
	case VXGBP_LEVEL_SHOULD:
		e.severity = PI_NOTE;
		break;
	default:
		e.severity = PI_CHAT;
		break;
	}
	switch (rule) {
	case VXGBP_R_MALFORMED:
	case VXGBP_R_CIPSO_LEN:
	case VXGBP_R_CIPSO_TAG_LEN:
	case VXGBP_R_CALIPSO_LEN:
		e.group = PI_MALFORMED;
		e.severity = PI_ERROR;
		break;
	case VXGBP_R_TRUNCATED:
		e.group = PI_MALFORMED;
		break;
	case VXGBP_R_UDP_CSUM:
	case VXGBP_R_IP_CSUM:
	case VXGBP_R_CALIPSO_CSUM:
		e.group = PI_CHECKSUM;
		break;
	case VXGBP_R_I_CLEAR:
	case VXGBP_R_RSVD_FLAGS:
	case VXGBP_R_RSVD_BYTE:
		/* A Linux VTEP drops these: worth more than a warning? No -
		 * keep them warnings; the verdict field says "drop". */
		break;
	default:
		break;
	}
	return e;
}

static void proto_register_vxgbp(void)
{
	static hf_register_info hf[] = {
		{ &hf_flags, { "Flags", "vxgbp.flags", FT_UINT16, BASE_HEX, NULL, 0x0,
			       "First 16 bits of the header", HFILL } },
		{ &hf_flag_g, { "Group Policy extension (G)", "vxgbp.flags.g", FT_BOOLEAN, 16,
				TFS(&tfs_set_notset), VXGBP_F_G, NULL, HFILL } },
		{ &hf_flag_i, { "VNI valid (I)", "vxgbp.flags.i", FT_BOOLEAN, 16,
				TFS(&tfs_set_notset), VXGBP_F_I, NULL, HFILL } },
		{ &hf_flag_d, { "Don't Learn (D)", "vxgbp.flags.d", FT_BOOLEAN, 16,
				TFS(&tfs_set_notset), VXGBP_F_D, NULL, HFILL } },
		{ &hf_flag_a, { "Policy Applied (A)", "vxgbp.flags.a", FT_BOOLEAN, 16,
				TFS(&tfs_set_notset), VXGBP_F_A, NULL, HFILL } },
		{ &hf_flag_rsvd, { "Reserved flags", "vxgbp.flags.reserved", FT_UINT16, BASE_HEX,
				   NULL, VXGBP_F_RSVD_GBP, "Flag bits reserved even with the GBP extension",
				   HFILL } },
		{ &hf_group, { "Group Policy ID", "vxgbp.group", FT_UINT16, BASE_HEX_DEC, NULL, 0x0,
			       NULL, HFILL } },
		{ &hf_group_rsvd, { "Reserved (no G flag)", "vxgbp.group_reserved", FT_UINT16, BASE_HEX,
				    NULL, 0x0, "Bytes 2-3 when the G flag is clear", HFILL } },
		{ &hf_vni, { "VNI", "vxgbp.vni", FT_UINT24, BASE_DEC, NULL, 0x0,
			     "VXLAN Network Identifier", HFILL } },
		{ &hf_rsvd, { "Reserved", "vxgbp.reserved", FT_UINT8, BASE_HEX, NULL, 0x0,
			      "Byte 7", HFILL } },
		{ &hf_group_name, { "Group name", "vxgbp.group_name", FT_STRING, BASE_NONE, NULL, 0x0,
				    "From the vxgbp_groups table", HFILL } },
		{ &hf_mark, { "skb->mark on a gbp device", "vxgbp.mark", FT_UINT32, BASE_HEX, NULL, 0x0,
			      "The mark a Linux VXLAN device with gbp sets (0 when G is clear)", HFILL } },
		{ &hf_verdict_gbp, { "Verdict of a gbp device", "vxgbp.verdict.gbp", FT_STRING,
				     BASE_NONE, NULL, 0x0, "Linux vxlan_rcv() on a device with gbp", HFILL } },
		{ &hf_verdict_nogbp, { "Verdict of a non-gbp device", "vxgbp.verdict.nogbp", FT_STRING,
				       BASE_NONE, NULL, 0x0, "Linux vxlan_rcv() on a device without gbp",
				       HFILL } },
		{ &hf_finding, { "Finding", "vxgbp.finding", FT_STRING, BASE_NONE, NULL, 0x0,
				 "Rule id (as in gbpdump --check)", HFILL } },
	};
	static gint *ett[] = { &ett_vxgbp, &ett_flags, &ett_linux, &ett_findings };
	static uat_field_t group_fields[] = {
		{ "id", "Group ID", PT_TXTMOD_STRING,
		  { group_id_chk, group_id_set, group_id_tostr }, { 0, 0, 0 }, 0,
		  "Group Policy ID, 0-65535 (decimal or 0x hex)", FLDFILL },
		{ "name", "Name", PT_TXTMOD_STRING,
		  { group_name_chk, group_name_set, group_name_tostr }, { 0, 0, 0 }, 0,
		  "Group name (one word, at most 31 characters)", FLDFILL },
		UAT_END_FIELDS
	};
	ei_register_info *ei;
	expert_module_t *expert;
	module_t *module;
	uat_t *uat;
	unsigned r;

	proto_vxgbp = proto_register_protocol("VXLAN Group Policy (libvxgbp)", "VXLAN-GBP", "vxgbp");
	proto_register_field_array(proto_vxgbp, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));

	/* Expert infos: one per rule, built from libvxgbp's rule table.
	 * Registered once per process; the strings live as long as it. */
	ei = g_new0(ei_register_info, VXGBP_R__COUNT);
	for (r = 0; r < VXGBP_R__COUNT; r++) {
		ei_rule[r].ei = EI_INIT_EI;
		ei_rule[r].hf = EI_INIT_HF;
		ei[r].ids = &ei_rule[r];
		ei[r].eiinfo = ei_template(r);
	}
	expert = expert_register_protocol(proto_vxgbp);
	expert_register_field_array(expert, ei, VXGBP_R__COUNT);

	vxgbp_handle = register_dissector("vxgbp", dissect_vxgbp, proto_vxgbp);
	module = prefs_register_protocol(proto_vxgbp, prefs_apply_cb);

	vxgbp_groups_init(&group_table, NULL, 0);
	uat = uat_new("VXLAN-GBP group names", sizeof(vxgbp_group_rec_t), "vxgbp_groups", TRUE,
		      &group_recs, &n_group_recs, UAT_AFFECTS_DISSECTION,
		      NULL, group_copy_cb, group_update_cb, group_free_cb,
		      group_post_update_cb, group_reset_cb, group_fields);
	prefs_register_uat_preference(module, "groups", "Group names",
				      "Names for Group Policy IDs (ID, name); shown in the tree and the Info column",
				      uat);

	prefs_register_filename_preference(module, "groups_file", "Group names file",
					   "A file of \"<id> <name>\" lines, as gbpdump --groups reads "
					   "(e.g. \"0x200 web\"); the table above wins for an ID in both",
					   &pref_groups_file, FALSE);

	vxgbp_tap = register_tap("vxgbp");
}

static void proto_reg_handoff_vxgbp(void)
{
	eth_handle = find_dissector_add_dependency("eth_withoutfcs", proto_vxgbp);
	/* Adds the range preference vxgbp.udp.port ("UDP port(s)"). */
	dissector_add_uint_range_with_preference("udp.port", VXGBP_DEFAULT_PORTS, vxgbp_handle);
}

void plugin_register(void)
{
	static proto_plugin plug;
	static tap_plugin tap;

	plug.register_protoinfo = proto_register_vxgbp;
	plug.register_handoff = proto_reg_handoff_vxgbp;
	proto_register_plugin(&plug);

	tap.register_tap_listener = vxgbp_stats_register;
	tap_register_plugin(&tap);
}
