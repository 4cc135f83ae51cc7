// SPDX-License-Identifier: BSD-2-Clause
/*
 * probe_ci.c - gbpprobe's JUnit XML and SARIF 2.1.0 writers (probe_ci.h).
 * Nothing depends on the clock: the same verdicts give the same bytes.
 */
#include <stdio.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

#include "ci_doc.h"
#include "probe_ci.h"

static const char *const v_name[] = { "n/a", "pass", "fail", "info" };
/* SARIF result.kind per verdict (SARIF 2.1.0 sec. 3.27.9) */
static const char *const v_kind[] = { "notApplicable", "pass", "fail", "informational" };

const char *probe_verdict_name(enum verdict v)
{
	return (unsigned)v < 4 ? v_name[v] : "?";
}

int probe_ci_open(struct afile *f, const char *path, const char *const *inputs, int force,
		  char *errbuf)
{
	static const char *const noun = "another output file of this run";
	struct afile_opts ao = { force ? AFILE_FORCE : 0, inputs, noun, NULL };

	return afile_open(f, path, &ao, errbuf);
}

static const char *run_verdict(const struct probe_ci_run *run)
{
	return run->exit_code == 0 ? "pass" : run->exit_code == 4 ? "fail" : "error";
}

static unsigned count(const struct probe_ci_run *run, enum verdict v)
{
	unsigned n = 0;

	for (unsigned i = 0; i < run->n; i++)
		n += run->r[i].v == v;
	return n;
}

/* "vxgbp.probe." and the probe id up to its first dot: its family. */
static void family(struct afile *f, const char *id)
{
	const char *dot = strchr(id, '.');

	afile_printf(f, "vxgbp.probe.%.*s", dot ? (int)(dot - id) : (int)strlen(id), id);
}

#define NO_ANSWER "the VTEP never answered (no ARP reply for the target): no probe was judged"

/* ---- JUnit XML ---- */

static void junit_props(struct afile *f, const struct probe_ci_run *run)
{
	afile_printf(f, "    <properties>\n");
	ci_junit_prop(f, "vtep", run->vtep);
	ci_junit_prop(f, "target", run->target);
	ci_junit_prop_u64(f, "vni", run->vni);
	ci_junit_prop_u64(f, "group", run->group);
	ci_junit_prop(f, "gbpprobe.version", VXGBP_VERSION);
	ci_junit_prop_u64(f, "received", run->received);
	for (int v = V_PASS; v <= V_INFO; v++) {
		char name[32];

		snprintf(name, sizeof(name), "probes.%s", v_name[v]);
		ci_junit_prop_u64(f, name, count(run, (enum verdict)v));
	}
	ci_junit_prop_u64(f, "probes.n/a", count(run, V_NA));
	ci_junit_prop(f, "verdict", run_verdict(run));
	ci_junit_prop_u64(f, "exit", (uint64_t)run->exit_code);
	afile_printf(f, "    </properties>\n");
}

/* fail: <failure>; n/a: <skipped>; pass and info: the observation in
 * <system-out>.  The failure's body: what was sent, the rule's source and
 * sentence. */
static void junit_case(struct afile *f, const struct probe_result *r)
{
	const struct probe_info *in = r->info;

	afile_printf(f, "    <testcase name=\"");
	ci_xml(f, in->id, 1);
	afile_printf(f, "\" classname=\"");
	family(f, in->id);
	afile_printf(f, "\">\n");
	if (r->v == V_NA) {
		afile_printf(f, "      <skipped message=\"");
		ci_xml(f, r->note, 1);
		afile_printf(f, "\"/>\n");
	} else if (r->v == V_FAIL) {
		afile_printf(f, "      <failure type=\"fail\" message=\"");
		ci_xml(f, r->note, 1);
		afile_printf(f, "\">sent: ");
		ci_xml(f, in->sent, 0);
		afile_printf(f, "\n");
		ci_xml(f, in->source, 0);
		afile_printf(f, ": ");
		ci_xml(f, in->sentence, 0);
		afile_printf(f, "\n</failure>\n");
	} else {
		afile_printf(f, "      <system-out>%s: ", v_name[r->v]);
		ci_xml(f, r->note, 0);
		afile_printf(f, "\n</system-out>\n");
	}
	afile_printf(f, "    </testcase>\n");
}

static void junit_body(struct afile *f, const struct probe_ci_run *run)
{
	unsigned err = run->exit_code == 1, tests = run->n + err, fails = count(run, V_FAIL);

	afile_printf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<testsuites name=\"gbpprobe\" tests=\"%u\" failures=\"%u\" errors=\"%u\">\n"
		     "  <testsuite name=\"VTEP ", tests, fails, err);
	ci_xml(f, run->vtep, 1);
	afile_printf(f, " (VNI %u, group %u)\" tests=\"%u\" failures=\"%u\" errors=\"%u\" "
		     "skipped=\"%u\">\n", run->vni, run->group, tests, fails, err,
		     count(run, V_NA));
	junit_props(f, run);
	for (unsigned i = 0; i < run->n; i++)
		junit_case(f, &run->r[i]);
	if (err)
		afile_printf(f, "    <testcase name=\"vtep.answer\" classname=\"vxgbp.probe.vtep\">\n"
			     "      <error type=\"no-answer\" message=\"%s\"/>\n    </testcase>\n",
			     NO_ANSWER);
	afile_printf(f, "  </testsuite>\n</testsuites>\n");
}

