/* SPDX-License-Identifier: MIT */
/*
 * Inside the trace hook: what trace.c (lines, options) shares with the
 * decoders (decode-*.c, one file per area).  A decoder prints a call's
 * arguments, and optionally its result, with strace's exact text; calls
 * without one are printed from the syscall table's argument kinds.
 * Decoders run only for text traces, in the exit callback (or on entry
 * for calls that do not return): -c and other hooks never reach them.
 * No libc: they run inside system calls.
 */
#ifndef SG_TRACE_H
#define SG_TRACE_H

#include "sysgate.h"
#include "../lib/fmt.h"
#include "xlat.h"

/* One call being printed. */
struct call {
	struct fmt *f;
	struct sysgate_sys *s;
	const char *kinds;	/* the table's argument kinds */
	int exiting;		/* the call has returned: results are there */
	int nput;		/* arguments printed so far (for ", ") */
	int cut;		/* mark where the arguments decoded at exit
				   begin (a_out, a_exit_next, a_exit_here): cut_at */
	size_t cut_at;
};

struct decoder {
	const char *name;
	void (*args)(struct call *c);
	/* Prints the result in place of the plain decimal (success only). */
	void (*ret)(struct call *c);
	/* At entry: keeps in trace_saved(c) what the call will overwrite. */
	void (*enter)(struct call *c);
};

/*
 * What a call's entry keeps for its exit, per thread without __thread
 * (the hook sets SYSGATE_HOOK_NOTLS: under the loader, switching the
 * thread pointer around each callback cost ~25 ns of a traced call).
 */
struct trace_scratch {
	unsigned long saved[6];	/* a decoder's enter() for its args() */
	union {
		char closing[512];	/* -y: the path of a descriptor closed */
		/* a decoder's input words that the kernel overwrites */
		unsigned int given[128];
		/* recvmmsg's msg_namelens given (IOV_MAX of them) */
		unsigned short namelens[1024];
	};
	unsigned int closing_len;
	int unselected;		/* -P: the call names none of the paths */
	int order_slot;		/* order.c's hint */
};
/* s's thread's (s->tid: under -m ptrace the tracee's). */
struct trace_scratch *trace_scratch(const struct sysgate_sys *s);
#define trace_saved(c) (trace_scratch((c)->s)->saved)

/* The decoder tables of each area, ended by a NULL name. */
extern const struct decoder dec_file[], dec_desc[], dec_mem[], dec_proc[],
	dec_signal[], dec_net[], dec_poll[], dec_time[], dec_misc[],
	dec_ioctl[], dec_ipc[], dec_prctl[], dec_seccomp[],
	dec_pids[], dec_quota[], dec_sec[], dec_mount[], dec_uring[],
	dec_aio[], dec_perf[], dec_bpf[], dec_ldt[], dec_ptrace[];

extern int trace_strsize;	/* -s */
extern int trace_xflag;		/* -x: 1, -xx: 2, non-ascii-chars: 3 */
extern int trace_fdpaths;	/* -y, --decode-fds: FDS_* */
#define FDS_PATH 1
#define FDS_SOCKET 2
#define FDS_DEV 4
#define FDS_PIDFD 8
extern int trace_verbose;	/* -v: structures in full */
/* -v or -e abbrev=: s's structures in full */
int trace_whole(const struct sysgate_sys *s);
/* Whether the len (> 0) bytes at p can all be read (a byte of each
 * page: strace reads some things whole or not at all). */
int trace_readable(const struct sysgate_sys *s, unsigned long p,
		   unsigned long len);
/* -e verbose=: whether s's structures are read at all */
int trace_structs(const struct sysgate_sys *s);
/* sysgate_read_mem for the decoders' structures: -1 (unread) where -e
 * verbose= leaves s's structures as addresses. */
long trace_read(const struct sysgate_sys *s, void *dst, const void *src,
		size_t len);
/* -X: how named constants print (strace's xlat styles) */
enum { XS_ABBREV, XS_RAW, XS_VERBOSE };
extern int trace_xstyle;
extern long trace_nr_readlinkat;
/* tz.c: local time's offset from UTC at time t (seconds), as libc's
 * localtime gives it, from tables read at its first use. */
void tz_forked(void);
long tz_offset(long long t);
/* Days since 1970-01-01 to a civil date (proleptic Gregorian). */
void trace_civil(long days, long *y, int *m, int *d);

