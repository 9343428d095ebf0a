// SPDX-License-Identifier: GPL-2.0
/* Output files written whole or not at all: see outfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mem.h"
#include "outfile.h"

/*
 * The temporary files open now, for the signal handler and exit(): a fixed
 * table, so the handler reads it without locks or allocation.
 */
#define OUTFILE_SLOTS 16
static char *volatile pending[OUTFILE_SLOTS];
static volatile sig_atomic_t nr_pending, interrupted;

static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NR_CLEANUP_SIGNALS (int)(sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))
static struct sigaction old_action[NR_CLEANUP_SIGNALS];
static bool installed[NR_CLEANUP_SIGNALS];

static void unlink_pending(void)
{
	for (int i = 0; i < OUTFILE_SLOTS; i++) {
		char *p = pending[i];

		if (p)
			unlink(p);
	}
}

/*
 * Removes the temporary files, then does what the signal did before: the
 * default action (dies of it, so the parent sees the signal) or the
 * program's own handler (the visualizer's, run's Ctrl-C).
 */
static void on_signal(int sig)
{
	int saved = errno;

	unlink_pending();
	interrupted = 1;
	for (int i = 0; i < NR_CLEANUP_SIGNALS; i++) {
		if (cleanup_signals[i] != sig)
			continue;
		if (old_action[i].sa_handler == SIG_DFL) {
			sigaction(sig, &old_action[i], NULL);
			raise(sig); /* delivered when this handler returns */
		} else if (!(old_action[i].sa_flags & SA_SIGINFO)) {
			old_action[i].sa_handler(sig);
		}
	}
	errno = saved;
}

static void install_handlers(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NR_CLEANUP_SIGNALS; i++) {
		/* an ignored signal stays ignored; so does a handler taking siginfo */
		if (sigaction(cleanup_signals[i], NULL, &old_action[i]) < 0 ||
		    old_action[i].sa_handler == SIG_IGN || (old_action[i].sa_flags & SA_SIGINFO))
			continue;
		sa.sa_flags = old_action[i].sa_flags & SA_RESTART;
		installed[i] = sigaction(cleanup_signals[i], &sa, NULL) == 0;
	}
}

static void restore_handlers(void)
{
	for (int i = 0; i < NR_CLEANUP_SIGNALS; i++)
		if (installed[i]) {
			sigaction(cleanup_signals[i], &old_action[i], NULL);
			installed[i] = false;
		}
}

static int take_slot(char *tmp)
{
	static bool at_exit;

	if (!at_exit)
		at_exit = atexit(unlink_pending) == 0;
	for (int i = 0; i < OUTFILE_SLOTS; i++)
		if (!pending[i]) {
			if (nr_pending++ == 0) {
				interrupted = 0;
				install_handlers();
			}
			pending[i] = tmp;
			return i;
		}
	return -1;
}

static void drop_slot(int i)
{
	if (i < 0)
		return;
	pending[i] = NULL;
	if (--nr_pending == 0)
		restore_handlers();
}

bool outfile_interrupted(void)
{
	return interrupted;
}

/*
 * The FILE's sink: the file descriptor, and the reason of the first failed
 * write (stdio keeps only that one failed, and errno is long gone by the
 * time the file is closed).
 */
struct sink {
	int fd;
	int err;
};

static ssize_t sink_write(void *cookie, const char *buf, size_t len)
{
	struct sink *s = cookie;
	ssize_t n;

	do
		n = write(s->fd, buf, len);
	while (n < 0 && errno == EINTR && !interrupted);
	if (n < 0 && !s->err)
		s->err = errno;
	return n < 0 ? -1 : n;
}

static int sink_seek(void *cookie, off64_t *pos, int whence)
{
	struct sink *s = cookie;
	int fl = fcntl(s->fd, F_GETFL);
	off_t r;

	/* an O_APPEND write lands at the end whatever the position: not seekable */
	if (fl < 0 || (fl & O_APPEND)) {
		errno = ESPIPE;
		return -1;
	}
	r = lseek(s->fd, (off_t)*pos, whence);
	if (r < 0)
		return -1;
	*pos = r;
	return 0;
}

static int sink_close(void *cookie)
{
	struct sink *s = cookie;
	int r = close(s->fd);

	if (r < 0 && !s->err)
		s->err = errno;
	return r;
}

static const cookie_io_functions_t sink_io = { .write = sink_write, .seek = sink_seek, .close = sink_close };

static FILE *sink_open(struct outfile *o, int fd)
{
	o->sink = xmalloc(sizeof(*o->sink));
	*o->sink = (struct sink){ fd, 0 };
	return fopencookie(o->sink, "w", sink_io);
}

/* stdout once outfile_track_stdout() made it a sink; NULL before */
static struct sink stdout_sink, *stdout_tracked;

/* Where the open and the commit say why they failed: err, for the quiet forms. */
struct why {
	char *err;
	size_t len;
};

static int fail(struct outfile *o, const char *why)
{
	snprintf(o->why->err, o->why->len, "%s: cannot write: %s", o->path, why);
	return -1;
}

/* The new file's mode when there is no old one: what open(0666) would give. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* The temporary file: DIR/.schedscope.XXXXXX beside target (any name fits NAME_MAX). */
static char *temp_name(const char *target)
{
	const char *slash = strrchr(target, '/');
	size_t dir = slash ? (size_t)(slash - target) + 1 : 0;
	char *tmp = xmalloc(dir + sizeof(".schedscope.XXXXXX"));

	memcpy(tmp, target, dir);
	strcpy(tmp + dir, ".schedscope.XXXXXX");
	return tmp;
}

