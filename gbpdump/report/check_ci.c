// SPDX-License-Identifier: BSD-2-Clause
/*
 * check_ci.c - gbpdump --junit and --sarif: the per-rule results of the
 * --check engine (check_rule_next()) as JUnit XML and SARIF 2.1.0.  The
 * mapping is docs/check-ci.md's; every string from the input is escaped
 * (ci_doc.h, shared with gbpprobe's writer), nothing else in gbpdump
 * writes these formats.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check_ci.h"
#include "ci_doc.h"

_Static_assert(GD_ERRBUF >= AFILE_ERRBUF_SIZE, "errbuf sizes");

static const char *const lvl_word[] = { "MUST", "SHOULD", "INFO" };
static const char *const sarif_lvl[] = { "error", "warning", "note" };

/* ---- shared ---- */

struct ci {
	struct afile *f;
	const struct gd_check *c;
	const struct check_ci_run *run;
	struct check_totals t;
};

int check_ci_open(struct check_ci_file *cf, const char *path, const char *const *inputs,
		  const char *const *nouns, int force, char *errbuf)
{
	struct afile_opts ao = { force ? AFILE_FORCE : 0, inputs, "the capture", nouns };

	return afile_open(&cf->f, path, &ao, errbuf);
}

void check_ci_discard(struct check_ci_file *cf)
{
	char e[AFILE_ERRBUF_SIZE];

	afile_close(&cf->f, 0, e);
}

/* Write the document with body() into cf and move it into place. */
static int ci_write(struct check_ci_file *cf, const struct gd_check *c,
		   const struct check_ci_run *run, void (*body)(struct ci *), char *errbuf)
{
	struct ci x = { .f = &cf->f, .c = c, .run = run };

	check_totals(c, &x.t);
	body(&x);
	return afile_close(&cf->f, 1, errbuf);
}

static const char *capture_name(const struct check_ci_run *run)
{
	if (run->capture)
		return strcmp(run->capture, "-") ? run->capture : "standard input";
	return run->iface ? run->iface : "?";
}

static const char *scope_name(enum vxgbp_scope s)
{
	static const char *const n[] = { "frame", "outer", "header", "inner", "label", "parse" };

	return (unsigned)s < sizeof(n) / sizeof(n[0]) ? n[s] : "rule";
}

static const char *verdict(int exit_code)
{
	return exit_code == CHECK_EXIT_FAIL ? "fail" : exit_code == CHECK_EXIT_WARN ? "warn"
	       : exit_code == CHECK_EXIT_PASS ? "pass" : "error";
}

/* "2023-11-14T22:13:20.000000001Z"; "" when the time is not known (0). */
static void fmt_time(char *b, size_t n, int64_t sec, uint32_t nsec)
{
	time_t t = (time_t)sec;
	struct tm tm;

	if ((!sec && !nsec) || !gmtime_r(&t, &tm)) {
		snprintf(b, n, "%s", "");
		return;
	}
	snprintf(b, n, "%04d-%02d-%02dT%02d:%02d:%02d.%09uZ", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (unsigned)nsec % 1000000000u);
}

/* One occurrence in words: "frame 3 (TIME), byte 42 of the frame, record
 * at byte 24 of the file: WHAT" (of the decompressed capture when z). */
static void occ_line(char *b, size_t n, const struct check_occ *o, int z)
{
	char tm[64];
	int k;

	fmt_time(tm, sizeof(tm), o->sec, o->nsec);
	k = snprintf(b, n, "frame %llu", (unsigned long long)o->frame);
	if (tm[0] && k >= 0 && (size_t)k < n)
		k += snprintf(b + k, n - (size_t)k, " (%s)", tm);
	if (o->off >= 0 && k >= 0 && (size_t)k < n)
		k += snprintf(b + k, n - (size_t)k, ", byte %d of the frame", o->off);
	if (o->rec_off && k >= 0 && (size_t)k < n)
		k += snprintf(b + k, n - (size_t)k, ", record at byte %llu of the %s",
			      (unsigned long long)o->rec_off, z ? "decompressed capture" : "file");
	if (k >= 0 && (size_t)k < n)
		snprintf(b + k, n - (size_t)k, ": %s", o->what ? o->what : "");
}

/* ---- JUnit XML ---- */

struct junit_sum {
	unsigned tests, failures, skipped, errors;
};

