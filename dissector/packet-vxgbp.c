// SPDX-License-Identifier: BSD-2-Clause
/*
 * packet-vxgbp.c - Wireshark 4.0 plugin for VXLAN Group Policy
 * (draft-smith-vxlan-group-policy; Linux 3511494ce2f3), beside Wireshark's
 * own VXLAN dissector.
 *
 * Wireshark's "vxlan" keeps UDP 4789 (and whatever Decode As gives it) and
 * every vxlan.* field.  vxgbp is a postdissector: after the frame has been
 * dissected it looks up every "vxlan" protocol item in the tree (the hf ids
 * it asks for with set_postdissector_wanted_hfids), copies the bytes from
 * that header to the end of its data source (the frame, a reassembled
 * datagram, a decapsulated tunnel: wherever Wireshark found VXLAN) and
 * hands them to libvxgbp, which decodes them, judges them (rule ids shared
 * with gbpdump --check) and models the Linux receive path (mark,
 * accept/drop).  For the first VXLAN header of a frame that lies in the
 * frame itself, the whole frame is parsed too, so that the rules that need
 * the outer IP/UDP headers (checksums, fragments, source port, TTL, labels)
 * are judged as gbpdump judges them.  Nothing in this file decides what a
 * header bit means: flag names, reserved bits, rules, mark, verdicts and
 * cross-frame findings all come from libvxgbp.
 *
 * Which headers are VXLAN is libvxgbp's one port rule (vxgbp_udp_kind: the
 * UDP destination port alone), with the ports the user gave Wireshark's
 * vxlan (Decode As, read from the udp.port table) as VXLAN ports: a header
 * Wireshark decoded for its source port only is shown with a note, judged
 * by no rule (gbpdump does not decode it) and not fed to the cross-frame
 * analysis; so is a header inside one the whole frame's parse could not
 * decode through.  Rules are judged under the "Conformance profile"
 * preference (libvxgbp's profiles, as gbpdump --profile; strict by
 * default).  A header that came to the VXLAN-GPE
 * port (4790, or a port decoded as vxlan_gpe) is read as GPE
 * (VXGBP_PARSE_GPE); on a VXLAN port libvxgbp decides from the P bit.
 *
 * What the plugin adds to Wireshark, per VXLAN or VXLAN-GPE header:
 *   - a "vxgbp" tree item with fields vxgbp.* (flags, group, VNI, group
 *     name, mark, Linux verdicts, one vxgbp.finding per rule broken; for
 *     GPE its own fields vxgbp.gpe.*, never a group, D or A);
 *   - one expert info per libvxgbp rule, the four cross-frame rules with
 *     the earlier frame they contradict (vxgbp.xframe.prev), from a
 *     libvxgbp tracker fed on the first pass;
 *   - a summary before the Info column's text;
 *   - tap "vxgbp", once per frame (vxgbp-stats.c).
 */
#include <string.h>

#include <glib.h>

#include <ws_version.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/expert.h>
#include <epan/proto_data.h>
#include <epan/tap.h>
#include <epan/tfs.h>
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

/* The "Conformance profile" preference: a libvxgbp profile number
 * (vxgbp_profile_get()), strict by default, as gbpdump --profile. */
static gint pref_profile = 0;

/* The "Fabric header" preference: which VXLAN header of a frame the
 * tracker follows (vxgbp_pkt_fabric()), as gbpdump --fabric-header. */
static gint pref_fabric = VXGBP_FABRIC_GBP;

static const struct vxgbp_profile_info *profile(void)
{
	const struct vxgbp_profile_info *pi = vxgbp_profile_get((unsigned)pref_profile);

	return pi ? pi : vxgbp_profile_get(0);
}

/* The flag sets the profile names flags by. */
static unsigned flagset(void)
{
	return profile()->flagsets;
}

/* Every profile's flag sets: the flag fields registered. */
static unsigned all_flagsets(void)
{
	const struct vxgbp_profile_info *pi;
	unsigned sets = 0, i;

	for (i = 0; (pi = vxgbp_profile_get(i)); i++)
		sets |= pi->flagsets;
	return sets;
}

static int proto_vxgbp = -1;
static int vxgbp_tap = -1;
static dissector_handle_t post_handle;

/* Fields of other dissectors the postdissector looks up. */
static int hf_vxlan = -1;     /* the "vxlan" protocol item: one per header */
static int hf_vxlan_ver = -1; /* "vxlan.ver": only VXLAN-GPE headers have it */
static int hf_udp_dport = -1;
static int proto_vxlan = -1;     /* Wireshark's vxlan and vxlan_gpe protocols */
static int proto_vxlan_gpe = -1;
static dissector_table_t udp_port_table;

static int hf_flags = -1;
static int hf_group = -1;
static int hf_group_rsvd = -1;
static int hf_vni = -1;
static int hf_rsvd = -1;
static int hf_group_name = -1;
static int hf_outer = -1;
static int hf_mark = -1;
static int hf_verdict_gbp = -1;
static int hf_verdict_nogbp = -1;
static int hf_finding = -1;
static int hf_xframe_prev = -1;
static int hf_xframe_group = -1;
static int hf_xframe_flags = -1;
static int hf_xframe_key = -1;
static int hf_kind = -1;
static int hf_dstport = -1;
static int hf_taken = -1;
static int hf_gpe_flags = -1;
static int hf_gpe_ver = -1;
static int hf_gpe_i = -1;
static int hf_gpe_p = -1;
static int hf_gpe_b = -1;
static int hf_gpe_o = -1;
static int hf_gpe_rsvd_flags = -1;
static int hf_gpe_rsvd = -1;
static int hf_gpe_np = -1;

/* The GPE flag word, as libvxgbp's VXGBP_GPE_F_* lay it out. */
static int *const gpe_flag_fields[] = { &hf_gpe_ver, &hf_gpe_i, &hf_gpe_p, &hf_gpe_b, &hf_gpe_o,
					&hf_gpe_rsvd_flags, NULL };

static const value_string kind_vals[] = {
	{ VXGBP_VX_VXLAN, "VXLAN" },
	{ VXGBP_VX_GPE, "VXLAN-GPE" },
	{ 0, NULL },
};

static gint ett_vxgbp = -1;
static gint ett_flags = -1;
static gint ett_linux = -1;
static gint ett_findings = -1;
static gint ett_xframe = -1;
static gint ett_xframe_hit = -1;
static gint ett_gpe_flags = -1;

/* One expert field per libvxgbp rule, indexed by enum vxgbp_rule. */
static expert_field ei_rule[VXGBP_R__COUNT];
/* Not a rule: Wireshark decoded the datagram as VXLAN for its source port. */
static expert_field ei_source_port = EI_INIT;

/* ------------------------------------------------------------------------
 * The flags word, as libvxgbp's flag table describes it: one boolean field
 * per flag of the draft (vxgbp.flags.g, .i, .d, .a: name and bit from
 * vxgbp_flag_get()), and "vxgbp.flags.reserved" for every other bit.  Which
 * flags a header defines depends on the header (D and A only with G:
 * vxgbp_flags_defined()), so there is one field list per set of defined
 * bits, each with its own reserved mask.
 */
#define MAX_FLAGS 16
#define MAX_VARIANTS 4

