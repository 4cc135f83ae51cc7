// SPDX-License-Identifier: BSD-2-Clause
/*
 * pcap_writer.c - classic pcap and pcapng files, written under a temporary
 * name and moved into place when complete (pcap_writer.h).
 *
 * Classic pcap: a 24-byte file header (magic, version 2.4, thiszone 0,
 * sigfigs 0, snaplen, linktype), then per record a 16-byte header (seconds,
 * micro- or nanoseconds, caplen, wirelen) and the bytes, all little-endian.
 * pcapng: a Section Header Block (version 1.0, section length unknown), one
 * Interface Description Block, an Enhanced Packet Block per record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcap_writer.h"

#define DEFAULT_SNAPLEN 262144u

static void le16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
}

static void le32(uint8_t *b, uint32_t v)
{
	le16(b, (uint16_t)v);
	le16(b + 2, (uint16_t)(v >> 16));
}

/* errbuf is PCAPW_ERRBUF_SIZE bytes; a long path is cut short there. */
__attribute__((format(printf, 2, 3)))
static int errf(char *errbuf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(errbuf, PCAPW_ERRBUF_SIZE, fmt, ap);
	va_end(ap);
	return -1;
}

/* Record what the inputs are (device and inode): the ones that exist. */
static int inputs_stat(struct pcapw *w, const struct pcapw_opts *o, char *errbuf)
{
	const char *const *in = o->inputs;

	for (size_t i = 0; in && in[i]; i++) {
		struct stat st;
		int r = strcmp(in[i], "-") ? stat(in[i], &st) : fstat(STDIN_FILENO, &st);

		if (r)
			continue; /* nothing there: nothing to protect */
		if (w->n_inputs == PCAPW_MAX_INPUTS)
			return errf(errbuf, "%s: more than %d input files to protect", w->path,
				    PCAPW_MAX_INPUTS);
		w->in[w->n_inputs].dev = st.st_dev;
		w->in[w->n_inputs].ino = st.st_ino;
		w->n_inputs++;
	}
	return 0;
}

/* The index of the input that st is, or -1. */
static int which_input(const struct pcapw *w, const struct stat *st)
{
	for (unsigned i = 0; i < w->n_inputs; i++)
		if (w->in[i].dev == st->st_dev && w->in[i].ino == st->st_ino)
			return (int)i;
	return -1;
}

/* The name of the k-th input that exists, for a message. */
static const char *input_name(const struct pcapw_opts *o, int k)
{
	for (size_t i = 0; o->inputs && o->inputs[i]; i++) {
		struct stat st;
		const char *n = o->inputs[i];

		if (strcmp(n, "-") ? stat(n, &st) : fstat(STDIN_FILENO, &st))
			continue;
		if (k-- == 0)
			return strcmp(n, "-") ? n : "standard input";
	}
	return "?";
}

/* May NAME be written?  0, or -1 with errbuf. */
static int check_target(struct pcapw *w, const struct pcapw_opts *o, char *errbuf)
{
	struct stat lst, st;
	int k;

	if (lstat(w->path, &lst)) {
		if (errno == ENOENT)
			return 0;
		return errf(errbuf, "%s: %s", w->path, strerror(errno));
	}
	if (stat(w->path, &st) == 0) { /* a dangling symbolic link: just a name */
		if ((k = which_input(w, &st)) >= 0) {
			const char *in = input_name(o, k);

			return errf(errbuf, "%s: refusing to overwrite %s being read%s%s%s",
				    w->path, w->noun, strcmp(in, w->path) ? " (" : "",
				    strcmp(in, w->path) ? in : "", strcmp(in, w->path) ? ")" : "");
		}
		if (!S_ISREG(st.st_mode))
			return errf(errbuf, "%s: not a regular file", w->path);
	}
	if (!(w->flags & PCAPW_FORCE))
		return errf(errbuf, "%s: file exists; use --force to overwrite it", w->path);
	return 0;
}

/* The temporary file NAME.tmp.XXXXXX beside NAME, opened for writing. */
static int make_tmp(struct pcapw *w, char *errbuf)
{
	mode_t mask;
	int fd;

	if ((size_t)snprintf(w->tmp, sizeof(w->tmp), "%s.tmp.XXXXXX", w->path) >= sizeof(w->tmp))
		return errf(errbuf, "%s: %s", w->path, strerror(ENAMETOOLONG));
	if ((fd = mkstemp(w->tmp)) < 0) {
		int e = errno;

		w->tmp[0] = '\0';
		return errf(errbuf, "%s: %s", w->path, strerror(e));
	}
	/* mkstemp makes 0600: give the file what fopen(3) would */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) || !(w->f = fdopen(fd, "wb"))) {
		int e = errno;

		close(fd);
		unlink(w->tmp);
		w->tmp[0] = '\0';
		return errf(errbuf, "%s: %s", w->path, strerror(e));
	}
	return 0;
}

static void put(struct pcapw *w, const void *b, size_t n)
{
	if (w->failed || !n)
		return;
	errno = 0;
	if (fwrite(b, 1, n, w->f) != n)
		w->failed = errno ? errno : EIO;
}