static void junit_count(const struct ci *x, struct junit_sum *n)
{
	struct check_rule cr;
	unsigned it = 0;

	memset(n, 0, sizeof(*n));
	while (check_rule_next(x->c, &it, &cr)) {
		n->tests++;
		if (cr.level == CHECK_OFF)
			n->skipped++;
		else if (cr.count[CHECK_MUST] || cr.count[CHECK_SHOULD])
			n->failures++;
	}
	if (x->run->error) {
		n->tests++;
		n->errors++;
	}
}

static void junit_props(struct ci *x)
{
	const struct vxgbp_track_summary *s = x->run->s;

	afile_printf(x->f, "    <properties>\n");
	ci_junit_prop(x->f, "profile", x->t.profile);
	ci_junit_prop(x->f, "capture", capture_name(x->run));
	ci_junit_prop(x->f, "gbpdump.version", VXGBP_VERSION);
	ci_junit_prop(x->f, "checksums", x->t.checksums ? "verified" : "not verified");
	if (s) {
		ci_junit_prop_u64(x->f, "frames", s->frames);
		ci_junit_prop_u64(x->f, "vxlan", s->vxlan);
		ci_junit_prop_u64(x->f, "gbp", s->gbp);
	}
	ci_junit_prop_u64(x->f, "unjudged", x->t.unjudged);
	if (x->t.unjudged_mac) /* VXLAN-GPE carrying IP: no source MAC to judge */
		ci_junit_prop_u64(x->f, "unjudged_mac", x->t.unjudged_mac);
	for (int l = 0; l < 3; l++) {
		char name[32];

		snprintf(name, sizeof(name), "findings.%s", lvl_word[l]);
		ci_junit_prop_u64(x->f, name, x->t.count[l]);
	}
	ci_junit_prop(x->f, "verdict", verdict(x->run->exit_code));
	ci_junit_prop_u64(x->f, "exit", (uint64_t)x->run->exit_code);
	afile_printf(x->f, "    </properties>\n");
}

/* The first occurrences of rule cr at level l, one a line, and how many
 * more were counted. */
static void junit_occs(struct ci *x, const struct check_rule *cr, int l)
{
	char line[512];

	for (unsigned i = 0; i < cr->n_first[l]; i++) {
		occ_line(line, sizeof(line), &cr->first[l][i], x->run->compressed);
		afile_printf(x->f, "%s: ", lvl_word[l]);
		ci_xml(x->f, line, 0);
		afile_write(x->f, "\n", 1);
	}
	if (cr->count[l] > cr->n_first[l])
		afile_printf(x->f, "%s: %llu more not listed\n", lvl_word[l],
			     (unsigned long long)(cr->count[l] - cr->n_first[l]));
}

/* "3 MUST findings, 1 SHOULD finding: TEXT (SOURCE)" for the levels in
 * [from, to]. */
static void junit_msg(struct ci *x, const struct check_rule *cr, int from, int to)
{
	char m[768];
	int k = 0;

	for (int l = from; l <= to; l++)
		if (cr->count[l] && k >= 0 && (size_t)k < sizeof(m))
			k += snprintf(m + k, sizeof(m) - (size_t)k, "%s%llu %s finding%s",
				      k ? ", " : "", (unsigned long long)cr->count[l],
				      lvl_word[l], cr->count[l] == 1 ? "" : "s");
	if (k >= 0 && (size_t)k < sizeof(m))
		snprintf(m + k, sizeof(m) - (size_t)k, ": %s (%s)", cr->info->text,
			 cr->info->source);
	ci_xml(x->f, m, 1);
}