static int hf_flag[MAX_FLAGS];
static guint16 flag_mask[MAX_FLAGS];
static unsigned n_flags;

typedef struct {
	guint16 defined;            /* vxgbp_flags_defined() of its headers */
	int hf_rsvd;                /* vxgbp.flags.reserved, mask ~defined */
	int *fields[MAX_FLAGS + 2]; /* for proto_tree_add_bitmask, NULL-ended */
} flag_variant_t;

static flag_variant_t variants[MAX_VARIANTS];
static unsigned n_variants;

static const flag_variant_t *variant_for(guint16 defined)
{
	unsigned i;

	for (i = 0; i < n_variants; i++)
		if (variants[i].defined == defined)
			return &variants[i];
	return NULL;
}

/* Every set of defined bits a flags word can have under any profile, and
 * the fields of each. */
static void flag_variants_setup(void)
{
	const struct vxgbp_profile_info *pi;
	unsigned w, i, n, p;

	for (p = 0; (pi = vxgbp_profile_get(p)); p++)
		for (w = 0; w <= 0xffff; w++) {
			guint16 d = vxgbp_flags_defined((uint16_t)w, pi->flagsets);

			if (variant_for(d) || n_variants == MAX_VARIANTS)
				continue;
			variants[n_variants].defined = d;
			variants[n_variants].hf_rsvd = -1;
			n_variants++;
		}
	for (i = 0; i < n_variants; i++) {
		flag_variant_t *v = &variants[i];

		for (n = 0, w = 0; w < n_flags; w++)
			if (flag_mask[w] & v->defined)
				v->fields[n++] = &hf_flag[w];
		v->fields[n++] = &v->hf_rsvd;
		v->fields[n] = NULL;
	}
}

/* The hf entries of the flag fields, built from libvxgbp's tables. */
static void flag_fields_register(void)
{
	const struct vxgbp_flag_info *fi;
	hf_register_info *hf;
	unsigned i, n = 0;

	for (i = 0; (fi = vxgbp_flag_get(i)) && n_flags < MAX_FLAGS; i++) {
		if (!(fi->set & all_flagsets()))
			continue;
		hf_flag[n_flags] = -1;
		flag_mask[n_flags++] = fi->mask;
	}
	flag_variants_setup();
	hf = g_new0(hf_register_info, n_flags + n_variants);
	for (i = 0; (fi = vxgbp_flag_get(i)) && n < n_flags; i++) {
		gchar *abbrev;

		if (!(fi->set & all_flagsets()))
			continue;
		abbrev = g_ascii_strdown(fi->name, -1);
		hf[n].p_id = &hf_flag[n];
		hf[n].hfinfo = (header_field_info) { g_strdup_printf("%s (%s)", fi->text, fi->name),
			g_strdup_printf("vxgbp.flags.%s", abbrev), FT_BOOLEAN, 16,
			TFS(&tfs_set_notset), fi->mask, NULL, HFILL };
		g_free(abbrev);
		n++;
	}
	for (i = 0; i < n_variants; i++, n++) {
		hf[n].p_id = &variants[i].hf_rsvd;
		hf[n].hfinfo = (header_field_info) { "Reserved flags", "vxgbp.flags.reserved",
			FT_UINT16, BASE_HEX, NULL, (guint16)~variants[i].defined,
			"Flag bits with no meaning in this header", HFILL };
	}
	proto_register_field_array(proto_vxgbp, hf, (int)n);
}

/* ------------------------------------------------------------------------
 * Where the VXLAN headers of a frame are.  The first pass finds them in the
 * tree (the postdissector's wanted fields are there only then) and keeps,
 * per frame, where each one is (data source, offset) and what the tracker
 * said; the later passes (the GUI's packet list and details, tshark -2,
 * retaps) read that and need no tree.
 */
/* How a header is read: the one port rule (vxgbp_udp_kind) on the
 * destination port of the UDP datagram that carries it. */
enum {
	AS_VXLAN, /* a VXLAN port: VXLAN(-GBP), or GPE when libvxgbp says so (P bit) */
	AS_GPE,   /* the VXLAN-GPE port: read as GPE (VXGBP_PARSE_GPE) */
	AS_SPORT, /* Wireshark took it for its source port only: not VXLAN to
	             gbpdump or Linux; read as Wireshark did, not tracked */
};

typedef struct {
	guint32 ds;       /* index of its data source in pinfo->data_src */
	guint32 off;      /* offset of the header in it */
	guint16 sport;    /* the UDP datagram that carries it (with have_udp) */
	guint16 dport;
	guint8 have_udp;  /* its UDP header is right before it in the tree */
	guint8 user_port; /* dport is VXLAN by the user's Decode As only */
	guint8 ws_gpe;    /* Wireshark decoded it as VXLAN-GPE */
	guint8 as;        /* AS_* */
} vx_loc_t;

typedef struct {
	guint n;                       /* VXLAN and VXLAN-GPE headers */
	vx_loc_t *loc;                 /* outermost first */
	struct vxgbp_track_result *xf; /* cross-frame findings (loc[0]); NULL: none */
} frame_rec_t;

/* One VXLAN header, as libvxgbp sees it. */
typedef struct {
	tvbuff_t *tvb;           /* its data source from the header on */
	struct vxgbp_pkt *p;     /* libvxgbp's parse */
	guint64 findings;        /* the rules it breaks */
	gboolean outer;          /* p is the whole frame's parse (outer rules judged) */
	gboolean have;           /* the 8 header bytes were there */
	gboolean gpe;            /* libvxgbp reads it as VXLAN-GPE (p->vx_kind) */
	const vx_loc_t *loc;     /* where it is, how it came */
} vx_view_t;

static struct vxgbp_track *file_track; /* one per capture file, lazily */
static gboolean first_pass_treeless;   /* this file had a first pass without a tree */

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

/* Every field of hf in the tree: the primed array when there is one (do
 * not free), else a search of the tree (*owned: free it). */
static GPtrArray *finfos(proto_tree *tree, int hf, gboolean *owned)
{
	GPtrArray *a;

	*owned = FALSE;
	if (!tree || hf < 0)
		return NULL;
	if ((a = proto_get_finfo_ptr_array(tree, hf)))
		return a;
	*owned = TRUE;
	return proto_find_finfo(tree, hf);
}

static void finfos_done(GPtrArray *a, gboolean owned)
{
	if (a && owned)
		g_ptr_array_free(a, TRUE);
}

/* Does the tree hold a field of hf at (ds, start)? */
static field_info *finfo_at(proto_tree *tree, int hf, tvbuff_t *ds, gint start)
{
	gboolean owned;
	GPtrArray *a = finfos(tree, hf, &owned);
	field_info *found = NULL;
	guint i;

	for (i = 0; a && i < a->len && !found; i++) {
		field_info *fi = (field_info *)g_ptr_array_index(a, i);

		if (fi->ds_tvb == ds && fi->start == start)
			found = fi;
	}
	finfos_done(a, owned);
	return found;
}

static tvbuff_t *data_src_tvb(packet_info *pinfo, guint32 idx)
{
	const struct data_source *src = (const struct data_source *)g_slist_nth_data(pinfo->data_src, idx);

	return src ? get_data_source_tvb(src) : NULL;
}

