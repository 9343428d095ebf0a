/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files: the one way the program writes a file, so that no output
 * destroys or half-writes one.
 *
 * A regular file (or a new one) is written to a temporary file in the same
 * folder and renamed over the path only when complete, with the old file's
 * mode; a symlink is followed (its target is written, the link kept);
 * devices, FIFOs and sockets (/dev/null, /dev/full, a pipe) and "-"
 * (stdout) are written in place. A failure, exit(), SIGINT, SIGTERM or
 * SIGHUP while the file is open removes the temporary file: the old file
 * stays, whole. Every error is printed as "schedscope: PATH: REASON".
 */
#ifndef SRC_BASE_OUTFILE_H
#define SRC_BASE_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct outfile {
	FILE *f;	   /* write here */
	char *path;	   /* as the user named it, for messages */
	char *target;	   /* the file replaced: path, or a symlink's target */
	char *tmp;	   /* the temporary file; NULL when written in place */
	int slot;	   /* in the table the signal handler cleans */
	struct sink *sink; /* f's file descriptor and first error */
	struct why *why;   /* during a call: where its error goes */
};

/*
 * Opens PATH ("-": stdout) for writing. 0, or -1 after printing why (the
 * path named; nothing created, nothing changed).
 */
int outfile_open(struct outfile *o, const char *path);
/* The same, the message ("PATH: cannot write: REASON") in err instead. */
int outfile_open_quiet(struct outfile *o, const char *path, char *err, size_t errlen);

/*
 * Flushes and closes, then renames the temporary file into place. 0, or
 * -1 after printing the path and the reason (the old file kept).
 */
int outfile_commit(struct outfile *o);
int outfile_commit_quiet(struct outfile *o, char *err, size_t errlen);

/* Gives up: closes and removes the temporary file; the old file is kept. */
void outfile_abort(struct outfile *o);

/*
 * Whether a signal arrived while a temporary file was open (it is gone):
 * a commit after it fails.
 */
bool outfile_interrupted(void);

/*
 * Makes stdout a FILE that keeps the reason of its first failed write, for
 * outfile_close_stdout()'s message. Not for a program handing stdout to
 * ncurses (fileno() of it is -1).
 */
void outfile_track_stdout(void);

/*
 * stdout at the end of a command: flushed, and a failed write (a full
 * disk, /dev/full) printed. Returns rc, or 2 if stdout could not be written.
 */
int outfile_close_stdout(int rc);

#endif
