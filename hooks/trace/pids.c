/* SPDX-License-Identifier: MIT */
/*
 * Process ids in arguments, results and line prefixes, with what
 * --decode-pids asks for after them: "comm" (-Y) the task's name,
 * "<name>"; "pidns" the id in the tracer's pid namespace,
 * " / * N in strace's PID NS * /", when the traced process's differs.
 *
 * In the process, ids are in its own namespace.  The tracer's is the
 * namespace the tree's root process started in (the CLI's child: it has
 * not unshared yet), kept in the tree's shared memory with its depth
 * below the namespace /proc belongs to.  /proc/PID/status lists a task's
 * ids from /proc's namespace down to its own (NSpid, NStgid, NSpgid,
 * NSsid): the id at the tracer's depth is the translation.  A task of
 * the process itself is found in its own status; others by reading the
 * status of every task in /proc whose namespace is the process's, as
 * strace does (and, like strace, remembered until they no longer match).
 */
#include <fcntl.h>
#include <sys/wait.h>
#include "trace.h"
#include "../lib/slots.h"

int trace_decode_pids;

#define NS_DEPTH 32

static struct tracer_ns {
	unsigned long ino;	/* the tracer's pid namespace */
	int depth;		/* its ids' index in an NS* list */
	int set;
} *tracer, tracer_local;

static long sc(const char *name, long a, long b, long c, long d)
{
	return sysgate_syscall(sysgate_syscall_number(name), a, b, c, d, 0, 0);
}

/* The inode of the pid namespace named by link ("pid:[4026531836]"). */
static unsigned long ns_ino(const char *link)
{
	char buf[64];
	unsigned long v = 0;
	long n = sc("readlinkat", -100, (long)link, (long)buf,
		    sizeof(buf) - 1), i;

	for (i = 0; i < n && buf[i] != '['; i++)
		;
	for (i++; i < n && buf[i] >= '0' && buf[i] <= '9'; i++)
		v = v * 10 + (buf[i] - '0');
	return v;
}

/* The ids of the "NSpid:" (...) line of the status file at path: their
 * number, or 0. */
static int status_ids(const char *path, const char *key, int *ids)
{
	char buf[2048];
	long n = trace_read_file(path, buf, sizeof(buf) - 1), i, k;
	size_t klen = hk_strlen(key);
	int count = 0;

	if (n <= 0)
		return 0;
	buf[n] = 0;
	for (i = 0; i < n; i++) {
		if ((i && buf[i - 1] != '\n') ||
		    hk_strncmp(buf + i, key, klen))
			continue;
		for (k = i + klen; k < n && buf[k] != '\n' && count < NS_DEPTH;) {
			int v = 0;

			while (k < n && (buf[k] == '\t' || buf[k] == ' '))
				k++;
			if (k >= n || buf[k] < '0' || buf[k] > '9')
				break;
			while (k < n && buf[k] >= '0' && buf[k] <= '9')
				v = v * 10 + (buf[k++] - '0');
			ids[count++] = v;
		}
		break;
	}
	return count;
}

/* This process's namespace and depth (a fork may be in another: the
 * namespace says, not the pid, which may be the parent's number). */
static struct {
	unsigned long ino;
	int depth;
} own;

void pids_init(struct sysgate_ctx *ctx, int follow)
{
	int ids[NS_DEPTH];

	/* (a line's prefix under -f is the tracer's id in any case) */
	if (!trace_decode_pids && !follow)
		return;
	tracer = follow ? sysgate_shared(ctx, "pidns", sizeof(*tracer)) : 0;
	if (!tracer)
		tracer = &tracer_local;
	if (__atomic_load_n(&tracer->set, __ATOMIC_ACQUIRE))
		return;
	tracer->ino = ns_ino("/proc/self/ns/pid");
	tracer->depth = status_ids("/proc/self/status", "NSpid:", ids) - 1;
	__atomic_store_n(&tracer->set, 1, __ATOMIC_RELEASE);
	/* (the tracer's namespace is this process's) */
	own.ino = tracer->ino;
	own.depth = -1;
}

static const char *const keys[] = { "NSpid:", "NStgid:", "NSpgid:",
				     "NSsid:" };