static gint data_src_index(packet_info *pinfo, tvbuff_t *ds)
{
	GSList *l;
	gint i = 0;

	for (l = pinfo->data_src; l; l = l->next, i++)
		if (get_data_source_tvb((const struct data_source *)l->data) == ds)
			return i;
	return -1;
}

/* The protocol id Wireshark's udp.port table gives port to now (its
 * default, or what Decode As made of it); -1 when none. */
static int udp_port_proto(guint16 port)
{
	dissector_handle_t h = udp_port_table ? dissector_get_uint_handle(udp_port_table, port) : NULL;

	return h ? dissector_handle_get_protocol_index(h) : -1;
}

/* The one port rule for a header Wireshark decoded as VXLAN(-GPE):
 * libvxgbp's vxgbp_udp_kind() on the destination port, with a port the
 * user gave Wireshark's vxlan (Decode As) as one more VXLAN port (as
 * gbpdump --port), and a port given to vxlan_gpe as a GPE port.  Without
 * a UDP header before it, it is read as Wireshark decoded it. */
static void port_rule(vx_loc_t *l)
{
	struct vxgbp_parse_opts o;
	int ws;

	if (!l->have_udp) {
		l->as = l->ws_gpe ? AS_GPE : AS_VXLAN;
		return;
	}
	ws = udp_port_proto(l->dport);
	vxgbp_parse_opts_init(&o);
	if (ws >= 0 && ws == proto_vxlan && vxgbp_udp_kind(&o, l->dport) != VXGBP_UDP_VXLAN) {
		(void)vxgbp_parse_opts_add_port(&o, l->dport);
		l->user_port = 1;
	}
	switch (vxgbp_udp_kind(&o, l->dport)) {
	case VXGBP_UDP_VXLAN:
		l->as = AS_VXLAN;
		break;
	case VXGBP_UDP_GPE:
		l->as = AS_GPE;
		break;
	default:
		l->as = ws >= 0 && ws == proto_vxlan_gpe ? AS_GPE : AS_SPORT;
		break;
	}
}

/* Where the i-th "vxlan" item is, the UDP ports before it and how it is
 * read.  FALSE when its data source is not one of the frame's. */
static gboolean loc_of(packet_info *pinfo, proto_tree *tree, const field_info *fi, vx_loc_t *l)
{
	gint ds = fi->ds_tvb ? data_src_index(pinfo, fi->ds_tvb) : -1;
	field_info *dp;

	if (ds < 0 || fi->start < 0 || (guint)fi->start > tvb_captured_length(fi->ds_tvb))
		return FALSE;
	memset(l, 0, sizeof(*l));
	l->ds = (guint32)ds;
	l->off = (guint32)fi->start;
	l->ws_gpe = finfo_at(tree, hf_vxlan_ver, fi->ds_tvb, fi->start) != NULL;
	dp = fi->start >= 6 ? finfo_at(tree, hf_udp_dport, fi->ds_tvb, fi->start - 6) : NULL;
	if (dp && dp->length == 2 && tvb_bytes_exist(fi->ds_tvb, fi->start - 8, 4)) {
		l->have_udp = 1;
		l->sport = tvb_get_ntohs(fi->ds_tvb, fi->start - 8);
		l->dport = tvb_get_ntohs(fi->ds_tvb, fi->start - 6);
	}
	port_rule(l);
	return TRUE;
}

/* The frame's VXLAN and VXLAN-GPE headers from the "vxlan" items of its
 * tree (VXLAN-GPE uses the same protocol item, with a vxlan.ver field at
 * its start), in scope's memory; NULL when there are none. */
static frame_rec_t *frame_rec_find(wmem_allocator_t *scope, packet_info *pinfo, proto_tree *tree)
{
	gboolean owned;
	GPtrArray *all = finfos(tree, hf_vxlan, &owned);
	frame_rec_t *rec = NULL;
	guint i;

	for (i = 0; all && i < all->len; i++) {
		field_info *fi = (field_info *)g_ptr_array_index(all, i);
		vx_loc_t l;

		if (!loc_of(pinfo, tree, fi, &l))
			continue;
		if (!rec) {
			rec = wmem_new0(scope, frame_rec_t);
			rec->loc = wmem_alloc_array(scope, vx_loc_t, all->len);
		}
		rec->loc[rec->n++] = l;
	}
	finfos_done(all, owned);
	return rec;
}

/* The frame's record: found and kept on the first pass, read on the later
 * ones.  Only when a first pass ran without a tree (not Wireshark's way
 * while the postdissector wants fields) is it looked for again. */
static frame_rec_t *frame_rec(packet_info *pinfo, proto_tree *tree)
{
	frame_rec_t *rec;

	if (pinfo->fd->visited) {
		rec = (frame_rec_t *)p_get_proto_data(wmem_file_scope(), pinfo, proto_vxgbp, 0);
		return rec || !first_pass_treeless ? rec : frame_rec_find(pinfo->pool, pinfo, tree);
	}
	if (!tree)
		first_pass_treeless = TRUE;
	rec = frame_rec_find(wmem_file_scope(), pinfo, tree);
	if (rec)
		p_add_proto_data(wmem_file_scope(), pinfo, proto_vxgbp, 0, rec);
	return rec;
}

/* The first header in the frame's own parse: libvxgbp reads the whole
 * frame (its link type), with the destination port of the datagram that
 * carries the header as a VXLAN port too when the user decoded it as VXLAN
 * (Decode As).  TRUE when its parse found this very header; with a parse
 * that stopped before it, the reason (frame.truncated / frame.malformed)
 * is added to v->findings. */
static gboolean frame_parse(tvbuff_t *tvb, packet_info *pinfo, const frame_rec_t *rec,
			    vx_view_t *v)
{
	struct vxgbp_parse_opts opts;
	struct vxgbp_pkt *p;
	guint caplen = tvb_captured_length(tvb), wirelen = tvb_reported_length(tvb);
	int link;

	if (!pinfo->rec || pinfo->rec->rec_type != REC_TYPE_PACKET || rec->loc[0].ds != 0 ||
	    rec->loc[0].as == AS_SPORT || caplen == 0)
		return FALSE;
	link = link_from_encap(pinfo->rec->rec_header.packet_header.pkt_encap);
	if (link < 0)
		return FALSE;
	vxgbp_parse_opts_init(&opts);
	opts.linktype = link;
	if (profile()->flags & VXGBP_PROFILE_NO_CSUM)
		opts.flags |= VXGBP_PARSE_NO_CSUM;
	if (rec->loc[0].user_port)
		(void)vxgbp_parse_opts_add_port(&opts, rec->loc[0].dport);
	p = wmem_new0(pinfo->pool, struct vxgbp_pkt);
	p->size = sizeof(*p);
	vxgbp_pkt_parse(p, tvb_memdup(pinfo->pool, tvb, 0, caplen), caplen,
			MAX(wirelen, caplen), &opts);
	if ((p->have & VXGBP_HAVE_VXLAN) && p->vxlan_off >= 0 &&
	    (guint32)p->vxlan_off == rec->loc[0].off) {
		v->p = p;
		v->findings = p->findings;
		/* the tunnel layers' own (a mirror's checksums): under the
		 * first header, as gbpdump --json lists them with the frame's */
		for (unsigned k = 0; k < p->n_encap && k < VXGBP_MAX_ENCAP; k++)
			v->findings |= p->encap_findings[k];
		v->outer = TRUE;
		return TRUE;
	}
	if (!(p->have & VXGBP_HAVE_VXLAN) && p->err && p->err_off >= 0 &&
	    (guint32)p->err_off <= rec->loc[0].off)
		v->findings |= p->findings &
			       (VXGBP_RB(VXGBP_R_TRUNCATED) | VXGBP_RB(VXGBP_R_MALFORMED));
	return FALSE;
}