int probe_junit_write(struct afile *f, const struct probe_ci_run *run, char *errbuf)
{
	junit_body(f, run);
	return afile_close(f, 1, errbuf);
}

/* ---- SARIF 2.1.0 ---- */

static void sarif_rule(struct afile *f, const struct probe_info *in, unsigned idx)
{
	afile_printf(f, "%s\n        {\"id\":", idx ? "," : "");
	ci_json(f, in->id);
	afile_printf(f, ",\"shortDescription\":{\"text\":");
	ci_json(f, in->sent);
	afile_printf(f, "},\"fullDescription\":{\"text\":");
	ci_json(f, in->sentence);
	afile_printf(f, "},\"help\":{\"text\":");
	ci_json(f, in->source);
	afile_printf(f, "},\"defaultConfiguration\":{\"level\":\"error\"},"
		     "\"properties\":{\"source\":");
	ci_json(f, in->source);
	afile_printf(f, ",\"sent\":");
	ci_json(f, in->sent);
	afile_printf(f, "}}");
}

/* The VTEP as the logical location of every result (no file is judged). */
static void sarif_location(struct afile *f, const struct probe_ci_run *run)
{
	afile_printf(f, "\"locations\":[{\"logicalLocations\":[{\"name\":");
	ci_json(f, run->vtep);
	afile_printf(f, ",\"fullyQualifiedName\":\"vtep/");
	ci_uri_path(f, run->vtep);
	afile_printf(f, "/vni/%u\",\"kind\":\"object\"}]}]", run->vni);
}

static void sarif_result(struct afile *f, const struct probe_ci_run *run, unsigned i)
{
	const struct probe_result *r = &run->r[i];

	afile_printf(f, "%s\n    {\"ruleId\":", i ? "," : "");
	ci_json(f, r->info->id);
	/* a level other than "none" only with kind "fail" (sec. 3.27.10) */
	afile_printf(f, ",\"ruleIndex\":%u,\"kind\":\"%s\",\"level\":\"%s\",\"message\":{\"text\":",
		     i, v_kind[r->v], r->v == V_FAIL ? "error" : "none");
	ci_json(f, r->note);
	afile_printf(f, "},");
	sarif_location(f, run);
	afile_printf(f, ",\"properties\":{\"verdict\":\"%s\",\"sent\":%u,\"replies\":%u,"
		     "\"flooded\":%u,\"reply_flags\":%u,\"reply_group\":%u}}", v_name[r->v],
		     r->sent, r->replies, r->flooded, r->reply_flags, r->reply_group);
}

static void sarif_invocation(struct afile *f, const struct probe_ci_run *run)
{
	afile_printf(f, ",\n    \"invocations\":[{\"executionSuccessful\":%s,\"exitCode\":%d,"
		     "\"exitCodeDescription\":\"%s\"", run->exit_code == 1 ? "false" : "true",
		     run->exit_code, run_verdict(run));
	if (run->exit_code == 1)
		afile_printf(f, ",\"toolExecutionNotifications\":[{\"level\":\"error\","
			     "\"message\":{\"text\":\"%s\"}}]", NO_ANSWER);
	afile_printf(f, "}]");
}

static void sarif_body(struct afile *f, const struct probe_ci_run *run)
{
	afile_printf(f, "{\"$schema\":\"%s\",\"version\":\"2.1.0\",\"runs\":[{\n"
		     "  \"tool\":{\"driver\":{\"name\":\"gbpprobe\",\"fullName\":\"gbpprobe (vxgbp) %s\","
		     "\"version\":\"%s\",\"semanticVersion\":\"%s\",\"rules\":[",
		     CI_SARIF_SCHEMA, VXGBP_VERSION, VXGBP_VERSION, VXGBP_VERSION);
	for (unsigned i = 0; i < run->n; i++)
		sarif_rule(f, run->r[i].info, i);
	afile_printf(f, "]}}");
	sarif_invocation(f, run);
	afile_printf(f, ",\n  \"results\":[");
	for (unsigned i = 0; i < run->n; i++)
		sarif_result(f, run, i);
	afile_printf(f, "%s],\n  \"properties\":{\"vtep\":", run->n ? "\n  " : "");
	ci_json(f, run->vtep);
	afile_printf(f, ",\"target\":");
	ci_json(f, run->target);
	afile_printf(f, ",\"vni\":%u,\"group\":%u,\"received\":%llu,\"summary\":{\"pass\":%u,"
		     "\"fail\":%u,\"info\":%u,\"n/a\":%u},\"verdict\":\"%s\"}}]}\n", run->vni,
		     run->group, run->received, count(run, V_PASS), count(run, V_FAIL),
		     count(run, V_INFO), count(run, V_NA), run_verdict(run));
}

int probe_sarif_write(struct afile *f, const struct probe_ci_run *run, char *errbuf)
{
	sarif_body(f, run);
	return afile_close(f, 1, errbuf);
}