/* True when out-parameters hold results (returned, and not an error). */
static inline int c_ok(const struct call *c)
{
	return c->exiting && !sysgate_is_error(c->s->ret);
}

/* Each a_* prints the ", " before an argument itself. */
void a_sep(struct call *c);
void a_default(struct call *c, int i);	/* by the table's kind */
void a_dec(struct call *c, long v);
void a_int(struct call *c, int i);	/* argument i as a signed int */
void a_udec(struct call *c, unsigned long v);
void a_hex(struct call *c, unsigned long v);
void a_ptr(struct call *c, unsigned long v);
void a_str(struct call *c, const char *s);
void a_path(struct call *c, int i);
/* A string (not a path): strace's printstr, cut at -s */
void a_string(struct call *c, unsigned long p);
void a_fd(struct call *c, int i);
void a_dirfd(struct call *c, int i);
void a_xlat(struct call *c, unsigned long v, const struct xlat *t,
	    const char *unknown);
void a_flags(struct call *c, unsigned long v, const struct xlat *t,
	     const char *zero);
/* An int of flags (the kernel reads 32 bits): p_flags_unknown's. */
void a_int_flags(struct call *c, unsigned int v, const struct xlat *t,
		 const char *unknown);

/*
 * -X raw and verbose: what a printer writes between x_begin and x_end as
 * names (O_RDONLY|O_CLOEXEC, SIGCHLD, S_IFREG|0644) becomes the number v
 * (raw) or the number and the names in a comment (verbose), in base
 * 'x' (strace's %#x), 'd' (signed, of an int), 'u' or 'o' (%#o).  Groups
 * nest: only the outermost one is rewritten (open's flags are one
 * number, clone's flags and exit signal two).
 */
size_t x_begin(struct fmt *f);
/* Names kept whatever -X says: strace's result comments "(flags O_RDONLY)". */
static inline void x_hold(struct fmt *f) { f->depth++; }
static inline void x_release(struct fmt *f) { f->depth--; }
void x_end(struct fmt *f, size_t start, unsigned long v, char base);
/* A name that stands for the number v (SIG_DFL, AT_FDCWD). */
void p_named(struct fmt *f, const char *name, unsigned long v, char base);
/* The same for a name made of two parts ("__NR_" "gettid", "-" "ENOSR"). */
void p_named_pre(struct fmt *f, const char *prefix, const char *name,
		 unsigned long v, char base);
/* -ENOSR for a negative errno with a name, else the number */
void p_neg_err(struct fmt *f, int err);

/* The names of v's flags in t, '|' between them, bits no name covers in
 * hex after them; 0 only by a name for 0.  Nothing, and 0 returned,
 * when no name applies. */
int p_flag_names(struct fmt *f, unsigned long v, const struct xlat *t);
/* strace's flag names after a result, " (A|B)": none under -X raw or
 * when no name applies */
void r_flags_comment(struct fmt *f, unsigned long v, const struct xlat *t);
/* v's name in t, or NULL. */
const char *xlat_name(const struct xlat *t, unsigned long v);
/* What a pid argument or result is (strace's pid types): -Y and
 * --decode-pids=pidns translate by them. */
enum { PT_TID, PT_TGID, PT_PGID, PT_SID, PT_NONE };
/* pid, with what --decode-pids asks for after it */
void p_pid(struct fmt *f, int pid, int type);
/* strace's pid argument of kill and wait4: a process (> 0), a group
 * (< -1: minus its id) or neither */
void p_pid_or_pgid(struct fmt *f, int pid);
/* pid in the tracer's namespace (--decode-pids=pidns), 0 if unknown */
int pids_translate(int pid, int type);
/* the same printers with the translation known */
void p_pid_as(struct fmt *f, int pid, int type, int ours);
/* wait4's and waitid's enter(): their pid's translation and name, which
 * a_wait4_pid and a_waitid_pid print */
void pids_enter_wait4(struct call *c);
void a_wait4_pid(struct call *c);
void pids_enter_waitid(struct call *c);
void a_waitid_pid(struct call *c);
void a_pid(struct call *c, int i, int type);
/* results that are a process's or thread's id */
void r_tgid(struct call *c);
void r_tid(struct call *c);
/* --decode-pids (pids.c) */
#define DECODE_COMM 1
#define DECODE_PIDNS 2
extern int trace_decode_pids;
void pids_init(struct sysgate_ctx *ctx, int follow);
/* A line's task tid: its id in the tracer's namespace (*proc: in
 * /proc's), and "<comm>" for that. */