/* libvxgbp's view of the i-th header: the bytes from there to the end of
 * its data source (the first one in the whole frame's parse when that
 * reaches it).  FALSE when its data source is gone. */
static gboolean view_parse(tvbuff_t *tvb, packet_info *pinfo, const frame_rec_t *rec, guint i,
			   vx_view_t *v)
{
	const vx_loc_t *l = &rec->loc[i];
	tvbuff_t *ds = data_src_tvb(pinfo, l->ds);
	guint off = l->off, caplen, wirelen;
	struct vxgbp_parse_opts opts;

	memset(v, 0, sizeof(*v));
	if (!ds || off > tvb_captured_length(ds))
		return FALSE;
	v->loc = l;
	caplen = tvb_captured_length(ds) - off;
	wirelen = tvb_reported_length(ds) > off ? tvb_reported_length(ds) - off : 0;
	v->tvb = tvb_new_subset_remaining(ds, (gint)off);
	if (i != 0 || !frame_parse(tvb, pinfo, rec, v)) {
		/* a GPE port, or (source port only) what Wireshark took it for */
		vxgbp_parse_opts_init(&opts);
		if (l->as == AS_GPE || (l->as == AS_SPORT && l->ws_gpe))
			opts.flags |= VXGBP_PARSE_GPE;
		v->p = wmem_new0(pinfo->pool, struct vxgbp_pkt);
		v->p->size = sizeof(*v->p);
		vxgbp_pkt_parse_vxlan(v->p, caplen ? tvb_memdup(pinfo->pool, ds, (gint)off, caplen)
						   : NULL, caplen, MAX(wirelen, caplen), &opts);
		v->findings |= v->p->findings;
	}
	v->have = (v->p->have & VXGBP_HAVE_VXLAN) != 0;
	v->gpe = v->have && v->p->vx_kind == VXGBP_VX_GPE;
	/* The port rule holds for findings too: a header no receiver takes as
	 * VXLAN (Wireshark decoded it for its source port) breaks no VXLAN
	 * rule, as gbpdump, which does not decode it, finds none. */
	if (l->as == AS_SPORT)
		v->findings = 0;
	else
		v->findings = vxgbp_profile_findings((unsigned)pref_profile, &v->p->vx,
						     (enum vxgbp_vx_kind)v->p->vx_kind, v->findings);
	return TRUE;
}

/* ------------------------------------------------------------------------
 * Cross-frame findings: the file's tracker is fed the outermost header of
 * each frame on the first pass, in frame order; what it finds is kept with
 * the frame for every later pass.
 */
static void *track_zalloc(void *ctx _U_, size_t size)
{
	return g_try_malloc0(size);
}

static void track_free(void *ctx _U_, void *ptr, size_t size _U_)
{
	g_free(ptr);
}

struct vxgbp_track *vxgbp_plugin_track_new(unsigned what)
{
	struct vxgbp_track_opts o;
	struct vxgbp_track *t = (struct vxgbp_track *)g_malloc0(vxgbp_track_size());

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.what = what;
	o.zalloc = track_zalloc;
	o.free = track_free;
	o.fabric = (unsigned)pref_fabric;
	if (vxgbp_track_init(t, &o) < 0) {
		g_free(t);
		return NULL;
	}
	return t;
}

void vxgbp_plugin_track_free(struct vxgbp_track *t)
{
	if (!t)
		return;
	vxgbp_track_fini(t);
	g_free(t);
}

static const struct vxgbp_track_result *xframe_of(packet_info *pinfo, frame_rec_t *rec,
						  const vx_view_t *v)
{
	struct vxgbp_track_result r;

	if (pinfo->fd->visited)
		return rec->xf;
	if (!file_track)
		file_track = vxgbp_plugin_track_new(VXGBP_TRACK_RULES);
	if (!file_track)
		return NULL;
	(void)vxgbp_track_frame(file_track, v->p, pinfo->num, &r);
	if (r.findings || r.full)
		rec->xf = (struct vxgbp_track_result *)wmem_memdup(wmem_file_scope(), &r, sizeof(r));
	return rec->xf;
}

/* ------------------------------------------------------------------------
 * The tree.
 */
static unsigned n_bits(guint64 f)
{
	unsigned n = 0;

	for (; f; f &= f - 1)
		n++;
	return n;
}

static const char *verdict_str(wmem_allocator_t *pool, const struct vxgbp_hdr *h,
			       unsigned dev_flags)
{
	struct vxgbp_verdict v;

	vxgbp_verdict_linux(h, dev_flags, &v);
	if (v.accept)
		return "accept";
	return wmem_strdup_printf(pool, "drop (%s)", vxgbp_drop_name(v.why));
}

static void add_flags(proto_tree *vt, tvbuff_t *tvb, const struct vxgbp_hdr *h)
{
	const flag_variant_t *var = variant_for(vxgbp_flags_defined(h->flags, flagset()));
	char txt[VXGBP_FLAGS_STRLEN];
	proto_item *it;

	if (vxgbp_flags_format(txt, sizeof(txt), h->flags, flagset()) < 0)
		txt[0] = '\0';
	if (var)
		it = proto_tree_add_bitmask_with_flags(vt, tvb, 0, hf_flags, ett_flags, var->fields,
						       ENC_BIG_ENDIAN, BMT_NO_APPEND);
	else
		it = proto_tree_add_item(vt, hf_flags, tvb, 0, 2, ENC_BIG_ENDIAN);
	proto_item_append_text(it, " (%s)", txt[0] ? txt : "none");
}

/* Flags, group, VNI, reserved byte: the 8 bytes, where they are. */
static void add_header(proto_tree *vt, proto_item *ti, const vx_view_t *v)
{
	const struct vxgbp_hdr *h = &v->p->vx;
	const char *name = vxgbp_hdr_has_gbp(h) ? vxgbp_plugin_group_name(h->group) : NULL;
	char txt[VXGBP_FLAGS_STRLEN];
	proto_item *it;

	if (vxgbp_flags_format(txt, sizeof(txt), h->flags, flagset()) < 0)
		txt[0] = '\0';
	proto_item_append_text(ti, ", VNI: %u", h->vni);
	if (vxgbp_hdr_has_gbp(h))
		proto_item_append_text(ti, ", Group: 0x%04x%s%s%s", h->group, name ? " (" : "",
				       name ? name : "", name ? ")" : "");
	proto_item_append_text(ti, ", Flags: %s", txt[0] ? txt : "none");
	add_flags(vt, v->tvb, h);
	if (vxgbp_hdr_has_gbp(h)) {
		it = proto_tree_add_item(vt, hf_group, v->tvb, 2, 2, ENC_BIG_ENDIAN);
		if (name)
			proto_item_append_text(it, " (%s)", name);
	} else {
		proto_tree_add_item(vt, hf_group_rsvd, v->tvb, 2, 2, ENC_BIG_ENDIAN);
	}
	proto_tree_add_item(vt, hf_vni, v->tvb, 4, 3, ENC_BIG_ENDIAN);
	proto_tree_add_item(vt, hf_rsvd, v->tvb, 7, 1, ENC_BIG_ENDIAN);
	if (name) {
		it = proto_tree_add_string(vt, hf_group_name, v->tvb, 2, 2, name);
		proto_item_set_generated(it);
	}
}

