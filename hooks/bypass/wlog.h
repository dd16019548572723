/* SPDX-License-Identifier: MIT */
/* Relaxed writes through io_uring (--bypass=wlog), used by bypass.c. */
#ifndef SG_WLOG_H
#define SG_WLOG_H

/* 0, or -1 when this kernel or arch has no io_uring. */
int wlog_init(int pid);
/* Queue a write (off -1: at the file position); the count, or -1 to let
 * the kernel do it now. */
long wlog_queue(int pid, int tid, long fd, const void *buf, unsigned long len,
		long off);
/* Submit and complete the thread's queue (before any other call). */
void wlog_flush(int pid, int tid);
/* A queued write's error for fd, reported once; 0 if none. */
long wlog_take_error(int pid, int tid, long fd);
void wlog_fork_child(int pid);

#endif