int pids_leader(int tid, int *proc);
void pids_leader_comm(struct fmt *f, int proc);
/* The threads of process pid, as the kernel counts them (0: unknown). */
int pids_threads(int pid);
/* In a new process (its namespace may be another). */
void pids_forked(void);
/* The whole file at path into buf: its length, or -1 (tz.c). */
long trace_read_file(const char *path, char *buf, long size);
/* A /proc stat file at path into buf, ended by a NUL: the offset of its
 * third field (the state, after "pid (comm) "), or -1. */
long trace_read_stat(const char *path, char *buf, long size);

/* Plain printers (no separator). */
void f_dec(struct fmt *f, const char *name, long v);	/* name then v */
void f_udec(struct fmt *f, const char *name, unsigned long v);
/* n 32-bit fields at w named by names (space-separated), ", " between
 * them: signed ('d') or unsigned ('u') */
void f_ints(struct fmt *f, const char *names, const void *w, int n,
	    char base);
/* name then v in hex (0 is "0") */
void f_hex(struct fmt *f, const char *name, unsigned long v);
/* name then v in hex, when v is set (strace's reserved fields) */
void f_hex_set(struct fmt *f, const char *name, unsigned long v);
void p_ptr(struct fmt *f, unsigned long v);
void p_hex(struct fmt *f, unsigned long v);	/* 0 is "0" */
/* C's "%#0*x": 0x (not of 0) and the digits, width characters at least
 * (decode-netlink.c) */
void p_hex0(struct fmt *f, unsigned long v, int width);
void p_xlat(struct fmt *f, unsigned long v, const struct xlat *t,
	    const char *unknown);
/* The same with an unknown value in base ('x', 'd', 'u', 'o': x_end's) */
void p_xlat_as(struct fmt *f, unsigned long v, const struct xlat *t,
	       const char *unknown, char base);
void p_flags(struct fmt *f, unsigned long v, const struct xlat *t,
	     const char *zero);
/* p_flags, but flags none of which has a name print as hex followed by
 * the comment `unknown` ("FS_???_FL"), as strace prints them. */
void p_flags_unknown(struct fmt *f, unsigned long v, const struct xlat *t,
		     const char *unknown);
/* Flags named by their bit numbers (bits: names of bit numbers):
 * 1<<RTC_FEATURE_ALARM|..., the bits no name covers in hex after them,
 * `unknown` in a comment when none has a name */
void p_bit_flags(struct fmt *f, unsigned long long v, const struct xlat *bits,
		 const char *unknown);
/* Bytes at p (n of them), quoted and cut at -s; hex escapes when hex. */
void p_data(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
	    unsigned long n, int hex);
/* "\x01\x02": n bytes at p, every one in hex (-xx's form). */
void p_hex_bytes(struct fmt *f, const unsigned char *p, unsigned long n);
/* A char array field of size bytes (strace's quoted C string: not cut
 * at -s; at most size - 1 bytes, "..." when no NUL ends them). */
void p_cstring(struct fmt *f, const char *s, unsigned long size);
/* The same for bytes already read. */
/* p_data of n bytes, a final NUL not shown (strace's
 * QUOTE_OMIT_TRAILING_0) */
void p_data_nul(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		unsigned long n);
void p_data_local(struct fmt *f, const unsigned char *p, unsigned long n);
/* n bytes quoted, never cut at -s */
void p_quoted(struct fmt *f, const unsigned char *p, unsigned long n);
void p_sockaddr(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		unsigned long len);
/* ", sin_port=..., sin_addr=..." of an AF_INET or AF_INET6 address of
 * len bytes at sa (decode-net.c) */
void p_sa_inet(struct fmt *f, const void *sa, unsigned long len);
/* v in hex with its name (or unknown) in a comment whatever -X says but
 * raw (strace's XVAL_VERBOSE, for names from kernel-internal headers:
 * decode-sockaddr.c) */
void p_xval_verbose(struct fmt *f, unsigned long v, const struct xlat *t,
		    const char *unknown);
