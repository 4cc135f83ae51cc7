// SPDX-License-Identifier: BSD-2-Clause
/*
 * atomic_file.c - an output file written under a temporary name and moved
 * into place when complete (atomic_file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

/* errbuf is AFILE_ERRBUF_SIZE bytes; a long path is cut short there. */
__attribute__((format(printf, 2, 3)))
static int errf(char *errbuf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(errbuf, AFILE_ERRBUF_SIZE, fmt, ap);
	va_end(ap);
	return -1;
}

/* Record what the inputs are (device and inode): the ones that exist. */
static int inputs_stat(struct afile *a, const struct afile_opts *o, char *errbuf)
{
	const char *const *in = o->inputs;
	size_t n = 0;

	while (in && in[n])
		n++;
	if (n && !(a->in = calloc(n, sizeof(*a->in))))
		return errf(errbuf, "%s: out of memory", a->path);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		int r = strcmp(in[i], "-") ? stat(in[i], &st) : fstat(STDIN_FILENO, &st);

		if (r)
			continue; /* nothing there: nothing to protect */
		a->in[a->n_inputs] = (struct afile_id){
			st.st_dev, st.st_ino, strcmp(in[i], "-") ? in[i] : "standard input",
			o->input_nouns ? o->input_nouns[i]
			: o->input_noun ? o->input_noun : "the capture" };
		a->n_inputs++;
	}
	return 0;
}

/* The input that st is, or NULL. */
static const struct afile_id *which_input(const struct afile *a, const struct stat *st)
{
	for (size_t i = 0; i < a->n_inputs; i++)
		if (a->in[i].dev == st->st_dev && a->in[i].ino == st->st_ino)
			return &a->in[i];
	return NULL;
}

static void inputs_free(struct afile *a)
{
	free(a->in);
	a->in = NULL;
	a->n_inputs = 0;
}

/* May NAME be written?  0, or -1 with errbuf. */
static int check_target(struct afile *a, char *errbuf)
{
	struct stat lst, st;
	const struct afile_id *k;

	if (lstat(a->path, &lst)) {
		if (errno == ENOENT)
			return 0;
		return errf(errbuf, "%s: %s", a->path, strerror(errno));
	}
	if (stat(a->path, &st) == 0) { /* a dangling symbolic link: just a name */
		if ((k = which_input(a, &st))) {
			const char *in = k->name;

			return errf(errbuf, "%s: refusing to overwrite %s being read%s%s%s",
				    a->path, k->noun, strcmp(in, a->path) ? " (" : "",
				    strcmp(in, a->path) ? in : "", strcmp(in, a->path) ? ")" : "");
		}
		if (!S_ISREG(st.st_mode))
			return errf(errbuf, "%s: not a regular file", a->path);
	}
	if (!(a->flags & AFILE_FORCE))
		return errf(errbuf, "%s: file exists; use --force to overwrite it", a->path);
	return 0;
}

/*
 * Interrupted runs publish nothing and leave nothing: SIGINT, SIGTERM and
 * SIGHUP remove the temporary files being written, then end the process
 * as they would have (the handler is reset, the signal raised again).  A
 * process that handles one of them itself keeps its handler: gbpdump -i
 * ends a capture on SIGINT and keeps its -w file, as tcpdump does.  The
 * handler can only reach what is static, hence this table of the open
 * files' temporary names (each an afile's own tmp).
 */
#define LIVE_MAX 16
static const char *volatile live[LIVE_MAX];

/* Not SA_RESETHAND: timeout(1) signals the process and then its group, and
 * the second signal, taken by another thread with the default action back,
 * killed the process before the first thread's unlink.  Every thread that
 * takes one unlinks all before it lets the default action happen. */
static void on_fatal_signal(int sig)
{
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i])
			unlink(live[i]);
	signal(sig, SIG_DFL);
	raise(sig); /* blocked in the handler: delivered when it returns */
}

static void live_add(const char *tmp)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa, old;

		if (sigaction(sigs[i], NULL, &old) || old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigfillset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
	for (int i = 0; i < LIVE_MAX; i++)
		if (!live[i]) {
			live[i] = tmp;
			return;
		}
}

static void live_drop(const char *tmp)
{
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i] == tmp)
			live[i] = NULL;
}

