// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_pcap_writer.c - common/pcap_writer, the tools' one capture writer:
 * the bytes of classic pcap and pcapng, the file appearing only when
 * complete (atomic rename), no clobbering without PCAPW_FORCE (also when the
 * file appears while writing), never writing over an input (by its name,
 * another path, a symbolic link, a hard link, standard input), refusing
 * what is not a regular file, and the errors for a missing, a read-only
 * directory and a failed write, each naming the file.
 *
 * Expected bytes are written from the formats (pcap: the libpcap file
 * format; pcapng: draft-ietf-opsawg-pcapng), not from the writer's code.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pcap_writer.h"

static char dir[512];
static char errbuf[PCAPW_ERRBUF_SIZE];

static const uint8_t frame1[] = { 1, 2, 3, 4, 5, 6, 7 };
static const uint8_t frame2[] = { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, 0x11 };

/* ---- helpers ---- */

static const char *at(const char *name)
{
	static char p[4][PATH_MAX];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

/* Remove path and, for a folder, everything in it (not through links). */
static void rm_tree(const char *path)
{
	struct stat st;
	struct dirent *e;
	DIR *d;

	if (lstat(path, &st))
		return;
	if (S_ISDIR(st.st_mode) && (d = opendir(path))) {
		while ((e = readdir(d))) {
			char sub[PATH_MAX];

			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
			    (size_t)snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) < sizeof(sub))
				rm_tree(sub);
		}
		closedir(d);
	}
	remove(path);
}

static void setup(void)
{
	const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	ck_assert_uint_lt(strlen(base), sizeof(dir) - 16);
	snprintf(dir, sizeof(dir), "%s/pcapw.XXXXXX", base);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chmod(dir, 0755), 0);
	umask(022);
	errbuf[0] = '\0';
}

static void teardown(void)
{
	chmod(at("ro"), 0755);
	rm_tree(dir);
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The whole file into buf; its length, or -1. */
static long get_file(const char *path, uint8_t *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, cap, f);
	fclose(f);
	return (long)n;
}

static int has_text(const char *path, const char *text)
{
	uint8_t b[256];
	long n = get_file(path, b, sizeof(b));

	return n == (long)strlen(text) && memcmp(b, text, (size_t)n) == 0;
}

/* Entries of the test folder with ".tmp." in their name. */
static int tmp_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".tmp."))
			n++;
	closedir(d);
	return n;
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static uint32_t rd32(const uint8_t *b)
{
	return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint16_t rd16(const uint8_t *b)
{
	return (uint16_t)(b[0] | b[1] << 8);
}

static int open_w(struct pcapw *w, const char *name, unsigned flags, const char *const *inputs)
{
	struct pcapw_opts o = { .flags = flags, .linktype = 1, .inputs = inputs };

	return pcapw_open(w, name, &o, errbuf);
}

/* Write the two test records and keep the file. */
static void write_two(const char *name, unsigned flags)
{
	struct pcapw w;

	ck_assert_int_eq(open_w(&w, name, flags, NULL), 0);
	ck_assert_int_eq(pcapw_write(&w, 1700000000, 123456789, frame1, sizeof(frame1), 60), 0);
	ck_assert_int_eq(pcapw_write(&w, 1700000001, 5000, frame2, 5, sizeof(frame2)), 0);
	ck_assert_uint_eq(w.records, 2);
	ck_assert_int_eq(pcapw_close(&w, 1, errbuf), 0);
}

#define ERR_HAS(s) ck_assert_msg(strstr(errbuf, (s)) != NULL, "errbuf \"%s\" lacks \"%s\"", \
				 errbuf, (s))

/* ---- formats ---- */