/* The fields of an address of a family decode-net.c does not know (len
 * bytes at buf, more than the family's): 1, or 0 (not printed: its
 * sa_data) (decode-sockaddr.c) */
int p_sockaddr_other(struct fmt *f, const struct sysgate_sys *s,
		     const unsigned char *buf, unsigned long len);
/* ", NAME=" and a field whose text strace gives (htons(80)) or, under -X,
 * its n bytes (with the text in a comment: verbose); name NULL: the
 * value alone (decode-net.c) */
void p_in_field(struct fmt *f, const char *name, const void *bytes, int n,
		char *text, size_t len);
/* A path (strace's: at most PATH_MAX - 1 bytes, then "..."). */
void p_string(struct fmt *f, const struct sysgate_sys *s, unsigned long p);
/* A NUL-terminated string of at most max - 1 bytes, "..." when longer;
 * its address when it cannot be read to its end. */
void p_string_n(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		size_t max);
/* A NUL-terminated string of at most len bytes (strace's printstr_ex
 * with QUOTE_0_TERMINATED): "..." when no NUL comes within them or -s. */
void p_str_max(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
	       unsigned long len);
void p_mode(struct fmt *f, unsigned long mode);	/* 0644, 000 */
/* makedev(0x8, 0x1): a device number as glibc splits it (decode-file.c) */
void p_dev(struct fmt *f, unsigned long dev);
void p_file_mode(struct fmt *f, unsigned long mode);	/* S_IFREG|0644 */
void p_timespec(struct fmt *f, long sec, long nsec);
/* Clock ticks (USER_HZ: 100), then in seconds in a comment unless 0 or
 * -X raw: "8 / * 0.08 s * /" */
void p_clock_t(struct fmt *f, unsigned long long v);
void p_timeval(struct fmt *f, long sec, long usec);	/* decode-time.c */
/* " / * 2020-01-01T00:00:00[.nnnnnnnnn]+0000 * /": the local date */
void p_date(struct fmt *f, long sec, long nsec);
/* The same of a time in microseconds: ".345678" */
void p_date_us(struct fmt *f, long sec, long usec);
/* The date alone, 1 (or nothing, 0, where p_date prints none) */
int p_date_text(struct fmt *f, long sec, long nsec);
/* Reads a struct at p: 0, or prints p (hex or NULL) and returns -1. */
int fetch(struct fmt *f, const struct sysgate_sys *s, void *dst,
	  unsigned long p, unsigned long len);
/* An out-argument: ", " and 1 when the call succeeded (print it), else
 * p printed and 0. */
int a_out(struct call *c, unsigned long p);
/* The next argument is decoded at exit (what strace shows of a call at
 * its entry ends before it), for one a_out does not print. */
void a_exit_next(struct call *c);
/* What follows is printed at exit (strace's " => " after a structure
 * shown at entry): a resumed line starts here. */
void a_exit_here(struct call *c);
/* An out-struct argument: the struct when the call succeeded, else p. */
int fetch_out(struct call *c, void *dst, unsigned long p, unsigned long len);
/* fetch_out when out, else the struct as the call got it. */
int fetch_arg(struct call *c, void *dst, unsigned long p, unsigned long len,
	      int out);
/* p_array's walk for any printer: elem gets ctx; unread: print the
 * address (or where reading stops) without reading.  Elements of at
 * most 64 bytes. */
void p_array_ctx(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		 unsigned long n, unsigned int size, int unread,
		 void (*elem)(struct fmt *f, const void *e, void *ctx),
		 void *ctx);
/* strace's arrays: n elements of size bytes (at most 64) at p, each by
 * elem; at most -s of them (all under -v) then "...".  NULL, [], p when
 * the first cannot be read (or when out: the kernel's output of a call
 * that failed), "... / * addr * /" where reading stops. */
void p_array(struct call *c, unsigned long p, unsigned long n,
	     unsigned int size, int out,
	     void (*elem)(struct fmt *f, const void *e));
/* Bytes from..to (at most a page) of the struct at p that a decoder
 * does not know, as strace shows them: nothing when all zero, sep and
 * "???" when they cannot be read, else sep, "/ * bytes F..T * /" and
 * the bytes in hex (cut at -s).  Returns whether it printed. */