/* A VXLAN-GPE header: its flag word, reserved byte, Next Protocol, VNI and
 * reserved byte; no group, no D, no A (GBP's ID covers GPE's Next
 * Protocol). */
static void add_gpe_header(proto_tree *vt, proto_item *ti, const vx_view_t *v)
{
	const struct vxgbp_hdr *h = &v->p->vx;
	guint8 np = vxgbp_gpe_next_proto(h);
	const char *name = vxgbp_gpe_np_name(np);
	proto_item *it;

	proto_item_append_text(ti, ", VXLAN-GPE, VNI: %u, Next Protocol: %s (%u)", h->vni,
			       name ? name : "unknown", np);
	proto_tree_add_bitmask(vt, v->tvb, 0, hf_gpe_flags, ett_gpe_flags, gpe_flag_fields,
			       ENC_BIG_ENDIAN);
	proto_tree_add_item(vt, hf_gpe_rsvd, v->tvb, 2, 1, ENC_BIG_ENDIAN);
	it = proto_tree_add_item(vt, hf_gpe_np, v->tvb, 3, 1, ENC_BIG_ENDIAN);
	proto_item_append_text(it, " (%s)", name ? name : "unknown");
	proto_tree_add_item(vt, hf_vni, v->tvb, 4, 3, ENC_BIG_ENDIAN);
	proto_tree_add_item(vt, hf_rsvd, v->tvb, 7, 1, ENC_BIG_ENDIAN);
}

/* How the header is read (libvxgbp's reading) and the port that made it
 * VXLAN; a note when only the source port did. */
static void add_port(proto_tree *vt, packet_info *pinfo, const vx_view_t *v)
{
	const vx_loc_t *l = v->loc;
	proto_item *it;

	if (v->have) {
		it = proto_tree_add_uint(vt, hf_kind, v->tvb, 0, 0, v->p->vx_kind);
		proto_item_set_generated(it);
	}
	if (!l->have_udp)
		return;
	it = proto_tree_add_uint(vt, hf_dstport, v->tvb, 0, 0, l->dport);
	proto_item_set_generated(it);
	it = proto_tree_add_boolean(vt, hf_taken, v->tvb, 0, 0, l->as != AS_SPORT);
	proto_item_set_generated(it);
	if (l->as == AS_SPORT)
		expert_add_info_format(pinfo, it, &ei_source_port,
				       "UDP %u -> %u: decoded as VXLAN for its source port only; gbpdump "
				       "and Linux take VXLAN by destination port and do not take this "
				       "(not fed to the cross-frame analysis)", l->sport, l->dport);
}

/* What a Linux VTEP would make of it. */
static void add_linux(proto_tree *vt, packet_info *pinfo, const vx_view_t *v)
{
	const struct vxgbp_hdr *h = &v->p->vx;
	proto_tree *lt;
	proto_item *it;

	lt = proto_tree_add_subtree(vt, v->tvb, 0, VXGBP_HDR_LEN, ett_linux, &it,
				    "Linux receive (vxlan_rcv)");
	proto_item_set_generated(it);
	if (!v->gpe) { /* a GPE header has no group: no mark */
		it = proto_tree_add_uint(lt, hf_mark, v->tvb, 0, VXGBP_HDR_LEN,
					 vxgbp_mark_from_hdr(h));
		proto_item_set_generated(it);
	}
	it = proto_tree_add_string(lt, hf_verdict_gbp, v->tvb, 0, VXGBP_HDR_LEN,
				   verdict_str(pinfo->pool, h, VXGBP_DEV_GBP));
	proto_item_set_generated(it);
	it = proto_tree_add_string(lt, hf_verdict_nogbp, v->tvb, 0, VXGBP_HDR_LEN,
				   verdict_str(pinfo->pool, h, 0));
	proto_item_set_generated(it);
}

/* The earlier frame of a cross-frame hit, with what it carried. */
static void add_xframe_hit(proto_tree *xt, const vx_view_t *v, const struct vxgbp_track_hit *hit)
{
	char txt[VXGBP_FLAGS_STRLEN];
	proto_tree *ht;
	proto_item *pi;

	pi = proto_tree_add_uint(xt, hf_xframe_prev, v->tvb, 0, 0, (guint32)hit->prev_frame);
	proto_item_set_generated(pi);
	ht = proto_item_add_subtree(pi, ett_xframe_hit);
	pi = proto_tree_add_uint(ht, hf_xframe_group, v->tvb, 0, 0, hit->prev_group);
	proto_item_set_generated(pi);
	if (vxgbp_flags_format(txt, sizeof(txt), hit->prev_flags, flagset()) < 0)
		txt[0] = '\0';
	pi = proto_tree_add_uint_format_value(ht, hf_xframe_flags, v->tvb, 0, 0, hit->prev_flags,
					      "0x%04x (%s)", hit->prev_flags, txt[0] ? txt : "none");
	proto_item_set_generated(pi);
	pi = proto_tree_add_string(ht, hf_xframe_key, v->tvb, 0, 0,
				   vxgbp_track_key_name(hit->key) ? vxgbp_track_key_name(hit->key) : "?");
	proto_item_set_generated(pi);
}

/* One cross-frame finding: the rule, and every earlier frame it
 * contradicts (the tracker may match it on more than one key). */
static void add_xframe_rule(proto_tree *ft, packet_info *pinfo, const vx_view_t *v,
			    const struct vxgbp_track_result *r, unsigned rule)
{
	const struct vxgbp_rule_info *ri = vxgbp_rule_get(rule);
	proto_tree *xt;
	proto_item *it;
	unsigned i, j;

	it = proto_tree_add_string(ft, hf_finding, v->tvb, 0, 0, ri->id);
	proto_item_set_generated(it);
	xt = proto_item_add_subtree(it, ett_xframe);
	for (i = 0; i < r->n_hits && i < VXGBP_TRACK_MAX_HITS; i++) {
		const struct vxgbp_track_hit *hit = &r->hit[i];

		if (hit->rule != rule || hit->prev_frame > G_MAXUINT32)
			continue;
		for (j = 0; j < i; j++)
			if (r->hit[j].rule == rule && r->hit[j].prev_frame == hit->prev_frame)
				break;
		if (j == i)
			add_xframe_hit(xt, v, hit);
	}
	expert_add_info(pinfo, it, &ei_rule[rule]);
}

