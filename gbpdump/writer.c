// SPDX-License-Identifier: BSD-2-Clause
/* writer.c - gbpdump -w (see writer.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "writer.h"

static void le32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

int writer_open(struct gd_writer *w, const char *path, const char *input, int force,
		int linktype, uint32_t snaplen, int nsec, char *errbuf)
{
	struct stat so, si;
	uint8_t h[24];
	int fd;

	memset(w, 0, sizeof(*w));
	w->nsec = nsec;
	if (strlen(path) + 16 >= sizeof(w->tmp)) {
		snprintf(errbuf, GD_ERRBUF, "%s: name too long", path);
		return -1;
	}
	if (stat(path, &so) == 0) {
		if (input && strcmp(input, "-") && stat(input, &si) == 0 &&
		    so.st_dev == si.st_dev && so.st_ino == si.st_ino) {
			snprintf(errbuf, GD_ERRBUF,
				 "%s: refusing to overwrite the capture being read", path);
			return -1;
		}
		if (!force) {
			snprintf(errbuf, GD_ERRBUF,
				 "%s: file exists; use --force to overwrite it", path);
			return -1;
		}
		if (!S_ISREG(so.st_mode)) {
			snprintf(errbuf, GD_ERRBUF, "%s: not a regular file", path);
			return -1;
		}
	}
	snprintf(w->path, sizeof(w->path), "%s", path);
	snprintf(w->tmp, sizeof(w->tmp), "%s.tmp.XXXXXX", path);
	if ((fd = mkstemp(w->tmp)) < 0 || !(w->f = fdopen(fd, "wb"))) {
		snprintf(errbuf, GD_ERRBUF, "%s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(w->tmp);
		}
		return -1;
	}
	fchmod(fd, 0644);
	le32(h, nsec ? 0xa1b23c4du : 0xa1b2c3d4u);
	h[4] = 2;
	h[5] = 0;
	h[6] = 4;
	h[7] = 0;
	le32(h + 8, 0);
	le32(h + 12, 0);
	le32(h + 16, snaplen ? snaplen : 262144);
	le32(h + 20, (uint32_t)linktype);
	if (fwrite(h, 1, 24, w->f) != 24)
		w->failed = errno ? errno : EIO;
	return 0;
}

int writer_add(struct gd_writer *w, const struct gd_rec *rec)
{
	uint8_t h[16];

	le32(h, (uint32_t)rec->sec);
	le32(h + 4, w->nsec ? rec->nsec : rec->nsec / 1000);
	le32(h + 8, rec->caplen);
	le32(h + 12, rec->wirelen);
	if (fwrite(h, 1, 16, w->f) != 16 || fwrite(rec->data, 1, rec->caplen, w->f) != rec->caplen) {
		if (!w->failed)
			w->failed = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int writer_close(struct gd_writer *w, int ok, char *errbuf)
{
	int rc = 0;

	if (!w->f)
		return 0;
	if (fflush(w->f) && !w->failed)
		w->failed = errno ? errno : EIO;
	if (fclose(w->f) && !w->failed)
		w->failed = errno ? errno : EIO;
	w->f = NULL;
	if (w->failed) {
		snprintf(errbuf, GD_ERRBUF, "%s: write error: %s (partial output removed)",
			 w->path, strerror(w->failed));
		ok = 0;
		rc = -1;
	}
	if (!ok) {
		unlink(w->tmp);
		return rc;
	}
	if (rename(w->tmp, w->path)) {
		snprintf(errbuf, GD_ERRBUF, "%s: %s (partial output removed)", w->path,
			 strerror(errno));
		unlink(w->tmp);
		return -1;
	}
	return 0;
}
