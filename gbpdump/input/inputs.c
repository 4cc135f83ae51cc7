// SPDX-License-Identifier: BSD-2-Clause
/* inputs.c - several -r inputs read as one stream (see inputs.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inputs.h"
#include "filter.h"

/* A capture file's name, as a directory listing takes it. */
static int capture_name(const char *n)
{
	static const char *const ext[] = { ".pcap", ".pcapng", ".cap" };
	static const char *const z[] = { "", ".gz", ".zst", ".xz" };
	size_t len = strlen(n);

	if (n[0] == '.')
		return 0;
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		for (size_t j = 0; j < sizeof(z) / sizeof(z[0]); j++) {
			size_t k = strlen(ext[i]) + strlen(z[j]);

			if (len > k && !strncmp(n + len - k, ext[i], strlen(ext[i])) &&
			    !strcmp(n + len - strlen(z[j]), z[j]))
				return 1;
		}
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append s (copied) to the list.  0, or -1 out of memory. */
static int list_add(char ***v, unsigned *n, unsigned *cap, const char *dir, const char *s)
{
	size_t len = (dir ? strlen(dir) + 1 : 0) + strlen(s) + 1;
	char *c;

	if (*n + 2 > *cap) {
		unsigned nc = *cap ? *cap * 2 : 16;
		char **nv = realloc(*v, nc * sizeof(*nv));

		if (!nv)
			return -1;
		*v = nv;
		*cap = nc;
	}
	if (!(c = malloc(len)))
		return -1;
	snprintf(c, len, "%s%s%s", dir ? dir : "", dir ? "/" : "", s);
	(*v)[(*n)++] = c;
	(*v)[*n] = NULL;
	return 0;
}

/* The capture files of directory d, sorted, appended.  0, or -1 (errbuf). */
static int list_dir(const char *d, char ***v, unsigned *n, unsigned *cap, char *errbuf)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	unsigned first = *n;
	int rc = 0;

	if (!dp) {
		snprintf(errbuf, GD_ERRBUF, "%s: %s", d, strerror(errno));
		return -1;
	}
	while (!rc && (e = readdir(dp))) {
		struct stat st;
		char path[4096];

		if (!capture_name(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", d, e->d_name);
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
			/* named like a capture, yet none: say so, not read */
			fprintf(stderr, "gbpdump: warning: %s: skipped (%s)\n", path,
				stat(path, &st) < 0 ? strerror(errno) : "not a regular file");
			continue;
		}
		if (list_add(v, n, cap, d, e->d_name) < 0) {
			snprintf(errbuf, GD_ERRBUF, "%s: out of memory", d);
			rc = -1;
		}
	}
	closedir(dp);
	if (!rc && *n == first) {
		snprintf(errbuf, GD_ERRBUF, "%s: is a directory without capture files "
			 "(*.pcap, *.pcapng, *.cap, also .gz, .zst, .xz)", d);
		rc = -1;
	}
	if (!rc)
		qsort(*v + first, *n - first, sizeof(**v), name_cmp);
	return rc;
}

int inputs_list(const char *const *args, unsigned nargs, char ***names, unsigned *n,
		char *errbuf)
{
	unsigned cap = 0;
	struct stat st;

	*names = NULL;
	*n = 0;
	for (unsigned i = 0; i < nargs; i++) {
		int rc;

		if (strcmp(args[i], "-") && stat(args[i], &st) == 0 && S_ISDIR(st.st_mode))
			rc = list_dir(args[i], names, n, &cap, errbuf);
		else if ((rc = list_add(names, n, &cap, NULL, args[i])) < 0)
			snprintf(errbuf, GD_ERRBUF, "out of memory");
		if (rc < 0) {
			inputs_list_free(*names);
			*names = NULL;
			return -1;
		}
	}
	return 0;
}

void inputs_list_free(char **names)
{
	for (char **p = names; p && *p; p++)
		free(*p);
	free(names);
}

/* in's parse options and BPF program, from its open reader s->more_rd.  0, or
 * -1 with errbuf. */
static int input_cfg(struct gd_inputs *s, struct gd_input *in, const char *name, char *errbuf)
{
	in->linktype = s->more_rd.linktype;
	in->popts = *s->first_fc->popts;
	in->popts.linktype = s->more_rd.linktype;
	in->fc = *s->first_fc;
	in->fc.popts = &in->popts;
	if (!s->filter)
		return 0;
	if (!(in->dead = gd_pcap_filter(reader_dlt(&s->more_rd),
					s->more_rd.snaplen ? (int)s->more_rd.snaplen : 262144,
					PCAP_TSTAMP_PRECISION_NANO, s->filter, &in->prog, name,
					errbuf, GD_ERRBUF)))
		return -1;
	in->have_prog = 1;
	in->fc.prog = &in->prog;
	return 0;
}

static int rd_open(struct gd_inputs *s, const char *name, char *errbuf)
{
	if (reader_open(&s->more_rd, name, s->flags, errbuf) < 0)
		return -1;
	s->more_open = 1;
	return 0;
}

static void rd_close(struct gd_inputs *s)
{
	if (s->more_open)
		reader_close(&s->more_rd);
	s->more_open = 0;
}

int inputs_open(struct gd_inputs *s, char *const *names, unsigned n, unsigned flags,
		const char *filter, char *errbuf)
{
	s->names = names;
	s->flags = flags;
	s->filter = filter;
	s->n = n;
	s->cur = 0;
	s->more_open = 0;
	s->rd = s->first;
	s->fc = s->first_fc;
	s->base = 0;
	if (s->progress && !s->progress->on)
		s->progress = NULL; /* nothing to tick */
	if (n < 2)
		return 0;
	if (!(s->more = calloc(n - 1, sizeof(*s->more)))) {
		snprintf(errbuf, GD_ERRBUF, "out of memory");
		return -1;
	}
	for (unsigned i = 1; i < n; i++) {
		s->more[i - 1].linktype = -1;
		if (!strcmp(names[i], "-")) /* read once, when its turn comes */
			continue;
		if (rd_open(s, names[i], errbuf) < 0 ||
		    input_cfg(s, &s->more[i - 1], names[i], errbuf) < 0)
			return -1;
		rd_close(s);
	}
	return 0;
}

int inputs_linktype(const struct gd_inputs *s)
{
	for (unsigned i = 1; i < s->n; i++)
		if (s->more[i - 1].linktype != s->first->linktype)
			return -1;
	return s->first->linktype;
}

/* Go on with the next input: the one read is closed, the next opened (its
 * link type as when it was checked at the start).  0, or -1 with errbuf. */
static int next_input(struct gd_inputs *s, char *errbuf)
{
	struct gd_input *in = &s->more[s->cur];
	const char *name = s->names[s->cur + 1];

	s->base += s->rd->count;
	rd_close(s);
	s->cur++;
	if (rd_open(s, name, errbuf) < 0)
		return -1;
	if (in->linktype < 0 && input_cfg(s, in, name, errbuf) < 0)
		return -1;
	if (s->more_rd.linktype != in->linktype) {
		snprintf(errbuf, GD_ERRBUF, "%s: link type %d, not %d as at the start: the file "
			 "changed", name, s->more_rd.linktype, in->linktype);
		return -1;
	}
	s->rd = &s->more_rd;
	s->fc = &in->fc;
	return 0;
}

int inputs_next(void *ctx, struct gd_rec *rec, const struct gd_frame_cfg **cfg, char *errbuf)
{
	struct gd_inputs *s = ctx;

	for (;;) {
		int rr = reader_next_quick(s->rd, rec, errbuf);

		if (rr == 1) {
			if (s->progress)
				progress_tick(s->progress, s->rd);
			rec->no += s->base;
			*cfg = s->fc;
			return 1;
		}
		if (rr < 0 || s->cur + 1 >= s->n)
			return rr;
		if (next_input(s, errbuf) < 0)
			return -1;
	}
}

void inputs_close(struct gd_inputs *s)
{
	rd_close(s);
	for (unsigned i = 0; s->more && i + 1 < s->n; i++) {
		struct gd_input *in = &s->more[i];

		if (in->have_prog)
			pcap_freecode(&in->prog);
		if (in->dead)
			pcap_close(in->dead);
	}
	free(s->more);
	s->more = NULL;
	s->n = 0;
}