static void junit_case(struct ci *x, const struct check_rule *cr)
{
	int fail = cr->count[CHECK_MUST] || cr->count[CHECK_SHOULD];

	afile_printf(x->f, "    <testcase name=\"");
	ci_xml(x->f, cr->info->id, 1);
	afile_printf(x->f, "\" classname=\"vxgbp.%s\"", scope_name(cr->info->scope));
	if (cr->level == CHECK_OFF) {
		afile_printf(x->f, ">\n      <skipped message=\"");
		ci_xml(x->f, cr->off_why ? cr->off_why : "not judged", 1);
		afile_printf(x->f, "\"/>\n    </testcase>\n");
		return;
	}
	if (!fail && !cr->count[CHECK_INFO]) {
		afile_printf(x->f, "/>\n");
		return;
	}
	afile_printf(x->f, ">\n");
	if (fail) {
		afile_printf(x->f, "      <failure type=\"%s\" message=\"",
			     cr->count[CHECK_MUST] ? "MUST" : "SHOULD");
		junit_msg(x, cr, CHECK_MUST, CHECK_SHOULD);
		afile_printf(x->f, "\">");
		junit_occs(x, cr, CHECK_MUST);
		junit_occs(x, cr, CHECK_SHOULD);
		afile_printf(x->f, "</failure>\n");
	}
	if (cr->count[CHECK_INFO]) {
		afile_printf(x->f, "      <system-out>");
		junit_msg(x, cr, CHECK_INFO, CHECK_INFO);
		afile_write(x->f, "\n", 1);
		junit_occs(x, cr, CHECK_INFO);
		afile_printf(x->f, "</system-out>\n");
	}
	afile_printf(x->f, "    </testcase>\n");
}

static void junit_body(struct ci *x)
{
	struct junit_sum n;
	struct check_rule cr;
	unsigned it = 0;

	junit_count(x, &n);
	afile_printf(x->f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<testsuites name=\"gbpdump --check\" tests=\"%u\" failures=\"%u\" "
		     "errors=\"%u\">\n  <testsuite name=\"", n.tests, n.failures, n.errors);
	ci_xml(x->f, capture_name(x->run), 1);
	afile_printf(x->f, " (profile %s)\" tests=\"%u\" failures=\"%u\" errors=\"%u\" "
		     "skipped=\"%u\">\n", x->t.profile, n.tests, n.failures, n.errors, n.skipped);
	junit_props(x);
	while (check_rule_next(x->c, &it, &cr))
		junit_case(x, &cr);
	if (x->run->error) {
		afile_printf(x->f, "    <testcase name=\"capture.read\" classname=\"vxgbp.capture\">\n"
			     "      <error type=\"read\" message=\"");
		ci_xml(x->f, x->run->error, 1);
		afile_printf(x->f, "\"/>\n    </testcase>\n");
	}
	afile_printf(x->f, "  </testsuite>\n</testsuites>\n");
}

int check_junit_write(struct check_ci_file *cf, const struct gd_check *c,
		      const struct check_ci_run *run, char *errbuf)
{
	return ci_write(cf, c, run, junit_body, errbuf);
}

/* ---- SARIF 2.1.0 ---- */

/* The capture as an artifactLocation's members: a relative path against
 * %SRCROOT% (the folder gbpdump ran in), an absolute one as a file: URI.
 * 0 when there is no file to name (standard input, a live capture). */
static int sarif_uri(struct ci *x)
{
	const char *p = x->run->capture;

	if (!p || !strcmp(p, "-"))
		return 0;
	afile_printf(x->f, "\"uri\":\"%s", p[0] == '/' ? "file://" : "");
	ci_uri_path(x->f, p);
	afile_printf(x->f, "\"%s", p[0] == '/' ? "" : ",\"uriBaseId\":\"%SRCROOT%\"");
	return 1;
}

static void sarif_rule(struct ci *x, const struct check_rule *cr, unsigned idx)
{
	const struct vxgbp_rule_info *ri = cr->info;
	char s[768];

	afile_printf(x->f, "%s\n        {\"id\":", idx ? "," : "");
	ci_json(x->f, ri->id);
	afile_printf(x->f, ",\"shortDescription\":{\"text\":");
	ci_json(x->f, ri->text);
	snprintf(s, sizeof(s), "%s (%s; the library's level: %s)", ri->text, ri->source,
		 vxgbp_level_name(ri->level));
	afile_printf(x->f, "},\"fullDescription\":{\"text\":");
	ci_json(x->f, s);
	snprintf(s, sizeof(s), "Source: %s. %s. Judged by gbpdump --check at the level its "
		 "--profile gives the rule.", ri->source, ri->text);
	afile_printf(x->f, "},\"help\":{\"text\":");
	ci_json(x->f, s);
	afile_printf(x->f, "},\"defaultConfiguration\":{\"level\":\"%s\"},"
		     "\"properties\":{\"source\":", sarif_lvl[ri->level <= 2 ? ri->level : 0]);
	ci_json(x->f, ri->source);
	afile_printf(x->f, ",\"scope\":\"%s\",\"tags\":[\"%s\",\"%s\"]}}",
		     scope_name(ri->scope), vxgbp_level_name(ri->level), scope_name(ri->scope));
}