/* Findings: one string item each, with its expert info. */
static void add_findings(proto_tree *vt, packet_info *pinfo, const vx_view_t *v,
			 const struct vxgbp_track_result *x)
{
	guint64 xf = x ? x->findings : 0;
	proto_tree *ft;
	proto_item *it;
	unsigned r;

	if (!v->findings && !xf && !(x && x->full))
		return;
	ft = proto_tree_add_subtree_format(vt, v->tvb, 0, 0, ett_findings, &it, "Findings: %u",
					   n_bits(v->findings | xf));
	proto_item_set_generated(it);
	for (r = 0; r < VXGBP_R__COUNT; r++) {
		const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

		if (!ri)
			continue;
		if (xf & VXGBP_RB(r)) {
			add_xframe_rule(ft, pinfo, v, x, r);
		} else if (v->findings & VXGBP_RB(r)) {
			it = proto_tree_add_string(ft, hf_finding, v->tvb, 0, 0, ri->id);
			proto_item_set_generated(it);
			expert_add_info(pinfo, it, &ei_rule[r]);
		}
	}
	if (x && x->full) {
		it = proto_tree_add_subtree(ft, v->tvb, 0, 0, ett_xframe, NULL,
					    "Cross-frame tables full: some of this frame's keys not tracked");
		proto_item_set_generated(it);
	}
}

static void add_view(proto_tree *tree, packet_info *pinfo, const vx_view_t *v,
		     const struct vxgbp_track_result *x)
{
	guint caplen = tvb_captured_length(v->tvb);
	proto_item *ti, *it;
	proto_tree *vt;

	ti = proto_tree_add_item(tree, proto_vxgbp, v->tvb, 0, MIN(caplen, VXGBP_HDR_LEN), ENC_NA);
	vt = proto_item_add_subtree(ti, ett_vxgbp);
	if (v->have && v->gpe)
		add_gpe_header(vt, ti, v);
	else if (v->have)
		add_header(vt, ti, v);
	else
		proto_item_append_text(ti, ", header cut short");
	if (v->loc->as == AS_SPORT)
		proto_item_append_text(ti, ", UDP source port only");
	add_port(vt, pinfo, v);
	it = proto_tree_add_boolean(vt, hf_outer, v->tvb, 0, 0, v->outer);
	proto_item_set_generated(it);
	/* the receiver of a VXLAN port: a Linux VXLAN device */
	if (v->have && v->loc->as == AS_VXLAN)
		add_linux(vt, pinfo, v);
	add_findings(vt, pinfo, v, x);
	if (v->findings || (x && x->findings))
		proto_item_append_text(ti, ", Findings: %u", n_bits(v->findings | (x ? x->findings : 0)));
}

/* ------------------------------------------------------------------------
 * The Info column: what gbpdump prints for the header ("VXLAN-GBP vni 100
 * flags [G,I] group 512 (0x0200) web", MUST-level findings as [!rule]),
 * one per header, outermost first, then ": " and what Wireshark's
 * dissectors wrote (the inner frame's Info).
 */
static void info_append(packet_info *pinfo, wmem_strbuf_t *s, const vx_view_t *v,
			guint64 findings)
{
	const struct vxgbp_hdr *h = &v->p->vx;
	enum vxgbp_vx_kind kind = v->gpe ? VXGBP_VX_GPE : VXGBP_VX_VXLAN;
	const char *name = !v->gpe && vxgbp_hdr_has_gbp(h) ? vxgbp_plugin_group_name(h->group)
							    : NULL;
	size_t len = VXGBP_HDR_SUMMARY_LEN + (name ? strlen(name) : 0);
	char *txt = (char *)wmem_alloc(pinfo->pool, len);
	unsigned r;

	if (wmem_strbuf_get_len(s))
		wmem_strbuf_append(s, ": ");
	if (!v->have)
		wmem_strbuf_append(s, "VXLAN [|vxlan]");
	else if (vxgbp_hdr_summary(txt, len, h, kind, flagset(), name) >= 0)
		wmem_strbuf_append(s, txt);
	for (r = 0; r < VXGBP_R__COUNT; r++) {
		const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

		if ((findings & VXGBP_RB(r)) && ri &&
		    vxgbp_profile_level((unsigned)pref_profile, r, h) == VXGBP_LEVEL_MUST)
			wmem_strbuf_append_printf(s, " [!%s]", ri->id);
	}
	if (v->loc->as == AS_SPORT)
		wmem_strbuf_append_printf(s, " [UDP source port %u only]", v->loc->sport);
}

static void info_prepend(packet_info *pinfo, wmem_strbuf_t *s)
{
	const char *cur = col_get_text(pinfo->cinfo, COL_INFO);

	if (!wmem_strbuf_get_len(s))
		return;
	if (cur && *cur)
		col_prepend_fstr(pinfo->cinfo, COL_INFO, "%s: ", wmem_strbuf_get_str(s));
	else
		col_add_str(pinfo->cinfo, COL_INFO, wmem_strbuf_get_str(s));
}

/* ------------------------------------------------------------------------
 * The postdissector.
 */
/* Did the whole frame's parse (fp: the first header's) reach a header at
 * off of the frame itself?  One it did not reach (inside a header libvxgbp
 * cannot decode through, e.g. GPE with an unknown Next Protocol) is no
 * VXLAN to gbpdump: no finding, as for a source port. */
static gboolean frame_reaches(const struct vxgbp_pkt *fp, guint32 off)
{
	unsigned k;

	for (k = 0; k < fp->n_nested && k < VXGBP_MAX_NESTED; k++)
		if (fp->nested[k].off >= 0 && (guint32)fp->nested[k].off == off)
			return TRUE;
	return fp->vxlan_off >= 0 && (guint32)fp->vxlan_off == off;
}

/* The header of rec the cross-frame findings belong to: the fabric
 * header the tracker followed (vxgbp_pkt_fabric() of fp, the whole
 * frame's parse), found among rec's headers by its offset in the frame;
 * 0 (the first) without fp or when it is not among them. */
static guint fabric_loc(const frame_rec_t *rec, const struct vxgbp_pkt *fp)
{
	int k = fp ? vxgbp_pkt_fabric(fp, (unsigned)pref_fabric) : 0;
	int off;
	guint i;

	if (k <= 0 || k > fp->n_nested || k > VXGBP_MAX_NESTED)
		return 0;
	off = fp->nested[k - 1].off;
	for (i = 0; off >= 0 && i < rec->n; i++)
		if (rec->loc[i].ds == 0 && rec->loc[i].off == (guint32)off)
			return i;
	return 0;
}

static void tap_frame(packet_info *pinfo, const vx_view_t *v, guint64 findings)
{
	vxgbp_tap_info_t *tap = wmem_new0(pinfo->pool, vxgbp_tap_info_t);

	tap->pkt = v->p;
	tap->frame_len = pinfo->fd->pkt_len;
	tap->findings = findings;
	tap_queue_packet(vxgbp_tap, pinfo, tap);
}