/* The temporary file NAME.tmp.XXXXXX beside NAME, opened for writing. */
static int make_tmp(struct afile *a, char *errbuf)
{
	mode_t mask;
	int fd;

	if ((size_t)snprintf(a->tmp, sizeof(a->tmp), "%s.tmp.XXXXXX", a->path) >= sizeof(a->tmp))
		return errf(errbuf, "%s: %s", a->path, strerror(ENAMETOOLONG));
	if ((fd = mkstemp(a->tmp)) < 0) {
		int e = errno;

		a->tmp[0] = '\0';
		return errf(errbuf, "%s: %s", a->path, strerror(e));
	}
	live_add(a->tmp);
	/* mkstemp makes 0600: give the file what fopen(3) would */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) || !(a->f = fdopen(fd, "wb"))) {
		int e = errno;

		close(fd);
		unlink(a->tmp);
		live_drop(a->tmp);
		a->tmp[0] = '\0';
		return errf(errbuf, "%s: %s", a->path, strerror(e));
	}
	return 0;
}

int afile_open(struct afile *a, const char *name, const struct afile_opts *o,
	       char *errbuf)
{
	memset(a, 0, sizeof(*a));
	if (!name || !*name)
		return errf(errbuf, "an empty file name");
	a->flags = o->flags;
	if ((o->flags & AFILE_STDOUT) && !strcmp(name, "-")) {
		snprintf(a->path, sizeof(a->path), "standard output");
		a->f = stdout;
		return 0;
	}
	if (strlen(name) >= sizeof(a->path))
		return errf(errbuf, "%.64s...: %s", name, strerror(ENAMETOOLONG));
	memcpy(a->path, name, strlen(name) + 1);
	if (inputs_stat(a, o, errbuf) || check_target(a, errbuf) || make_tmp(a, errbuf)) {
		inputs_free(a);
		return -1;
	}
	return 0;
}

int afile_write(struct afile *a, const void *b, size_t n)
{
	if (!a->f || a->failed)
		return -1;
	errno = 0;
	if (n && fwrite(b, 1, n, a->f) != n)
		a->failed = errno ? errno : EIO;
	return a->failed ? -1 : 0;
}

int afile_printf(struct afile *a, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (!a->f || a->failed)
		return -1;
	va_start(ap, fmt);
	errno = 0;
	r = vfprintf(a->f, fmt, ap);
	va_end(ap);
	if (r < 0)
		a->failed = errno ? errno : EIO;
	return a->failed ? -1 : 0;
}

/* Flush, sync and close the temporary file (flush only for stdout). */
static void finish(struct afile *a)
{
	errno = 0;
	if ((fflush(a->f) || ferror(a->f)) && !a->failed)
		a->failed = errno ? errno : EIO;
	if (a->f == stdout)
		return;
	if (!a->failed && fsync(fileno(a->f)))
		a->failed = errno;
	errno = 0;
	if (fclose(a->f) && !a->failed)
		a->failed = errno ? errno : EIO;
}

/* Move the complete temporary file to NAME under the rules of open. */
static int place(struct afile *a, char *errbuf)
{
	struct stat st;

	if (a->flags & AFILE_FORCE) {
		/* NAME may have changed since open: never onto an input */
		const struct afile_id *k = stat(a->path, &st) == 0 ? which_input(a, &st) : NULL;

		if (k)
			return errf(errbuf, "%s: refusing to overwrite %s being read",
				    a->path, k->noun);
		if (rename(a->tmp, a->path))
			return errf(errbuf, "%s: %s", a->path, strerror(errno));
		return 0;
	}
	/* link(2) fails if NAME appeared meanwhile; rename(2) would replace it */
	if (link(a->tmp, a->path) == 0) {
		unlink(a->tmp);
		return 0;
	}
	if (errno == EEXIST)
		return errf(errbuf, "%s: file exists (made while writing); use --force to "
			    "overwrite it", a->path);
	if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS)
		return errf(errbuf, "%s: %s", a->path, strerror(errno));
	/* a file system without hard links: check, then rename */
	if (lstat(a->path, &st) == 0)
		return errf(errbuf, "%s: file exists; use --force to overwrite it", a->path);
	if (rename(a->tmp, a->path))
		return errf(errbuf, "%s: %s", a->path, strerror(errno));
	return 0;
}

int afile_close(struct afile *a, int keep, char *errbuf)
{
	int rc = 0;

	if (!a->f)
		return 0;
	finish(a);
	a->f = NULL;
	if (a->failed) {
		rc = errf(errbuf, "%s: write error: %s%s", a->path, strerror(a->failed),
			  a->tmp[0] ? " (partial output removed)" : "");
		keep = 0;
	}
	if (!a->tmp[0])
		return rc;
	if (keep && place(a, errbuf) < 0)
		rc = -1;
	if (!keep || rc < 0)
		unlink(a->tmp); /* else it is NAME now (renamed, or linked and unlinked) */
	live_drop(a->tmp);
	a->tmp[0] = '\0';
	inputs_free(a);
	return rc;
}