int p_nonzero_tail(struct fmt *f, const struct sysgate_sys *s,
		   unsigned long p, unsigned long from, unsigned long to,
		   const char *sep);
/* A character as strace's 'c' (C escapes, \xNN when not printable) */
void p_char(struct fmt *f, unsigned int ch);
/* The same, whitespace too as \xNN unless ws (v4l2_fourcc's) */
void p_char_as(struct fmt *f, unsigned int ch, int ws);
/* n elements of size bytes (at most 64) at p, at most cap of them and
 * "..." after cap when n is more; each is read before -s cuts the
 * array, so an unreadable one past the last shown prints its address
 * (strace's print_array).  NULL, [], or p when the first is unreadable. */
void p_elems(struct call *c, unsigned long p, unsigned long n,
	     unsigned long cap, unsigned int size,
	     void (*elem)(struct fmt *f, const void *e));
/* A NUMA node mask of maxnode bits (the kernel reads maxnode - 1), in
 * words; a size that does not fit prints the address (decode-mem.c). */
void p_nodemask(struct call *c, unsigned long p, unsigned long maxnode,
		int out);
/* [3, 4] (pipe, socketpair) on success, with -y's paths. */
void p_fdpair(struct call *c, unsigned long p);
/* [0 1]: the CPUs in a mask of size bytes at p (decode-proc.c) */
void p_cpus(struct call *c, unsigned long p, unsigned long size);
/* timespec / timeval arguments, NULL or the address when unreadable. */
void a_timespec(struct call *c, unsigned long p);
void p_sigset(struct fmt *f, const unsigned long *set, unsigned long bytes);
/* {sigmask=[...], sigsetsize=8}: the kernel's sigset and size pair at p
 * (pselect6, io_pgetevents: decode-poll.c) */
void a_kernel_sigset(struct call *c, unsigned long p);
/* IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4) (decode-misc.c) */
void p_ioprio_value(struct fmt *f, unsigned int v);
void a_sigset(struct call *c, unsigned long p, unsigned long bytes);
void p_signame(struct fmt *f, int sig);	/* SIGUSR1, or the number */
/* struct sigevent at p (timer_create, mq_notify: decode-time.c) */
void p_sigevent(struct call *c, unsigned long p);
/* {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=..., ...} */
/* s: the call whose argument it is (a descriptor's -y path), or 0 */
void p_siginfo(struct fmt *f, const struct sysgate_sys *s,
	       const void *info);
/* A SIGCHLD's siginfo (128 bytes at info) for a child's end (chld.h) */
struct chld_end;
void k_siginfo_chld(void *info, const struct chld_end *c);
/* iovec array of count entries; avail bytes were transferred (-1: all),
 * IOV_ADDR: the bases as addresses. */
#define IOV_ADDR (-2L)
void put_iov(struct fmt *f, struct sysgate_sys *s, unsigned long p,
	     unsigned long count, long avail);
/* argument i's iovec array, count after it: input, or read (at exit) */
void a_iov(struct call *c, int i, int in);
/* "/proc/self" (in the process itself) or "/proc/PID": s's process's */
void p_proc_dir(struct fmt *f, const struct sysgate_sys *s);
/* The process a pidfd (fd of s's process) refers to, in /proc's pid
 * namespace; 0 when unknown, -1 when it has exited. */
int pidfd_pid(const struct sysgate_sys *s, int fd);
/* The path descriptor fd (AT_FDCWD: the cwd) is open on: length or <= 0. */
long fd_path(const struct sysgate_sys *s, int fd, char *path, size_t size);
/* "<path>" after descriptor fd (AT_FDCWD: the cwd) under -y. */
void p_fdpath(struct fmt *f, const struct sysgate_sys *s, int fd);
/* The same as it is now, not as the call's entry saw it (-yy): a
 * returned descriptor's (dup2's new one is the old one's file). */
void p_fdpath_now(struct fmt *f, const struct sysgate_sys *s, int fd);
/* -yy: keeps the "<...>" of s's descriptor arguments ('f' kinds) as they
 * are at its entry, for p_fdpath at its exit. */