static int dissect_vxgbp_post(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			      void *data _U_)
{
	const struct vxgbp_pkt *fp = NULL; /* the whole frame's parse */
	const struct vxgbp_track_result *xf = NULL; /* the tracker's on this frame */
	wmem_strbuf_t *info;
	frame_rec_t *rec;
	guint i, fab = 0;

	if (hf_vxlan < 0 || !pinfo->fd || !(rec = frame_rec(pinfo, tree)))
		return 0;
	info = wmem_strbuf_new(pinfo->pool, "");
	for (i = 0; i < rec->n; i++) {
		const struct vxgbp_track_result *x;
		guint64 all;
		vx_view_t v;

		if (!view_parse(tvb, pinfo, rec, i, &v))
			continue;
		if (i == 0 && v.outer)
			fp = v.p;
		else if (fp && rec->loc[i].ds == 0 && !frame_reaches(fp, rec->loc[i].off))
			v.findings = 0;
		/* the outermost header, when it is VXLAN by the port rule, as
		 * gbpdump feeds its tracker and counts; the tracker's findings
		 * are shown on the header it followed, as gbpdump locates them */
		if (i == 0 && rec->loc[0].as != AS_SPORT) {
			xf = xframe_of(pinfo, rec, &v);
			fab = fabric_loc(rec, fp);
			tap_frame(pinfo, &v, v.findings | (xf ? xf->findings : 0));
		}
		x = i == fab ? xf : NULL;
		all = v.findings | (x ? x->findings : 0);
		/* without a tree too: the expert infos are tapped */
		add_view(tree, pinfo, &v, x);
		info_append(pinfo, info, &v, all);
	}
	info_prepend(pinfo, info);
	return tvb_captured_length(tvb);
}

/* Per capture file: the tracker starts empty; the postdissector asks for
 * the vxlan items only while the protocol is enabled (a disabled vxgbp
 * leaves Wireshark exactly as without the plugin). */
static void vxgbp_init(void)
{
	GArray *want;

	vxgbp_plugin_track_free(file_track);
	file_track = NULL;
	first_pass_treeless = FALSE;
	if (!proto_is_protocol_enabled(find_protocol_by_id(proto_vxgbp)) || hf_vxlan < 0) {
		set_postdissector_wanted_hfids(post_handle, NULL);
		return;
	}
	want = g_array_new(FALSE, FALSE, (guint)sizeof(int));
	g_array_append_val(want, hf_vxlan);
	if (hf_vxlan_ver >= 0)
		g_array_append_val(want, hf_vxlan_ver);
	if (hf_udp_dport >= 0)
		g_array_append_val(want, hf_udp_dport);
	set_postdissector_wanted_hfids(post_handle, want);
}

static void vxgbp_cleanup(void)
{
	vxgbp_plugin_track_free(file_track);
	file_track = NULL;
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
	unsigned cats;

	if (!ri)
		return e;
	/* "gbp.i-flag-clear" -> "vxgbp.rule.gbp.i_flag_clear" */
	abbrev = g_string_new("vxgbp.rule.");
	for (c = ri->id; *c; c++)
		g_string_append_c(abbrev, *c == '-' ? '_' : *c);
	e.name = g_string_free(abbrev, FALSE);
	e.summary = g_strdup_printf("%s [%s]", ri->text, ri->id);
	e.severity = ri->level == VXGBP_LEVEL_MUST ? PI_WARN
		   : ri->level == VXGBP_LEVEL_SHOULD ? PI_NOTE : PI_CHAT;
	/* the expert group from the rule's categories (libvxgbp's table) */
	cats = vxgbp_rule_cats(rule);
	if (cats & VXGBP_CAT_MALFORMED) {
		e.group = PI_MALFORMED;
		e.severity = PI_ERROR;
	} else if (cats & VXGBP_CAT_TRUNCATED) {
		e.group = PI_MALFORMED;
	} else if (cats & VXGBP_CAT_CHECKSUM) {
		e.group = PI_CHECKSUM;
	} else if (cats & VXGBP_CAT_UNDECODED) {
		e.group = PI_UNDECODED;
	} else if (cats & VXGBP_CAT_CROSS_FRAME) {
		e.group = PI_SEQUENCE;
	}
	return e;
}

static void expert_register(void)
{
	ei_register_info *ei = g_new0(ei_register_info, VXGBP_R__COUNT);
	static ei_register_info ei_port[] = {
		{ &ei_source_port, { "vxgbp.source_port_only", PI_PROTOCOL, PI_NOTE,
				     "Decoded as VXLAN for its UDP source port only: gbpdump and Linux "
				     "do not take it as VXLAN", EXPFILL } },
	};
	expert_module_t *expert;
	unsigned r;

	/* One per rule, from libvxgbp's rule table; the strings live as long
	 * as the process. */
	for (r = 0; r < VXGBP_R__COUNT; r++) {
		ei_rule[r].ei = EI_INIT_EI;
		ei_rule[r].hf = EI_INIT_HF;
		ei[r].ids = &ei_rule[r];
		ei[r].eiinfo = ei_template(r);
	}
	expert = expert_register_protocol(proto_vxgbp);
	expert_register_field_array(expert, ei, VXGBP_R__COUNT);
	expert_register_field_array(expert, ei_port, array_length(ei_port));
}

/* The profiles as the preference's values (strings live as long as the
 * process). */
static const enum_val_t *profile_enum(void)
{
	const struct vxgbp_profile_info *pi;
	enum_val_t *v;
	unsigned n, i;

	for (n = 0; vxgbp_profile_get(n); n++)
		;
	v = g_new0(enum_val_t, n + 1);
	for (i = 0; (pi = vxgbp_profile_get(i)); i++) {
		v[i].name = pi->name;
		v[i].description = g_strdup_printf("%s: %s", pi->name, pi->text);
		v[i].value = (gint)i;
	}
	return v;
}

/* The fabric header modes, by libvxgbp's names. */
static const enum_val_t *fabric_enum(void)
{
	static const char *const what[] = {
		"the first header with G walking inward, else the innermost",
		"the first header", "the innermost header",
	};
	enum_val_t *v = g_new0(enum_val_t, G_N_ELEMENTS(what) + 1);
	unsigned i;

	for (i = 0; i < G_N_ELEMENTS(what) && vxgbp_fabric_name(i); i++) {
		v[i].name = vxgbp_fabric_name(i);
		v[i].description = g_strdup_printf("%s: %s", vxgbp_fabric_name(i), what[i]);
		v[i].value = (gint)i;
	}
	return v;
}

static void prefs_apply_cb(void)
{
	vxgbp_groups_apply();
}

static void prefs_register(void)
{
	module_t *module = prefs_register_protocol(proto_vxgbp, prefs_apply_cb);

	/* vxgbp took UDP 4789/8472 up to 1.0; Wireshark's vxlan has them now. */
	prefs_register_obsolete_preference(module, "udp.port");
	prefs_register_enum_preference(module, "profile", "Conformance profile",
				       "The level each rule is judged at and the flag bits that carry "
				       "a meaning: libvxgbp's profiles, as gbpdump --profile",
				       &pref_profile, profile_enum(), FALSE);
	prefs_register_enum_preference(module, "fabric_header", "Fabric header",
				       "The VXLAN header the cross-frame findings and the statistics "
				       "follow when a frame has several (through a mirror), as "
				       "gbpdump --fabric-header",
				       &pref_fabric, fabric_enum(), FALSE);
	vxgbp_groups_register(module);
}