/* The profile's level where it is not the library's: a configuration
 * override (enabled false for a rule not judged). */
static void sarif_overrides(struct ci *x)
{
	struct check_rule cr;
	unsigned it = 0, idx = 0, n = 0;

	afile_printf(x->f, ",\"ruleConfigurationOverrides\":[");
	for (; check_rule_next(x->c, &it, &cr); idx++) {
		if (cr.level != CHECK_OFF && (unsigned)cr.level == (unsigned)cr.info->level)
			continue;
		afile_printf(x->f, "%s\n        {\"descriptor\":{\"id\":", n++ ? "," : "");
		ci_json(x->f, cr.info->id);
		if (cr.level == CHECK_OFF) {
			afile_printf(x->f, ",\"index\":%u},\"configuration\":{\"enabled\":false},"
				     "\"properties\":{\"reason\":", idx);
			ci_json(x->f, cr.off_why ? cr.off_why : "not judged");
			afile_printf(x->f, "}}");
		} else {
			afile_printf(x->f, ",\"index\":%u},\"configuration\":{\"level\":\"%s\"}}",
				     idx, sarif_lvl[cr.level]);
		}
	}
	afile_printf(x->f, "%s]", n ? "\n      " : "");
}

static void sarif_invocation(struct ci *x)
{
	int ok = x->run->exit_code == CHECK_EXIT_PASS || x->run->exit_code == CHECK_EXIT_WARN ||
		 x->run->exit_code == CHECK_EXIT_FAIL;

	afile_printf(x->f, ",\n    \"invocations\":[{\"executionSuccessful\":%s,\"exitCode\":%d,"
		     "\"exitCodeDescription\":\"%s\"", ok ? "true" : "false", x->run->exit_code,
		     verdict(x->run->exit_code));
	sarif_overrides(x);
	if (x->run->error) {
		afile_printf(x->f, ",\"toolExecutionNotifications\":[{\"level\":\"error\","
			     "\"message\":{\"text\":");
		ci_json(x->f, x->run->error);
		afile_printf(x->f, "}}]");
	}
	afile_printf(x->f, ",\"properties\":{\"profile\":");
	ci_json(x->f, x->t.profile);
	afile_printf(x->f, ",\"checksums\":%s}}]", x->t.checksums ? "true" : "false");
}

/* One occurrence kept: the capture's record as the region (classic pcap),
 * the frame as a logical location. */
static void sarif_result(struct ci *x, const struct check_rule *cr, unsigned idx, int l,
			 unsigned i, int *first)
{
	const struct check_occ *o = &cr->first[l][i];
	char line[512], tm[64];

	occ_line(line, sizeof(line), o, x->run->compressed);
	fmt_time(tm, sizeof(tm), o->sec, o->nsec);
	afile_printf(x->f, "%s\n    {\"ruleId\":", *first ? "" : ",");
	*first = 0;
	ci_json(x->f, cr->info->id);
	afile_printf(x->f, ",\"ruleIndex\":%u,\"level\":\"%s\",\"message\":{\"text\":", idx,
		     sarif_lvl[l]);
	ci_json(x->f, line);
	afile_printf(x->f, "},\"locations\":[{");
	if (x->run->capture && strcmp(x->run->capture, "-")) {
		afile_printf(x->f, "\"physicalLocation\":{\"artifactLocation\":{");
		sarif_uri(x);
		afile_printf(x->f, ",\"index\":0}");
		if (o->rec_off && !x->run->compressed)
			afile_printf(x->f, ",\"region\":{\"byteOffset\":%llu,\"byteLength\":%llu}",
				     (unsigned long long)o->rec_off, 16ull + o->caplen);
		afile_printf(x->f, "},");
	}
	afile_printf(x->f, "\"logicalLocations\":[{\"name\":\"frame %llu\",\"kind\":\"element\"}]}],"
		     "\"properties\":{\"frame\":%llu,\"offsetInFrame\":%d,", (unsigned long long)o->frame,
		     (unsigned long long)o->frame, o->off);
	if (tm[0])
		afile_printf(x->f, "\"time\":\"%s\",", tm);
	if (o->rec_off && x->run->compressed)
		afile_printf(x->f, "\"decompressedOffset\":%llu,", (unsigned long long)o->rec_off);
	afile_printf(x->f, "\"profileLevel\":\"%s\",\"occurrence\":%u,\"count\":%llu,"
		     "\"notListed\":%llu}}", lvl_word[l], i + 1, (unsigned long long)cr->count[l],
		     (unsigned long long)(cr->count[l] - cr->n_first[l]));
}