static void write_header(struct pcapw *w, const struct pcapw_opts *o)
{
	uint32_t snaplen = o->snaplen ? o->snaplen : DEFAULT_SNAPLEN;
	uint8_t h[48];

	if (!(w->flags & PCAPW_PCAPNG)) {
		le32(h, w->flags & PCAPW_NSEC ? 0xa1b23c4du : 0xa1b2c3d4u);
		le16(h + 4, 2);
		le16(h + 6, 4);
		le32(h + 8, 0);
		le32(h + 12, 0);
		le32(h + 16, snaplen);
		le32(h + 20, (uint32_t)o->linktype);
		put(w, h, 24);
		return;
	}
	le32(h, 0x0a0d0d0a);         /* SHB */
	le32(h + 4, 28);
	le32(h + 8, 0x1a2b3c4d);     /* byte-order magic */
	le16(h + 12, 1);
	le16(h + 14, 0);
	le32(h + 16, 0xffffffff);    /* section length: not given */
	le32(h + 20, 0xffffffff);
	le32(h + 24, 28);
	le32(h + 28, 1);             /* IDB */
	le32(h + 32, 20);
	le16(h + 36, (uint16_t)o->linktype);
	le16(h + 38, 0);
	le32(h + 40, snaplen);
	le32(h + 44, 20);
	put(w, h, 48);
}

int pcapw_open(struct pcapw *w, const char *name, const struct pcapw_opts *o,
	       char *errbuf)
{
	memset(w, 0, sizeof(*w));
	if (!name || !*name)
		return errf(errbuf, "an empty file name");
	if ((o->flags & PCAPW_PCAPNG) && (o->flags & PCAPW_NSEC))
		return errf(errbuf, "%s: pcapng is written in microseconds", name);
	w->flags = o->flags;
	w->noun = o->input_noun ? o->input_noun : "the capture";
	if ((o->flags & PCAPW_STDOUT) && !strcmp(name, "-")) {
		snprintf(w->path, sizeof(w->path), "standard output");
		w->f = stdout;
	} else {
		if (strlen(name) >= sizeof(w->path))
			return errf(errbuf, "%.64s...: %s", name, strerror(ENAMETOOLONG));
		memcpy(w->path, name, strlen(name) + 1);
		if (inputs_stat(w, o, errbuf) || check_target(w, o, errbuf) ||
		    make_tmp(w, errbuf))
			return -1;
	}
	write_header(w, o);
	return 0;
}

int pcapw_write(struct pcapw *w, int64_t sec, uint32_t nsec, const void *data,
		uint32_t caplen, uint32_t wirelen)
{
	static const uint8_t zero[4];
	uint8_t h[28];

	if (!w->f || w->failed)
		return -1;
	if (!(w->flags & PCAPW_PCAPNG)) {
		le32(h, (uint32_t)sec);
		le32(h + 4, w->flags & PCAPW_NSEC ? nsec : nsec / 1000);
		le32(h + 8, caplen);
		le32(h + 12, wirelen);
		put(w, h, 16);
		put(w, data, caplen);
	} else {
		uint32_t pad = (4 - caplen % 4) % 4, total = 32 + caplen + pad;
		uint64_t us = (uint64_t)sec * 1000000u + nsec / 1000;

		le32(h, 6);              /* EPB */
		le32(h + 4, total);
		le32(h + 8, 0);          /* interface 0 */
		le32(h + 12, (uint32_t)(us >> 32));
		le32(h + 16, (uint32_t)us);
		le32(h + 20, caplen);
		le32(h + 24, wirelen);
		put(w, h, 28);
		put(w, data, caplen);
		put(w, zero, pad);
		le32(h, total);
		put(w, h, 4);
	}
	w->records++;
	return w->failed ? -1 : 0;
}

/* Flush, sync and close the temporary file (flush only for stdout). */
static void finish(struct pcapw *w)
{
	errno = 0;
	if (fflush(w->f) && !w->failed)
		w->failed = errno ? errno : EIO;
	if (w->f == stdout)
		return;
	if (!w->failed && fsync(fileno(w->f)))
		w->failed = errno;
	errno = 0;
	if (fclose(w->f) && !w->failed)
		w->failed = errno ? errno : EIO;
}

/* Move the complete temporary file to NAME under the rules of open. */
static int place(struct pcapw *w, char *errbuf)
{
	struct stat st;

	if (w->flags & PCAPW_FORCE) {
		/* NAME may have changed since open: never onto an input */
		if (stat(w->path, &st) == 0 && which_input(w, &st) >= 0)
			return errf(errbuf, "%s: refusing to overwrite %s being read",
				    w->path, w->noun);
		if (rename(w->tmp, w->path))
			return errf(errbuf, "%s: %s", w->path, strerror(errno));
		return 0;
	}
	/* link(2) fails if NAME appeared meanwhile; rename(2) would replace it */
	if (link(w->tmp, w->path) == 0) {
		unlink(w->tmp);
		return 0;
	}
	if (errno == EEXIST)
		return errf(errbuf, "%s: file exists (made while writing); use --force to "
			    "overwrite it", w->path);
	if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS)
		return errf(errbuf, "%s: %s", w->path, strerror(errno));
	/* a file system without hard links: check, then rename */
	if (lstat(w->path, &st) == 0)
		return errf(errbuf, "%s: file exists; use --force to overwrite it", w->path);
	if (rename(w->tmp, w->path))
		return errf(errbuf, "%s: %s", w->path, strerror(errno));
	return 0;
}

int pcapw_close(struct pcapw *w, int keep, char *errbuf)
{
	int rc = 0;

	if (!w->f)
		return 0;
	finish(w);
	w->f = NULL;
	if (w->failed) {
		rc = errf(errbuf, "%s: write error: %s%s", w->path, strerror(w->failed),
			  w->tmp[0] ? " (partial output removed)" : "");
		keep = 0;
	}
	if (!w->tmp[0])
		return rc;
	if (keep && place(w, errbuf) < 0)
		rc = -1;
	if (!keep || rc < 0)
		unlink(w->tmp); /* else it is NAME now (renamed, or linked and unlinked) */
	w->tmp[0] = '\0';
	return rc;
}