void fdpaths_at_entry(const struct sysgate_sys *s, const char *kinds, int n);
/* The per-thread slot (hooks/lib/slots.h) of thread tid, or -1. */
int trace_thread_slot(int tid);
void p_open_flags(struct fmt *f, unsigned long v);
/* 127.0.0.1 from 4 bytes. */
void p_inet4(struct fmt *f, const unsigned char *a);
/* ", NAME=inet_addr(\"127.0.0.1\")": an address of n bytes (4, 16) as
 * strace prints one in a structure, its text quoted as strings are (-x)
 * between head and tail, its bytes under -X (decode-net.c); name NULL:
 * the value alone, no ", NAME=". */
void p_in_addr(struct fmt *f, const char *name, const void *bytes, int n,
	       const char *head, const char *tail);
/* The same of an address in a field of size bytes (all shown under -X) */
void p_in_addr_sized(struct fmt *f, const char *name, const void *bytes,
		     int n, int size, const char *head, const char *tail);
/* A hardware address of n bytes, "01:02:03", as strace's -X shows it
 * (decode-net.c) */
void p_mac(struct fmt *f, const unsigned char *a, unsigned int n);
/* The same of an address of n bytes in a field of size (its bytes all
 * shown under -X, as strace's print_hwaddr) */
void p_hwaddr(struct fmt *f, const unsigned char *a, unsigned int size,
	      unsigned int n);
/* Reserved words: ", NAME=[0x1, 0, ...]" when any is set (decode-ptp.c) */
void p_reserved(struct fmt *f, const char *name, const unsigned int *r,
		int n);
/* The shortest text form of an IPv6 address (16 bytes). */
void p_inet6(struct fmt *f, const unsigned char *a);
/* -yy: "TCP:[127.0.0.1:80->127.0.0.1:4000]" for the socket with inode
 * ino that descriptor fd of s's process holds; 0, or -1 (print -y's
 * path) when it cannot be told (sockets.c). */
int p_socket_endpoints(struct fmt *f, const struct sysgate_sys *s, int fd,
		       unsigned long ino);
/* -yy: "<char 1:3>" for a device descriptor fd holds: 0, or -1. */
int p_device(struct fmt *f, const struct sysgate_sys *s, int fd);
void p_prot(struct fmt *f, unsigned long v);

/* A request of the given _IOC_TYPE named in t: its name printed, 1
 * (decode-ioctl.c) */
int ioctl_name(struct call *c, unsigned int req, int type,
	       const struct xlat *t);
/* ioctl on input devices (decode-evdev.c): the request and its argument
 * printed, 1; or 0 (not an evdev request it knows: nothing printed). */
int ioctl_evdev(struct call *c, unsigned int req, unsigned long arg);
/* The same for GPIO character devices (decode-gpio.c). */
int ioctl_gpio(struct call *c, unsigned int req, unsigned long arg);
/* ... for Video4Linux2 devices (decode-v4l2.c) */
int ioctl_v4l2(struct call *c, unsigned int req, unsigned long arg);
void ioctl_v4l2_enter(struct call *c);	/* (what the kernel overwrites) */
void ioctl_v4l2_ret(struct call *c);	/* (after the result) */
int ioctl_uffd(struct call *c, unsigned int req, unsigned long arg);
void ioctl_uffd_enter(struct call *c);	/* (UFFDIO_API's features) */
/* ... for virtual consoles (decode-kd.c) */
int ioctl_kd(struct call *c, unsigned int req, unsigned long arg);
/* ... for loop devices and their control device (decode-loop.c) */
int ioctl_loop(struct call *c, unsigned int req, unsigned long arg);
/* ... for real-time clocks (decode-rtc.c) */
int ioctl_rtc(struct call *c, unsigned int req, unsigned long arg);
/* ... for block devices' structures (decode-block.c) */
int ioctl_block(struct call *c, unsigned int req, unsigned long arg);
/* ... for perf events (decode-perf.c) */
int ioctl_perf(struct call *c, unsigned int req, unsigned long arg);
/* ... for UBI volumes' structures (decode-ubi.c) */
int ioctl_ubi(struct call *c, unsigned int req, unsigned long arg);
/* _IOC(_IOC_READ, 0x12, 0x34, 0x8): a request without a name (under
 * -X as its number: x_begin's) */