START_TEST(classic_bytes)
{
	uint8_t b[256];
	long n;

	write_two(at("a.pcap"), 0);
	n = get_file(at("a.pcap"), b, sizeof(b));
	ck_assert_int_eq(n, 24 + 16 + 7 + 16 + 5);
	ck_assert_uint_eq(rd32(b), 0xa1b2c3d4);   /* microseconds */
	ck_assert_uint_eq(rd16(b + 4), 2);
	ck_assert_uint_eq(rd16(b + 6), 4);
	ck_assert_uint_eq(rd32(b + 8), 0);        /* thiszone */
	ck_assert_uint_eq(rd32(b + 12), 0);       /* sigfigs */
	ck_assert_uint_eq(rd32(b + 16), 262144);  /* snaplen 0: the default */
	ck_assert_uint_eq(rd32(b + 20), 1);       /* Ethernet */
	ck_assert_uint_eq(rd32(b + 24), 1700000000);
	ck_assert_uint_eq(rd32(b + 28), 123456);
	ck_assert_uint_eq(rd32(b + 32), 7);
	ck_assert_uint_eq(rd32(b + 36), 60);
	ck_assert(memcmp(b + 40, frame1, 7) == 0);
	ck_assert_uint_eq(rd32(b + 47), 1700000001);
	ck_assert_uint_eq(rd32(b + 51), 5);
	ck_assert_uint_eq(rd32(b + 55), 5);
	ck_assert_uint_eq(rd32(b + 59), 8);
	ck_assert(memcmp(b + 63, frame2, 5) == 0);

	write_two(at("n.pcap"), PCAPW_NSEC);
	ck_assert_int_eq(get_file(at("n.pcap"), b, sizeof(b)), n);
	ck_assert_uint_eq(rd32(b), 0xa1b23c4d);   /* nanoseconds */
	ck_assert_uint_eq(rd32(b + 28), 123456789);
	ck_assert_uint_eq(rd32(b + 51), 5000);
}
END_TEST

START_TEST(pcapng_bytes)
{
	uint8_t b[256];
	uint64_t us = 1700000000ull * 1000000 + 123456;

	write_two(at("a.pcapng"), PCAPW_PCAPNG);
	ck_assert_int_eq(get_file(at("a.pcapng"), b, sizeof(b)), 28 + 20 + 40 + 40);
	/* Section Header Block */
	ck_assert_uint_eq(rd32(b), 0x0a0d0d0a);
	ck_assert_uint_eq(rd32(b + 4), 28);
	ck_assert_uint_eq(rd32(b + 8), 0x1a2b3c4d);
	ck_assert_uint_eq(rd16(b + 12), 1);
	ck_assert_uint_eq(rd16(b + 14), 0);
	ck_assert_uint_eq(rd32(b + 16), 0xffffffff); /* section length -1 */
	ck_assert_uint_eq(rd32(b + 20), 0xffffffff);
	ck_assert_uint_eq(rd32(b + 24), 28);
	/* Interface Description Block */
	ck_assert_uint_eq(rd32(b + 28), 1);
	ck_assert_uint_eq(rd32(b + 32), 20);
	ck_assert_uint_eq(rd16(b + 36), 1);
	ck_assert_uint_eq(rd16(b + 38), 0);
	ck_assert_uint_eq(rd32(b + 40), 262144);
	ck_assert_uint_eq(rd32(b + 44), 20);
	/* Enhanced Packet Block: 7 bytes padded to 8 */
	ck_assert_uint_eq(rd32(b + 48), 6);
	ck_assert_uint_eq(rd32(b + 52), 40);
	ck_assert_uint_eq(rd32(b + 56), 0);
	ck_assert_uint_eq(rd32(b + 60), (uint32_t)(us >> 32));
	ck_assert_uint_eq(rd32(b + 64), (uint32_t)us);
	ck_assert_uint_eq(rd32(b + 68), 7);
	ck_assert_uint_eq(rd32(b + 72), 60);
	ck_assert(memcmp(b + 76, frame1, 7) == 0);
	ck_assert_uint_eq(b[83], 0);
	ck_assert_uint_eq(rd32(b + 84), 40);
	/* the second: 5 bytes padded to 8 */
	ck_assert_uint_eq(rd32(b + 88), 6);
	ck_assert_uint_eq(rd32(b + 92), 40);
	ck_assert_uint_eq(rd32(b + 108), 5);
	ck_assert_uint_eq(rd32(b + 112), 8);
	ck_assert(memcmp(b + 116, frame2, 5) == 0);
	ck_assert(b[121] == 0 && b[122] == 0 && b[123] == 0);
	ck_assert_uint_eq(rd32(b + 124), 40);
	/* pcapng has no nanosecond mode here */
	{
		struct pcapw w;

		ck_assert_int_eq(open_w(&w, at("x.pcapng"), PCAPW_PCAPNG | PCAPW_NSEC, NULL), -1);
		ERR_HAS("x.pcapng");
		ck_assert(!exists(at("x.pcapng")));
	}
}
END_TEST