static void proto_register_vxgbp(void)
{
	static hf_register_info hf[] = {
		{ &hf_flags, { "Flags", "vxgbp.flags", FT_UINT16, BASE_HEX, NULL, 0x0,
			       "Bytes 0-1 of the header", HFILL } },
		{ &hf_group, { "Group Policy ID", "vxgbp.group", FT_UINT16, BASE_HEX_DEC, NULL, 0x0,
			       NULL, HFILL } },
		{ &hf_group_rsvd, { "Reserved (no Group Policy ID)", "vxgbp.group_reserved", FT_UINT16,
				    BASE_HEX, NULL, 0x0, "Bytes 2-3 when the header has no Group Policy ID",
				    HFILL } },
		{ &hf_vni, { "VNI", "vxgbp.vni", FT_UINT24, BASE_DEC, NULL, 0x0,
			     "VXLAN Network Identifier", HFILL } },
		{ &hf_rsvd, { "Reserved", "vxgbp.reserved", FT_UINT8, BASE_HEX, NULL, 0x0,
			      "Byte 7", HFILL } },
		{ &hf_group_name, { "Group name", "vxgbp.group_name", FT_STRING, BASE_NONE, NULL, 0x0,
				    "From the vxgbp_groups table or the group names file", HFILL } },
		{ &hf_outer, { "Outer headers judged", "vxgbp.outer", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
			       "The whole frame was parsed up to this header, so the rules on the outer "
			       "IP/UDP headers were judged", HFILL } },
		{ &hf_mark, { "skb->mark on a gbp device", "vxgbp.mark", FT_UINT32, BASE_HEX, NULL, 0x0,
			      "The mark a Linux VXLAN device with gbp sets (0 without a Group Policy ID)",
			      HFILL } },
		{ &hf_verdict_gbp, { "Verdict of a gbp device", "vxgbp.verdict.gbp", FT_STRING,
				     BASE_NONE, NULL, 0x0, "Linux vxlan_rcv() on a device with gbp", HFILL } },
		{ &hf_verdict_nogbp, { "Verdict of a non-gbp device", "vxgbp.verdict.nogbp", FT_STRING,
				       BASE_NONE, NULL, 0x0, "Linux vxlan_rcv() on a device without gbp",
				       HFILL } },
		{ &hf_finding, { "Finding", "vxgbp.finding", FT_STRING, BASE_NONE, NULL, 0x0,
				 "Rule id (as in gbpdump --check)", HFILL } },
		{ &hf_xframe_prev, { "Earlier frame", "vxgbp.xframe.prev", FT_FRAMENUM, BASE_NONE,
				     FRAMENUM_TYPE(FT_FRAMENUM_NONE), 0x0,
				     "The earlier frame this cross-frame finding contradicts", HFILL } },
		{ &hf_xframe_group, { "Its Group Policy ID", "vxgbp.xframe.prev_group", FT_UINT16,
				      BASE_HEX_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_xframe_flags, { "Its flags", "vxgbp.xframe.prev_flags", FT_UINT16, BASE_HEX,
				      NULL, 0x0, NULL, HFILL } },
		{ &hf_xframe_key, { "Matched on", "vxgbp.xframe.key", FT_STRING, BASE_NONE,
				    NULL, 0x0, "What the two frames share: the inner frame, "
				    "the source MAC or IP, or the flow", HFILL } },
		{ &hf_kind, { "Read as", "vxgbp.kind", FT_UINT8, BASE_DEC, VALS(kind_vals), 0x0,
			      "How libvxgbp reads the header: VXLAN(-GBP) or VXLAN-GPE (the "
			      "destination port, and the P bit on a VXLAN port)", HFILL } },
		{ &hf_dstport, { "UDP destination port", "vxgbp.udp.dstport", FT_UINT16, BASE_DEC,
				 NULL, 0x0, "Of the datagram that carries the header", HFILL } },
		{ &hf_taken, { "VXLAN by its destination port", "vxgbp.udp.taken", FT_BOOLEAN,
			       BASE_NONE, NULL, 0x0, "The one port rule (libvxgbp vxgbp_udp_kind, "
			       "as gbpdump and Linux): the destination port is a VXLAN or GPE "
			       "port, or one decoded as vxlan (Decode As)", HFILL } },
		{ &hf_gpe_flags, { "GPE flags", "vxgbp.gpe.flags", FT_UINT16, BASE_HEX, NULL, 0x0,
				   "Bytes 0-1 of a VXLAN-GPE header", HFILL } },
		{ &hf_gpe_ver, { "Version", "vxgbp.gpe.flags.version", FT_UINT16, BASE_DEC, NULL,
				 VXGBP_GPE_F_VER, NULL, HFILL } },
		{ &hf_gpe_i, { "VNI valid (I)", "vxgbp.gpe.flags.i", FT_BOOLEAN, 16,
			       TFS(&tfs_set_notset), VXGBP_F_I, NULL, HFILL } },
		{ &hf_gpe_p, { "Next Protocol present (P)", "vxgbp.gpe.flags.p", FT_BOOLEAN, 16,
			       TFS(&tfs_set_notset), VXGBP_GPE_F_P, NULL, HFILL } },
		{ &hf_gpe_b, { "BUM traffic (B)", "vxgbp.gpe.flags.b", FT_BOOLEAN, 16,
			       TFS(&tfs_set_notset), VXGBP_GPE_F_B, NULL, HFILL } },
		{ &hf_gpe_o, { "OAM (O)", "vxgbp.gpe.flags.o", FT_BOOLEAN, 16,
			       TFS(&tfs_set_notset), VXGBP_GPE_F_O, NULL, HFILL } },
		{ &hf_gpe_rsvd_flags, { "Reserved flags", "vxgbp.gpe.flags.reserved", FT_UINT16,
					BASE_HEX, NULL, VXGBP_GPE_F_RSVD, NULL, HFILL } },
		{ &hf_gpe_rsvd, { "Reserved", "vxgbp.gpe.reserved", FT_UINT8, BASE_HEX, NULL, 0x0,
				  "Byte 2 of a VXLAN-GPE header", HFILL } },
		{ &hf_gpe_np, { "Next Protocol", "vxgbp.gpe.next_proto", FT_UINT8, BASE_DEC, NULL,
				0x0, "Byte 3 of a VXLAN-GPE header", HFILL } },
	};
	static gint *ett[] = { &ett_vxgbp, &ett_flags, &ett_linux, &ett_findings, &ett_xframe,
				&ett_xframe_hit, &ett_gpe_flags };

	proto_vxgbp = proto_register_protocol("VXLAN Group Policy (libvxgbp)", "VXLAN-GBP", "vxgbp");
	proto_register_field_array(proto_vxgbp, hf, array_length(hf));
	flag_fields_register();
	proto_register_subtree_array(ett, array_length(ett));
	expert_register();

	post_handle = create_dissector_handle(dissect_vxgbp_post, proto_vxgbp);
	register_postdissector(post_handle);
	register_init_routine(vxgbp_init);
	register_cleanup_routine(vxgbp_cleanup);

	prefs_register();
	vxgbp_tap = register_tap("vxgbp");
}

static void proto_reg_handoff_vxgbp(void)
{
	hf_vxlan = proto_get_id_by_filter_name("vxlan");
	hf_vxlan_ver = proto_registrar_get_id_byname("vxlan.ver");
	proto_vxlan = proto_get_id_by_filter_name("vxlan");
	proto_vxlan_gpe = proto_get_id_by_filter_name("vxlan_gpe");
	udp_port_table = find_dissector_table("udp.port");
	hf_udp_dport = proto_registrar_get_id_byname("udp.dstport");
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
