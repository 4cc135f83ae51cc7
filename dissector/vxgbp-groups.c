// SPDX-License-Identifier: BSD-2-Clause
/*
 * vxgbp-groups.c - names for Group Policy IDs in the Wireshark plugin:
 *
 *   - the UAT "vxgbp_groups" (Edit > Preferences > Protocols > VXLAN-GBP >
 *     Group names), records (ID, name), each validated by libvxgbp's
 *     group-file parser;
 *   - the preference vxgbp.groups_file: a file as gbpdump --groups reads it
 *     ("0x200 web" lines, '#' comments).  A line libvxgbp refuses is
 *     reported with report_failure() (a dialog in Wireshark, a message on
 *     standard error in tshark) naming the file, line and column.
 *
 * A UAT record wins over a file line for the same ID.  The lookup table is
 * a struct vxgbp_groups rebuilt after every change.
 */
#include <string.h>

#include <glib.h>

#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/uat.h>
#include <wsutil/report_message.h>

#include <vxgbp/vxgbp.h>

#include "vxgbp-plugin.h"

/* At most this many bad lines are listed in one report. */
#define MAX_REPORTED_LINES 10

typedef struct {
	guint32 id;
	gchar *name;
} vxgbp_group_rec_t;

static vxgbp_group_rec_t *group_recs;
static guint n_group_recs;
static struct vxgbp_group_name *group_storage;
static struct vxgbp_groups group_table;
static const char *pref_groups_file = "";

/* Run one (id, name) pair through libvxgbp's parser, into `into` (or a
 * scratch table).  Returns NULL when it is valid, else a newly allocated
 * error text. */
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

/* The lines of the group file (NULL when none is set or it cannot be
 * read: then reported). */
static gchar **groups_file_lines(void)
{
	GError *gerr = NULL;
	gchar *text = NULL, **lines;

	if (!pref_groups_file || !*pref_groups_file)
		return NULL;
	if (!g_file_get_contents(pref_groups_file, &text, NULL, &gerr)) {
		report_failure("VXLAN-GBP group names file (preference vxgbp.groups_file): %s",
			       gerr->message);
		g_error_free(gerr);
		return NULL;
	}
	lines = g_strsplit(text, "\n", -1);
	g_free(text);
	return lines;
}

/* Parse the file's lines into the table; one report lists the bad ones
 * (file:line:column, 1-based, and libvxgbp's reason). */
static void groups_file_parse(gchar **lines)
{
	GString *bad = NULL;
	guint i, n_bad = 0;

	for (i = 0; lines && lines[i]; i++) {
		size_t col = 0;
		int r = vxgbp_groups_parse_line(&group_table, lines[i], strlen(lines[i]), &col);

		if (r >= 0)
			continue;
		if (!bad)
			bad = g_string_new("VXLAN-GBP group names file: lines not used:");
		if (++n_bad <= MAX_REPORTED_LINES)
			g_string_append_printf(bad, "\n%s:%u:%zu: %s (want \"<id> <name>\", "
					       "e.g. \"0x200 web\")", pref_groups_file, i + 1,
					       col + 1, vxgbp_strerror(r));
	}
	if (!bad)
		return;
	if (n_bad > MAX_REPORTED_LINES)
		g_string_append_printf(bad, "\n(and %u more)", n_bad - MAX_REPORTED_LINES);
	report_failure("%s", bad->str);
	g_string_free(bad, TRUE);
}

/* Rebuild the lookup table: the group file first, then the UAT records
 * (a record wins over a file line with the same ID). */
static void groups_rebuild(void)
{
	gchar **lines = groups_file_lines();
	guint n_lines = lines ? g_strv_length(lines) : 0, i;

	g_free(group_storage);
	group_storage = n_group_recs + n_lines ? g_new0(struct vxgbp_group_name, n_group_recs + n_lines)
					       : NULL;
	vxgbp_groups_init(&group_table, group_storage, n_group_recs + n_lines);
	groups_file_parse(lines);
	for (i = 0; i < n_group_recs; i++) {
		/* Already validated by group_update_cb. */
		gchar *err = group_validate(group_recs[i].id, group_recs[i].name, &group_table);

		g_free(err);
	}
	g_strfreev(lines);
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

void vxgbp_groups_apply(void)
{
	groups_rebuild();
}

const char *vxgbp_plugin_group_name(guint16 id)
{
	return vxgbp_groups_name(&group_table, id);
}

void vxgbp_groups_register(module_t *module)
{
	static uat_field_t group_fields[] = {
		{ "id", "Group ID", PT_TXTMOD_STRING,
		  { group_id_chk, group_id_set, group_id_tostr }, { 0, 0, 0 }, 0,
		  "Group Policy ID, 0-65535 (decimal or 0x hex)", FLDFILL },
		{ "name", "Name", PT_TXTMOD_STRING,
		  { group_name_chk, group_name_set, group_name_tostr }, { 0, 0, 0 }, 0,
		  "Group name (one word, at most 31 characters)", FLDFILL },
		UAT_END_FIELDS
	};
	uat_t *uat;

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
}