void p_ioc(struct fmt *f, unsigned long req);
/* ... for the device mapper (decode-dm.c) */
int ioctl_dm(struct call *c, unsigned int req, unsigned long arg);
/* ... for sockets (decode-sockio.c) */
int ioctl_sockio(struct call *c, unsigned int req, unsigned long arg);
/* ... for TEE devices (decode-tee.c) */
int ioctl_tee(struct call *c, unsigned int req, unsigned long arg);
/* ... for MTD devices and the other 'M' requests (decode-mtd.c) */
int ioctl_mtd(struct call *c, unsigned int req, unsigned long arg);
/* ... for SCSI generic's SG_IO (decode-sg.c) */
int ioctl_sg(struct call *c, unsigned int req, unsigned long arg);
/* ... for PTP clocks (decode-ptp.c) */
int ioctl_ptp(struct call *c, unsigned int req, unsigned long arg);
/* ... and for seccomp user notifications (decode-seccomp.c), whose
 * NOTIF_RECV keeps at entry whether its buffer was zeroed. */
int ioctl_seccomp(struct call *c, unsigned int req, unsigned long arg);
void ioctl_seccomp_enter(struct call *c);
/* A classic BPF program's {len=N, filter=[BPF_STMT(...), ...]} at p:
 * a socket filter's (sock) or a seccomp filter's; its n instructions at
 * p alone: [BPF_STMT(...), ...] (under -v, else the address). */
void p_bpf_fprog(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		 int sock);
void p_bpf_filter(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		  unsigned long n, int sock);

/* The bound netlink socket with inode ino in s's process's network
 * namespace: its protocol and port id, 0; or -1 (decode-netlink.c). */
int nl_socket_row(const struct sysgate_sys *s, unsigned long ino, int *proto,
		  unsigned int *portid);
/* The name of the generic netlink family id, asked of the kernel's
 * controller: 0, or -1 (sockets.c) */
int genl_family_name(unsigned int id, char *name, unsigned long size);
/* KERNEL_VERSION(4, 19, 0), as -X wants it (decode-bpf.c) */
void p_kernel_version(struct fmt *f, unsigned int v);
/* p_array_ctx's printer of u32 elements (decode-netlink.c) */
void p_u32_elem(struct fmt *f, const void *e, void *ctx);
/* An interface index by its name: if_nametoindex("lo"), else the
 * number (decode-netlink.c). */
void p_ifindex(struct fmt *f, unsigned int idx);
/* msg_control's in_len bytes at p: [{cmsg_len=..., ...}, ...]
 * (decode-cmsg.c) */
void p_cmsgs(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
	     unsigned long in_len);
/* A send or receive call's buffer (len bytes at p) on descriptor fd:
 * netlink messages on a netlink socket, else the bytes
 * (decode-netlink.c). */
void p_sockbuf(struct fmt *f, const struct sysgate_sys *s, int fd,
	       unsigned long p, unsigned long len);

/* json.c: arguments as the decoders print them (strace's grammar), as
 * a JSON array of values. */
void json_args(struct fmt *out, const char *text, size_t n);

/* filter.c: -e status=, -e signal=, -P */
#define FILTER_SUCCESSFUL 1
#define FILTER_FAILED 2
#define FILTER_UNFINISHED 4
#define FILTER_UNAVAILABLE 8
#define FILTER_DETACHED 16
int filter_parse_status(const char *v, size_t n);	/* 0 or -1 */
int filter_parse_signals(const char *v, size_t n);
void filter_add_path(const char *p, size_t n);
void filter_init(void);
/* At entry: does -P select the call?  Later, filter_selected() says. */
int filter_enter(struct sysgate_sys *s);
int filter_selected(const struct sysgate_sys *s);
int filter_status(unsigned int what);	/* FILTER_* */
int filter_status_all(void);
int filter_signal(int sig);

/* -k (unwind.c): " > /path(sym+0x10) [0x1234]" lines for call s's
 * stack (a signal's where it came when s is NULL), each written to f and
 * passed to out (if not NULL: f then holds them all, for one write with
 * the call's line).  In-process only. */
void trace_stack(struct fmt *f, const struct sysgate_sys *s,
		 void (*out)(struct fmt *));

/* -e read=SET / write=SET (dump.c): 0 or -1 for a bad SET */
int trace_dump_arg(int writes, const char *v, size_t n);
/* The dump lines after a call's line; out() writes f and empties it. */
void trace_dump(struct fmt *f, const struct sysgate_sys *s,
		void (*out)(struct fmt *));

#endif