static void sarif_results(struct ci *x)
{
	struct check_rule cr;
	unsigned it = 0, idx = 0;
	int first = 1;

	afile_printf(x->f, ",\n  \"results\":[");
	for (; check_rule_next(x->c, &it, &cr); idx++)
		for (int l = 0; l < 3; l++)
			for (unsigned i = 0; i < cr.n_first[l]; i++)
				sarif_result(x, &cr, idx, l, i, &first);
	afile_printf(x->f, "%s]", first ? "" : "\n  ");
}

/* run.properties: the summary and every rule found with its count, as
 * --check --json gives them (the results hold the first occurrences). */
static void sarif_run_props(struct ci *x)
{
	const struct vxgbp_track_summary *s = x->run->s;
	struct check_rule cr;
	unsigned it = 0, n = 0;

	afile_printf(x->f, ",\n  \"properties\":{\"profile\":");
	ci_json(x->f, x->t.profile);
	afile_printf(x->f, ",\"checksums\":%s,", x->t.checksums ? "true" : "false");
	if (s)
		afile_printf(x->f, "\"frames\":%llu,\"vxlan\":%llu,\"gbp\":%llu,",
			     (unsigned long long)s->frames, (unsigned long long)s->vxlan,
			     (unsigned long long)s->gbp);
	if (x->t.unjudged_mac)
		afile_printf(x->f, "\"unjudged_mac\":%llu,", (unsigned long long)x->t.unjudged_mac);
	afile_printf(x->f, "\"unjudged\":%llu,\"counts\":{\"MUST\":%llu,\"SHOULD\":%llu,"
		     "\"INFO\":%llu},\"verdict\":\"%s\",\"findings\":[",
		     (unsigned long long)x->t.unjudged, (unsigned long long)x->t.count[0],
		     (unsigned long long)x->t.count[1], (unsigned long long)x->t.count[2],
		     verdict(x->run->exit_code));
	while (check_rule_next(x->c, &it, &cr))
		for (int l = 0; l < 3; l++) {
			if (!cr.count[l])
				continue;
			afile_printf(x->f, "%s\n    {\"id\":", n++ ? "," : "");
			ci_json(x->f, cr.info->id);
			afile_printf(x->f, ",\"level\":\"%s\",\"count\":%llu,\"listed\":%u}",
				     lvl_word[l], (unsigned long long)cr.count[l], cr.n_first[l]);
		}
	afile_printf(x->f, "%s]}", n ? "\n  " : "");
}

static void sarif_body(struct ci *x)
{
	struct check_rule cr;
	unsigned it = 0, idx = 0;

	afile_printf(x->f, "{\"$schema\":\"%s\",\"version\":\"2.1.0\",\"runs\":[{\n"
		     "  \"tool\":{\"driver\":{\"name\":\"gbpdump\",\"fullName\":\"gbpdump (vxgbp) %s\","
		     "\"version\":\"%s\",\"semanticVersion\":\"%s\",\"rules\":[",
		     CI_SARIF_SCHEMA, VXGBP_VERSION, VXGBP_VERSION, VXGBP_VERSION);
	while (check_rule_next(x->c, &it, &cr))
		sarif_rule(x, &cr, idx++);
	afile_printf(x->f, "]}}");
	sarif_invocation(x);
	if (x->run->capture && strcmp(x->run->capture, "-")) {
		afile_printf(x->f, ",\n  \"artifacts\":[{\"location\":{");
		sarif_uri(x);
		afile_printf(x->f, "},\"roles\":[\"analysisTarget\"]}]");
	}
	sarif_results(x);
	sarif_run_props(x);
	afile_printf(x->f, "}]}\n");
}

int check_sarif_write(struct check_ci_file *cf, const struct gd_check *c,
		      const struct check_ci_run *run, char *errbuf)
{
	return ci_write(cf, c, run, sarif_body, errbuf);
}