/* /proc/PID[/task/TID]/FILE into path */
static void task_path(char *path, size_t size, int pid, int tid,
		      const char *file)
{
	struct fmt f;

	fmt_init(&f, path, size - 1);
	fmt_str(&f, "/proc/");
	fmt_dec(&f, pid);
	if (tid) {
		fmt_str(&f, "/task/");
		fmt_dec(&f, tid);
	}
	fmt_chr(&f, '/');
	fmt_str(&f, file);
	path[f.len] = 0;
}

__attribute__((hot))
static int own_ns(void)
{
	int ids[NS_DEPTH];

	if (!tracer)
		return 0;
	/* (the depth only for another namespace than the tracer's: a
	 * status read costs ~10 us, once per process that prints) */
	if (!own.ino) {
		own.ino = ns_ino("/proc/self/ns/pid");
		own.depth = own.ino == tracer->ino ? -1 :
			    status_ids("/proc/self/status", "NSpid:", ids) - 1;
	}
	return own.ino != tracer->ino && own.depth >= 0;
}

void pids_forked(void)
{
	own.ino = 0;
}

/* The id in /proc's namespace of the task matches() found last. */
static int proc_id;

/* Whether the status at path has id at this process's depth in its line
 * of type; *ours: the id at the tracer's depth. */
static int matches(const char *path, int id, int type, int *ours)
{
	int ids[NS_DEPTH], n = status_ids(path, keys[type], ids);

	if (n <= own.depth || ids[own.depth] != id)
		return 0;
	*ours = tracer->depth >= 0 && tracer->depth < n ?
			ids[tracer->depth] : 0;
	proc_id = ids[0];
	return 1;
}

/* Tasks found by a scan of /proc: what they were found for. */
#define FOUND_MAX 16
static struct {
	int id, type, pid, tid;	/* (pid, tid: in /proc's namespace) */
} found[FOUND_MAX];
static unsigned int found_next;

/* Every task directory under /proc/DIR (DIR: "" for /proc, or a
 * process's "N/task"): fn(pid, tid) until it returns nonzero. */
