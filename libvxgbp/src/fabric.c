// SPDX-License-Identifier: BSD-2-Clause
/*
 * fabric.c - which of a frame's VXLAN headers the analysis is about.
 *
 * A capture taken through a mirror (AWS Traffic Mirroring, Azure's virtual
 * network TAP: UDP 4789, the VNI naming the mirror session, I set, G clear)
 * holds the fabric's VXLAN(-GBP) frame inside the mirror's VXLAN header.
 * The header that carries the policy is the first one with G walking
 * inward; a frame without G anywhere is plain VXLAN, and there the
 * innermost header is the tenant's, since a mirror wraps, never unwraps.
 */
#include <stddef.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

static const char *const fabric_names[] = {
	[VXGBP_FABRIC_GBP] = "gbp",
	[VXGBP_FABRIC_FIRST] = "first",
	[VXGBP_FABRIC_INNERMOST] = "innermost",
};

const char *vxgbp_fabric_name(unsigned mode)
{
	return mode < sizeof(fabric_names) / sizeof(fabric_names[0]) ? fabric_names[mode] : NULL;
}

int vxgbp_fabric_lookup(const char *name)
{
	for (unsigned m = 0; name && m < sizeof(fabric_names) / sizeof(fabric_names[0]); m++)
		if (!strcmp(name, fabric_names[m]))
			return (int)m;
	return VXGBP_E_INVAL;
}

/* The headers from the first inward: 0 is p->vx, k is p->nested[k - 1]. */
static const struct vxgbp_hdr *header_at(const struct vxgbp_pkt *p, unsigned k)
{
	return k ? &p->nested[k - 1].vx : &p->vx;
}

int vxgbp_pkt_fabric(const struct vxgbp_pkt *p, unsigned mode)
{
	unsigned n;

	if (!p || !vxgbp_fabric_name(mode))
		return VXGBP_E_INVAL;
	if (!(p->have & VXGBP_HAVE_VXLAN))
		return 0;
	n = 1u + (p->n_nested < VXGBP_MAX_NESTED ? p->n_nested : VXGBP_MAX_NESTED);
	if (mode == VXGBP_FABRIC_FIRST)
		return 0;
	if (mode == VXGBP_FABRIC_GBP)
		for (unsigned k = 0; k < n; k++)
			if (vxgbp_hdr_has_gbp(header_at(p, k)))
				return (int)k;
	return (int)(n - 1);
}

static const struct vxgbp_mirror_info mirror_info[VXGBP_MIRROR__COUNT] = {
	[VXGBP_MIRROR_VXLAN] = { "VXLAN", "vxlan", "vni" },
	[VXGBP_MIRROR_GPE] = { "VXLAN-GPE", "gpe", "vni" },
	[VXGBP_MIRROR_GENEVE] = { "Geneve", "geneve", "vni" },
	[VXGBP_MIRROR_ERSPAN1] = { "ERSPAN-I", "erspan1", NULL },
	[VXGBP_MIRROR_ERSPAN2] = { "ERSPAN-II", "erspan2", "session" },
	[VXGBP_MIRROR_ERSPAN3] = { "ERSPAN-III", "erspan3", "session" },
};

const struct vxgbp_mirror_info *vxgbp_mirror_get(unsigned kind)
{
	return kind && kind < VXGBP_MIRROR__COUNT ? &mirror_info[kind] : NULL;
}

/* A tunnel layer that names a mirror session: its kind, else NONE. */
static unsigned encap_mirror(const struct vxgbp_encap *e, uint32_t *id)
{
	switch (e->kind) {
	case VXGBP_ENCAP_GENEVE:
		*id = e->id;
		return VXGBP_MIRROR_GENEVE;
	case VXGBP_ENCAP_ERSPAN1:
		*id = 0;
		return VXGBP_MIRROR_ERSPAN1;
	case VXGBP_ENCAP_ERSPAN2:
	case VXGBP_ENCAP_ERSPAN3:
		*id = e->erspan_session;
		return e->kind == VXGBP_ENCAP_ERSPAN2 ? VXGBP_MIRROR_ERSPAN2 : VXGBP_MIRROR_ERSPAN3;
	default:
		return VXGBP_MIRROR_NONE;
	}
}

/* The mirror layer of p: its kind (or NONE), *id its session and *layer
 * its index in encap[] (-1: a VXLAN header, or no mirror). */
static int mirror_find(const struct vxgbp_pkt *p, unsigned mode, uint32_t *id, int *layer)
{
	uint32_t v = 0;
	unsigned kind = VXGBP_MIRROR_NONE;
	int k;

	*layer = -1;
	if (!p || (k = vxgbp_pkt_fabric(p, mode)) < 0)
		return VXGBP_E_INVAL;
	if (p->have & VXGBP_HAVE_VXLAN)
		for (unsigned i = 0; !kind && i < p->n_encap && i < VXGBP_MAX_ENCAP; i++)
			if ((kind = encap_mirror(&p->encap[i], &v)))
				*layer = (int)i;
	if (!kind && k > 0) {
		kind = p->vx_kind == VXGBP_VX_GPE ? VXGBP_MIRROR_GPE : VXGBP_MIRROR_VXLAN;
		v = p->vx.vni;
	}
	if (id)
		*id = kind ? v : 0;
	return (int)kind;
}

int vxgbp_pkt_mirror(const struct vxgbp_pkt *p, unsigned mode, uint32_t *id)
{
	int layer;

	return mirror_find(p, mode, id, &layer);
}

int vxgbp_pkt_mirror_encap(const struct vxgbp_pkt *p, unsigned mode, unsigned *index)
{
	int layer, r = mirror_find(p, mode, NULL, &layer);

	if (r < 0 || !index)
		return r < 0 ? r : VXGBP_E_INVAL;
	if (layer < 0)
		return 0;
	*index = (unsigned)layer;
	return 1;
}