/* ---- atomic rename ---- */

START_TEST(atomic_new_file)
{
	struct pcapw w;
	struct stat st;

	ck_assert_int_eq(open_w(&w, at("new.pcap"), 0, NULL), 0);
	ck_assert_int_eq(pcapw_write(&w, 1, 0, frame1, sizeof(frame1), 7), 0);
	fflush(w.f);
	/* written, not complete: nothing under the name, a temporary beside it */
	ck_assert(!exists(at("new.pcap")));
	ck_assert_int_eq(tmp_files(), 1);
	ck_assert_int_eq(strncmp(w.af.tmp, at("new.pcap.tmp."), strlen(at("new.pcap.tmp."))), 0);
	ck_assert_int_eq(pcapw_close(&w, 1, errbuf), 0);
	ck_assert_int_eq(tmp_files(), 0);
	ck_assert_int_eq(stat(at("new.pcap"), &st), 0);
	ck_assert_int_eq(st.st_size, 24 + 16 + 7);
	ck_assert_uint_eq(st.st_mode & 07777, 0644); /* 0666 less the umask */
	ck_assert_ptr_null(w.f);
	ck_assert_int_eq(pcapw_close(&w, 1, errbuf), 0); /* closing twice: nothing */

	umask(077);
	write_two(at("private.pcap"), 0);
	ck_assert_int_eq(stat(at("private.pcap"), &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
}
END_TEST

START_TEST(atomic_replace)
{
	struct pcapw w;
	struct stat before, after;

	put_file(at("old.pcap"), "old contents");
	ck_assert_int_eq(stat(at("old.pcap"), &before), 0);
	ck_assert_int_eq(open_w(&w, at("old.pcap"), PCAPW_FORCE, NULL), 0);
	ck_assert_int_eq(pcapw_write(&w, 1, 0, frame2, sizeof(frame2), 8), 0);
	fflush(w.f);
	ck_assert(has_text(at("old.pcap"), "old contents")); /* until close */
	ck_assert_int_eq(pcapw_close(&w, 1, errbuf), 0);
	ck_assert_int_eq(stat(at("old.pcap"), &after), 0);
	ck_assert_int_eq(after.st_size, 24 + 16 + 8);
	ck_assert(after.st_ino != before.st_ino); /* a new file renamed over it */
	ck_assert_int_eq(tmp_files(), 0);
}
END_TEST

START_TEST(discard)
{
	struct pcapw w;

	put_file(at("keep.pcap"), "keep");
	ck_assert_int_eq(open_w(&w, at("keep.pcap"), PCAPW_FORCE, NULL), 0);
	ck_assert_int_eq(pcapw_write(&w, 1, 0, frame1, sizeof(frame1), 7), 0);
	ck_assert_int_eq(pcapw_close(&w, 0, errbuf), 0);
	ck_assert(has_text(at("keep.pcap"), "keep"));
	ck_assert_int_eq(open_w(&w, at("gone.pcap"), 0, NULL), 0);
	ck_assert_int_eq(pcapw_close(&w, 0, errbuf), 0);
	ck_assert(!exists(at("gone.pcap")));
	ck_assert_int_eq(tmp_files(), 0);
}
END_TEST

/* ---- no clobbering, force ---- */

START_TEST(no_clobber)
{
	struct pcapw w;

	put_file(at("exists.pcap"), "mine");
	ck_assert_int_eq(open_w(&w, at("exists.pcap"), 0, NULL), -1);
	ERR_HAS(at("exists.pcap"));
	ERR_HAS("file exists; use --force");
	ck_assert(has_text(at("exists.pcap"), "mine"));
	ck_assert_int_eq(tmp_files(), 0);
	ck_assert_ptr_null(w.f);
	/* a dangling symbolic link is a name in use too */
	ck_assert_int_eq(symlink("nowhere", at("dangling.pcap")), 0);
	ck_assert_int_eq(open_w(&w, at("dangling.pcap"), 0, NULL), -1);
	ERR_HAS("file exists");
}
END_TEST

/* The name was free at open and is taken before close: the other file wins. */
START_TEST(no_clobber_meanwhile)
{
	struct pcapw w;

	ck_assert_int_eq(open_w(&w, at("race.pcap"), 0, NULL), 0);
	ck_assert_int_eq(pcapw_write(&w, 1, 0, frame1, sizeof(frame1), 7), 0);
	put_file(at("race.pcap"), "theirs");
	ck_assert_int_eq(pcapw_close(&w, 1, errbuf), -1);
	ERR_HAS(at("race.pcap"));
	ERR_HAS("file exists");
	ck_assert(has_text(at("race.pcap"), "theirs"));
	ck_assert_int_eq(tmp_files(), 0);
}
END_TEST

START_TEST(force)
{
	struct pcapw w;
	uint8_t b[128];

	put_file(at("exists.pcap"), "mine");
	write_two(at("exists.pcap"), PCAPW_FORCE);
	ck_assert_int_eq(get_file(at("exists.pcap"), b, sizeof(b)), 24 + 16 + 7 + 16 + 5);
	ck_assert_uint_eq(rd32(b), 0xa1b2c3d4);
	/* a symbolic link to a file that is not an input: the link is replaced,
	 * the file it pointed to is left alone */
	put_file(at("target.pcap"), "target");
	ck_assert_int_eq(symlink("target.pcap", at("link.pcap")), 0);
	ck_assert_int_eq(open_w(&w, at("link.pcap"), 0, NULL), -1);
	ERR_HAS("file exists");
	write_two(at("link.pcap"), PCAPW_FORCE);
	ck_assert(has_text(at("target.pcap"), "target"));
	ck_assert_int_eq(readlink(at("link.pcap"), (char *)b, sizeof(b)), -1);
	ck_assert_int_eq(get_file(at("link.pcap"), b, sizeof(b)), 24 + 16 + 7 + 16 + 5);
	ck_assert_int_eq(tmp_files(), 0);
}
END_TEST

/* Not a regular file: refused even with force. */
START_TEST(not_regular)
{
	struct pcapw w;

	ck_assert_int_eq(mkdir(at("sub"), 0755), 0);
	ck_assert_int_eq(open_w(&w, at("sub"), PCAPW_FORCE, NULL), -1);
	ERR_HAS("not a regular file");
	ERR_HAS(at("sub"));
	ck_assert_int_eq(open_w(&w, "/dev/null", PCAPW_FORCE, NULL), -1);
	ERR_HAS("/dev/null: not a regular file");
	ck_assert_int_eq(symlink("/dev/null", at("null.pcap")), 0);
	ck_assert_int_eq(open_w(&w, at("null.pcap"), PCAPW_FORCE, NULL), -1);
	ERR_HAS("not a regular file");
	ck_assert_int_eq(tmp_files(), 0);
}
END_TEST

/* ---- inputs ---- */

static void refused(const char *name, const char *const *inputs, const char *names_input)
{
	struct pcapw w;
	uint8_t b[64];

	ck_assert_int_eq(open_w(&w, name, PCAPW_FORCE, inputs), -1);
	ERR_HAS(name);
	ERR_HAS("refusing to overwrite the capture being read");
	if (names_input)
		ERR_HAS(names_input);
	ck_assert_ptr_null(w.f);
	ck_assert_int_eq(get_file(at("in.pcap"), b, sizeof(b)), 5);
	ck_assert(memcmp(b, "input", 5) == 0);
	ck_assert_int_eq(tmp_files(), 0);
}

START_TEST(inputs_protected)
{
	char inp[PATH_MAX], other[PATH_MAX], sym[PATH_MAX], dotted[PATH_MAX];
	const char *in[] = { inp, NULL };
	const char *two[] = { other, inp, NULL };
	const char *via_link[] = { sym, NULL };

	snprintf(inp, sizeof(inp), "%s", at("in.pcap"));
	snprintf(other, sizeof(other), "%s", at("other.pcap"));
	snprintf(sym, sizeof(sym), "%s", at("sym.pcap"));

	put_file(at("in.pcap"), "input");
	put_file(at("other.pcap"), "other");
	ck_assert_int_eq(symlink("in.pcap", at("sym.pcap")), 0);
	ck_assert_int_eq(link(at("in.pcap"), at("hard.pcap")), 0);
	ck_assert_int_eq(mkdir(at("sub"), 0755), 0);
	snprintf(dotted, sizeof(dotted), "%s/sub/../in.pcap", dir);

	refused(at("in.pcap"), in, NULL);          /* the same name */
	refused(dotted, in, at("in.pcap"));        /* another path */
	refused(at("sym.pcap"), in, at("in.pcap"));/* a symbolic link to it */
	refused(at("hard.pcap"), in, at("in.pcap"));/* a hard link to it */
	refused(at("in.pcap"), via_link, at("sym.pcap")); /* the input named by a link */
	refused(at("hard.pcap"), two, at("in.pcap"));/* the second of two inputs */
}
END_TEST

START_TEST(input_stdin)
{
	const char *in[] = { "-", NULL };
	int fd;

	put_file(at("in.pcap"), "input");
	fd = open(at("in.pcap"), O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	refused(at("in.pcap"), in, "standard input");
}
END_TEST

/* An input that is not there protects nothing; another file is written. */
START_TEST(inputs_other)
{
	char inp[PATH_MAX], missing[PATH_MAX];
	const char *in[] = { inp, missing, NULL };
	struct pcapw w;
	struct pcapw_opts o = { .linktype = 1, .inputs = in, .input_noun = "the spec file" };

	snprintf(inp, sizeof(inp), "%s", at("in.pcap"));
	snprintf(missing, sizeof(missing), "%s", at("missing.pcap"));
	put_file(inp, "input");
	ck_assert_int_eq(open_w(&w, at("out.pcap"), 0, in), 0);
	ck_assert_int_eq(pcapw_close(&w, 1, errbuf), 0);
	ck_assert(exists(at("out.pcap")));
	/* the noun the caller gives */
	ck_assert_int_eq(pcapw_open(&w, at("in.pcap"), &o, errbuf), -1);
	ERR_HAS("refusing to overwrite the spec file being read");
	/* with force, an output that becomes an input before close is kept */
	ck_assert_int_eq(open_w(&w, at("later.pcap"), PCAPW_FORCE, in), 0);
	ck_assert_int_eq(link(at("in.pcap"), at("later.pcap")), 0);
	ck_assert_int_eq(pcapw_close(&w, 1, errbuf), -1);
	ERR_HAS("refusing to overwrite");
	ck_assert(has_text(at("in.pcap"), "input"));
	ck_assert_int_eq(tmp_files(), 0);
}
END_TEST

/* ---- errors ---- */

START_TEST(missing_dir)
{
	struct pcapw w;

	ck_assert_int_eq(open_w(&w, at("no/such/dir/x.pcap"), 0, NULL), -1);
	ERR_HAS(at("no/such/dir/x.pcap"));
	ERR_HAS(strerror(ENOENT));
	put_file(at("file"), "x");
	ck_assert_int_eq(open_w(&w, at("file/x.pcap"), PCAPW_FORCE, NULL), -1);
	ERR_HAS(at("file/x.pcap"));
	ERR_HAS(strerror(ENOTDIR));
	ck_assert_int_eq(open_w(&w, "", 0, NULL), -1);
	ck_assert_int_eq(tmp_files(), 0);
}
END_TEST

/* A read-only folder (as an unprivileged user: root writes anywhere). */
START_TEST(readonly_dir)
{
	pid_t pid;
	int status;

	ck_assert_int_eq(mkdir(at("ro"), 0555), 0);
	ck_assert_int_eq(chmod(at("ro"), 0555), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct pcapw w;
		int ok;

		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(3);
		ok = open_w(&w, at("ro/x.pcap"), 0, NULL) == -1 &&
		     strstr(errbuf, at("ro/x.pcap")) && strstr(errbuf, strerror(EACCES)) &&
		     !exists(at("ro/x.pcap"));
		if (!ok)
			fprintf(stderr, "readonly_dir: errbuf \"%s\"\n", errbuf);
		_exit(ok ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_int_eq(tmp_files(), 0);
}
END_TEST

/* A write that fails (the file size limit): reported at close, naming the
 * file, and nothing is left behind; an existing file is kept. */
START_TEST(write_error)
{
	static uint8_t big[4096];
	struct rlimit rl, was;
	struct pcapw w;
	int r = 0, rc;

	signal(SIGXFSZ, SIG_IGN);
	put_file(at("full.pcap"), "before");
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &was), 0);
	rl = was;
	rl.rlim_cur = 8192;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	ck_assert_int_eq(open_w(&w, at("full.pcap"), PCAPW_FORCE, NULL), 0);
	for (int i = 0; i < 64 && r == 0; i++)
		r = pcapw_write(&w, i, 0, big, sizeof(big), sizeof(big));
	ck_assert_int_eq(r, -1);
	ck_assert_int_eq(pcapw_write(&w, 99, 0, big, 1, 1), -1); /* stays failed */
	ck_assert_int_eq(w.failed, EFBIG);
	rc = pcapw_close(&w, 1, errbuf);
	setrlimit(RLIMIT_FSIZE, &was);
	ck_assert_int_eq(rc, -1);
	ERR_HAS(at("full.pcap"));
	ERR_HAS("write error");
	ERR_HAS("partial output removed");
	ck_assert(has_text(at("full.pcap"), "before"));
	ck_assert_int_eq(tmp_files(), 0);
}
END_TEST

/* "-" is standard output with PCAPW_STDOUT, a file named "-" without. */
START_TEST(stdout_dash)
{
	struct pcapw w;
	uint8_t b[128];
	int fd = open(at("stdout.bin"), O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
	close(fd);
	ck_assert_int_eq(open_w(&w, "-", PCAPW_STDOUT, NULL), 0);
	ck_assert_ptr_eq(w.f, stdout);
	ck_assert_int_eq(pcapw_write(&w, 1, 0, frame1, sizeof(frame1), 7), 0);
	ck_assert_int_eq(pcapw_close(&w, 1, errbuf), 0);
	ck_assert_int_eq(get_file(at("stdout.bin"), b, sizeof(b)), 24 + 16 + 7);
	ck_assert_uint_eq(rd32(b), 0xa1b2c3d4);
	ck_assert_int_eq(chdir(dir), 0);
	write_two("-", 0);
	ck_assert(exists(at("-")));
}
END_TEST

static Suite *writer_suite(void)
{
	Suite *s = suite_create("pcap_writer");
	TCase *t = tcase_create("writer");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, classic_bytes);
	tcase_add_test(t, pcapng_bytes);
	tcase_add_test(t, atomic_new_file);
	tcase_add_test(t, atomic_replace);
	tcase_add_test(t, discard);
	tcase_add_test(t, no_clobber);
	tcase_add_test(t, no_clobber_meanwhile);
	tcase_add_test(t, force);
	tcase_add_test(t, not_regular);
	tcase_add_test(t, inputs_protected);
	tcase_add_test(t, input_stdin);
	tcase_add_test(t, inputs_other);
	tcase_add_test(t, missing_dir);
	tcase_add_test(t, readonly_dir);
	tcase_add_test(t, write_error);
	tcase_add_test(t, stdout_dash);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(writer_suite());
	int failed;

	/* each test changes process state (umask, stdin, stdout, limits) */
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