static int each_dir(int pid, int (*fn)(int pid, int tid, void *arg),
		    void *arg)
{
	char path[64], buf[4096];
	struct fmt f;
	long fd, n;
	int r = 0;

	fmt_init(&f, path, sizeof(path) - 1);
	fmt_str(&f, "/proc/");
	if (pid) {
		fmt_dec(&f, pid);
		fmt_str(&f, "/task");
	}
	path[f.len] = 0;
	fd = sc("openat", -100, (long)path, O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	while (!r && (n = sc("getdents64", fd, (long)buf, sizeof(buf), 0)) > 0) {
		long off = 0;

		while (!r && off < n) {
			const char *name = buf + off + 19;
			unsigned short reclen = *(unsigned short *)(buf + off + 16);
			int v = 0;

			off += reclen;
			if (*name < '1' || *name > '9')
				continue;
			for (; *name >= '0' && *name <= '9'; name++)
				v = v * 10 + (*name - '0');
			if (*name)
				continue;
			r = pid ? fn(pid, v, arg) : fn(v, 0, arg);
		}
	}
	sc("close", fd, 0, 0, 0);
	return r;
}

struct scan {
	int id, type, ours;
	int pid, tid;	/* where it was found */
};

static int scan_task(int pid, int tid, void *arg)
{
	struct scan *s = arg;
	char path[64];

	task_path(path, sizeof(path), pid, tid, "status");
	if (!matches(path, s->id, s->type, &s->ours))
		return 0;
	/* (the task must be in this process's namespace) */
	task_path(path, sizeof(path), pid, tid, "ns/pid");
	if (ns_ino(path) != own.ino)
		return 0;
	s->pid = pid;
	s->tid = tid;
	return 1;
}

static int scan_process(int pid, int tid, void *arg)
{
	struct scan *s = arg;

	(void)tid;
	if (s->type == PT_TID && each_dir(pid, scan_task, arg))
		return 1;
	return scan_task(pid, 0, arg);
}

/* id (in this process's namespace) in the tracer's, or 0 when unknown. */
static int translate(int id, int type)
{
	char path[64];
	struct scan s = { id, type, 0, 0, 0 };
	unsigned int i;

	if (id <= 0 || type < 0 || type >= PT_NONE || !tracer)
		return 0;
	if (!own_ns())
		return id;
	/* the process's own ids first */
	if (matches(type == PT_TID ? "/proc/thread-self/status" :
				     "/proc/self/status", id, type, &s.ours))
		return s.ours;
	for (i = 0; i < FOUND_MAX; i++) {
		if (found[i].id != id || found[i].type != type)
			continue;
		task_path(path, sizeof(path), found[i].pid, found[i].tid,
			  "status");
		if (matches(path, id, type, &s.ours))
			return s.ours;
	}
	if (!each_dir(0, scan_process, &s))
		return 0;
	i = found_next++ % FOUND_MAX;
	found[i].id = id;
	found[i].type = type;
	found[i].pid = s.pid;
	found[i].tid = s.tid;
	return s.ours;
}

/* The name of the task with id pid in /proc's namespace into buf (its
 * length, or 0) */
static long read_comm(int pid, char *buf, size_t size)
{
	char path[64];
	long n;

	task_path(path, sizeof(path), pid, 0, "comm");
	n = trace_read_file(path, buf, size);
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	return n > 0 ? n : 0;
}

/* <name>, strace's quoting */
static void p_comm_of(struct fmt *f, const char *name, long n)
{
	if (n <= 0)
		return;
	fmt_chr(f, '<');
	fmt_quoted_esc(f, (const unsigned char *)name, n, "<>");
	fmt_chr(f, '>');
}

static void p_comm(struct fmt *f, int pid)
{
	char buf[64];

	p_comm_of(f, buf, read_comm(pid, buf, sizeof(buf)));
}

int pids_translate(int pid, int type)
{
	/* (-Y too: a name is read from /proc by /proc's id) */
	proc_id = pid;
	return translate(pid, type);
}

void p_pid(struct fmt *f, int pid, int type)
{
	p_pid_as(f, pid, type, trace_decode_pids && type != PT_NONE ?
				       pids_translate(pid, type) : 0);
}

/* name: the task's name kept earlier, or 0 to read it now */
static void p_pid_named(struct fmt *f, int pid, int type, int ours,
			const char *name)
{
	fmt_dec(f, pid);
	if (!trace_decode_pids || type == PT_NONE || !ours)
		return;
	if ((trace_decode_pids & DECODE_COMM) &&
	    (type == PT_TID || type == PT_TGID)) {
		if (name)
			p_comm_of(f, name, hk_strlen(name));
		else
			p_comm(f, proc_id);
	}
	if (ours != pid && (trace_decode_pids & DECODE_PIDNS)) {
		fmt_str(f, " /* ");
		fmt_dec(f, ours);
		fmt_str(f, " in strace's PID NS */");
	}
}

void p_pid_as(struct fmt *f, int pid, int type, int ours)
{
	p_pid_named(f, pid, type, ours, 0);
}

/* kill's and wait4's pid: a process (> 0) or minus a group's id */
static int pid_or_pgid_type(int pid)
{
	return pid > 0 ? PT_TGID : pid < -1 ? PT_PGID : PT_NONE;
}

static void p_pid_or_pgid_named(struct fmt *f, int pid, int ours,
				const char *name)
{
	if (pid < -1) {
		/* (-pgid: the group's id translated) */
		fmt_chr(f, '-');
		p_pid_named(f, -pid, PT_PGID, ours, name);
		return;
	}
	p_pid_named(f, pid, pid_or_pgid_type(pid), ours, name);
}

void p_pid_or_pgid(struct fmt *f, int pid)
{
	int t = pid_or_pgid_type(pid);

	p_pid_or_pgid_named(f, pid, t != PT_NONE && trace_decode_pids ?
					 pids_translate(t == PT_PGID ? -pid :
								       pid, t) :
					 0, 0);
}

/*
 * A wait's pid as it was at entry: the process it waits for may be
 * reaped, gone from /proc, when the call returns.  trace_saved(c)[0]:
 * its translation; from [1], its name (TASK_COMM_LEN is 16).
 */
#define SAVED_NAME(c) ((char *)(trace_saved(c) + 1))
#define SAVED_NAME_MAX (5 * sizeof(long))

static void pids_enter_saved(struct call *c, int pid, int type)
{
	char *name = SAVED_NAME(c);
	long n = 0;

	trace_saved(c)[0] = 0;
	if (trace_decode_pids && type != PT_NONE)
		trace_saved(c)[0] = (unsigned int)pids_translate(pid, type);
	if (trace_saved(c)[0] && (trace_decode_pids & DECODE_COMM) &&
	    (type == PT_TID || type == PT_TGID))
		n = read_comm(proc_id, name, SAVED_NAME_MAX - 1);
	name[n] = 0;
}

void pids_enter_wait4(struct call *c)
{
	int pid = (int)c->s->args[0], t = pid_or_pgid_type(pid);

	pids_enter_saved(c, t == PT_PGID ? -pid : pid, t);
}

void a_wait4_pid(struct call *c)
{
	a_sep(c);
	p_pid_or_pgid_named(c->f, (int)c->s->args[0], (int)trace_saved(c)[0],
			    SAVED_NAME(c));
}

/* (idtype is an int: the kernel ignores the register's upper half) */
static int waitid_pid_type(int idtype)
{
	return idtype == P_PID ? PT_TGID : idtype == P_PGID ? PT_PGID :
							      PT_NONE;
}

void pids_enter_waitid(struct call *c)
{
	pids_enter_saved(c, (int)c->s->args[1],
			 waitid_pid_type((int)c->s->args[0]));
}

void a_waitid_pid(struct call *c)
{
	int type = waitid_pid_type((int)c->s->args[0]);

	a_sep(c);
	p_pid_named(c->f, (int)c->s->args[1], type, (int)trace_saved(c)[0],
		    SAVED_NAME(c));
}

void a_pid(struct call *c, int i, int type)
{
	a_sep(c);
	p_pid(c->f, (int)c->s->args[i], type);
}

__attribute__((hot))
void r_tgid(struct call *c)
{
	p_pid(c->f, (int)c->s->ret, PT_TGID);
}

void r_tid(struct call *c)
{
	p_pid(c->f, (int)c->s->ret, PT_TID);
}

static void r_pgid(struct call *c)
{
	p_pid(c->f, (int)c->s->ret, PT_PGID);
}

static void r_sid(struct call *c)
{
	p_pid(c->f, (int)c->s->ret, PT_SID);
}

static void d_tgid_arg(struct call *c)
{
	a_pid(c, 0, PT_TGID);
}

static void d_setpgid(struct call *c)
{
	a_pid(c, 0, PT_TGID);
	a_pid(c, 1, PT_PGID);
}

const struct decoder dec_pids[] = {
	{ "getpid", 0, r_tgid, 0 },
	{ "getppid", 0, r_tgid, 0 },
	{ "gettid", 0, r_tid, 0 },
	{ "getpgrp", 0, r_pgid, 0 },
	{ "getpgid", d_tgid_arg, r_pgid, 0 },
	{ "getsid", d_tgid_arg, r_sid, 0 },
	{ "setpgid", d_setpgid, 0, 0 },
	{ "fork", 0, r_tgid, 0 },
	{ "vfork", 0, r_tgid, 0 },
	{ 0, 0, 0, 0 },
};

/* The prefix's task: its id in the tracer's namespace (kept per thread,
 * a thread's ids do not change), and its name. */
static struct {
	int tid, ours, proc;
	unsigned long ns;
} leaders[TID_SLOTS];

__attribute__((hot))
int pids_leader(int tid, int *proc)
{
	int k, ours;

	*proc = tid;
	if (!own_ns())
		return tid;
	k = trace_thread_slot(tid);
	if (k >= 0 && leaders[k].tid == tid && leaders[k].ns == own.ino &&
	    leaders[k].ours) {
		*proc = leaders[k].proc;
		return leaders[k].ours;
	}
	proc_id = tid;
	ours = translate(tid, PT_TID);
	if (!ours)
		return tid;
	*proc = proc_id;
	if (k >= 0) {
		leaders[k].tid = tid;
		leaders[k].ns = own.ino;
		leaders[k].ours = ours;
		leaders[k].proc = proc_id;
	}
	return ours;
}

int pids_threads(int pid)
{
	char path[64];
	int ids[NS_DEPTH];

	task_path(path, sizeof(path), pid, 0, "status");
	return status_ids(path, "Threads:", ids) > 0 ? ids[0] : 0;
}

void pids_leader_comm(struct fmt *f, int proc)
{
	p_comm(f, proc);
}