static void outfile_free(struct outfile *o)
{
	free(o->target);
	free(o->tmp);
	free(o->path);
	free(o->sink);
	*o = (struct outfile){ .slot = -1 };
}

static int open_why(struct outfile *o, const char *path, struct why *w)
{
	struct stat st;
	bool exists;
	mode_t mode;
	int fd;

	*o = (struct outfile){ .path = xstrdup(path), .slot = -1, .why = w };
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (!*path) {
		fail(o, "empty file name");
		goto err;
	}
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		char *real = realpath(path, NULL);

		if (!real) {
			fail(o, errno == ENOENT ? "a symbolic link to a missing file (not replaced)"
						: strerror(errno));
			goto err;
		}
		o->target = real;
	} else {
		o->target = xstrdup(path);
	}
	exists = stat(o->target, &st) == 0;
	if (!exists && errno != ENOENT) {
		fail(o, strerror(errno));
		goto err;
	}
	if (exists && S_ISDIR(st.st_mode)) {
		fail(o, strerror(EISDIR));
		goto err;
	}
	/* a device, FIFO or socket is written, never replaced */
	if (exists && !S_ISREG(st.st_mode)) {
		fd = open(o->target, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
		if (fd < 0 || !(o->f = sink_open(o, fd))) {
			fail(o, strerror(errno));
			if (fd >= 0)
				close(fd);
			goto err;
		}
		return 0;
	}
	/* a file we may not write stays as it is, although its folder would let us replace it */
	if (exists && access(o->target, W_OK) < 0) {
		fail(o, strerror(errno));
		goto err;
	}
	mode = exists ? st.st_mode & 07777 : new_file_mode();
	o->tmp = temp_name(o->target);
	o->slot = take_slot(o->tmp);
	if (o->slot < 0) {
		fail(o, "too many files open for writing");
		goto err;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		fail(o, strerror(errno));
		goto err;
	}
	/* the old file's owner is kept where we may (as root); its mode always */
	if (exists && (st.st_uid != geteuid() || st.st_gid != getegid()) && fchown(fd, st.st_uid, st.st_gid))
		mode &= ~(mode_t)(S_ISUID | S_ISGID);
	if (fchmod(fd, mode) < 0 || !(o->f = sink_open(o, fd))) {
		fail(o, strerror(errno));
		close(fd);
		unlink(o->tmp);
		goto err;
	}
	return 0;
err:
	drop_slot(o->slot);
	outfile_free(o);
	return -1;
}

int outfile_open_quiet(struct outfile *o, const char *path, char *err, size_t errlen)
{
	struct why w = { err, errlen };
	int rc = open_why(o, path, &w);

	o->why = NULL;
	return rc;
}

int outfile_open(struct outfile *o, const char *path)
{
	char err[PATH_MAX + 256];
	int rc = outfile_open_quiet(o, path, err, sizeof(err));

	if (rc)
		fprintf(stderr, "schedscope: %s\n", err);
	return rc;
}

/* Flushes f; the reason of the first failed write, or NULL. */
static const char *flush_error(FILE *f, const struct sink *s)
{
	errno = 0;
	if (fflush(f) == 0 && !ferror(f))
		return NULL;
	if (s && s->err)
		return strerror(s->err);
	return errno ? strerror(errno) : "write error";
}

int outfile_commit_quiet(struct outfile *o, char *err, size_t errlen)
{
	struct why w = { err, errlen };
	const char *why;
	int rc = 0;

	o->why = &w;
	if (o->f == stdout) {
		why = flush_error(stdout, stdout_tracked);
		if (why)
			rc = fail(o, why);
		outfile_free(o);
		return rc;
	}
	why = flush_error(o->f, o->sink);
	if (fclose(o->f) && !why)
		why = strerror(o->sink->err ? o->sink->err : errno);
	o->f = NULL;
	if (!why && o->tmp && outfile_interrupted())
		why = "interrupted (the old file is kept)";
	if (!why && o->tmp && rename(o->tmp, o->target) < 0)
		why = strerror(errno);
	if (why) {
		rc = fail(o, why);
		if (o->tmp)
			unlink(o->tmp);
	}
	drop_slot(o->slot);
	outfile_free(o);
	return rc;
}

int outfile_commit(struct outfile *o)
{
	char err[PATH_MAX + 256];
	bool to_stdout = o->f == stdout;
	int rc = outfile_commit_quiet(o, err, sizeof(err));

	/* stdout's failures are told once, at the end (outfile_close_stdout()) */
	if (rc && !to_stdout)
		fprintf(stderr, "schedscope: %s\n", err);
	return rc;
}

void outfile_abort(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	else if (o->f)
		fflush(stdout);
	if (o->tmp)
		unlink(o->tmp);
	drop_slot(o->slot);
	outfile_free(o);
}

void outfile_track_stdout(void)
{
	FILE *f;

	stdout_sink = (struct sink){ STDOUT_FILENO, 0 };
	f = fopencookie(&stdout_sink, "w", sink_io);
	if (!f)
		return;
	/* as stdio buffers a terminal and the rest */
	setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	fflush(stdout);
	stdout = f;
	stdout_tracked = &stdout_sink;
}

int outfile_close_stdout(int rc)
{
	const char *why = flush_error(stdout, stdout_tracked);

	if (!why)
		return rc;
	fprintf(stderr, "schedscope: stdout: cannot write: %s\n", why);
	return 2;
}
