/* SPDX-License-Identifier: MIT */
/*
 * Lines in time order, as strace writes them.  strace sees every event of
 * the tree one after another; here each thread writes its own lines, so
 * without care a call's line (stamped with the time the call started,
 * written when it returns) could follow the lines of calls that started
 * later in other threads or processes.  So:
 *
 * - under -f, every line is written under one lock, the tree's (its
 *   shared memory);
 * - at its entry, a call that may be waited on records the start of its
 *   line (prefix, name, the arguments known at entry) in a slot;
 * - whoever writes a line first writes, for every other call still in
 *   the kernel that started earlier, that start with " <unfinished ...>";
 *   such a call later ends its line as "<... name resumed>rest) = ret",
 *   stamped with the time it is written.
 *
 * Every line is then stamped no earlier than the lines before it: strace's
 * `<unfinished ...>` / `<... resumed>` pairs, made only when another line
 * truly comes between.  A lock holder that dies (killed in the middle of a
 * write) is found dead by the waiters, who take the lock over.
 */
#include "trace.h"
#include "order.h"

#define ORDER_SLOTS 256

enum { IDLE, PENDING, SHOWN };

struct pend {
	int tid;		/* 0: free */
	int pid;
	int state;
	long nr;		/* the call's number */
	int exit_args;		/* its line has arguments printed at exit */
	unsigned long long entry_ns;
	unsigned short head, len;	/* text[0, head): up to the time */
	char text[ORDER_TEXT];
};

struct order_area {
	int lock;		/* the holder's tid, 0 when free */
	int waiters;
	int depth;		/* the holder's nested events */
	int used;		/* slots [0, used) were ever taken */
	int pending;		/* slots PENDING */
	struct pend slot[ORDER_SLOTS];
};

static struct order_area local_area, *area;
static int whole;	/* no "<unfinished ...>": lines are held whole */
static void (*relative_fn)(struct fmt *f, unsigned long long ns);
static long nr_futex, nr_tgkill, nr_tkill, nr_getpid;

static const char unfinished[] = " <unfinished ...>\n";

void order_init(struct sysgate_ctx *ctx, int whole_lines,
		void (*relative)(struct fmt *f, unsigned long long ns))
{
	whole = whole_lines;
	area = sysgate_shared(ctx, "trace-order", sizeof(*area));
	if (!area)
		area = &local_area;
	relative_fn = relative;
	nr_futex = sysgate_syscall_number("futex");
	nr_tgkill = sysgate_syscall_number("tgkill");
	nr_tkill = sysgate_syscall_number("tkill");
	nr_getpid = sysgate_syscall_number("getpid");
}

static int my_pid(void)
{
	return (int)sysgate_syscall(nr_getpid, 0, 0, 0, 0, 0, 0);
}

static int alive(int pid, int tid)
{
	return sysgate_syscall(nr_tgkill, pid, tid, 0, 0, 0, 0) != -3 /* ESRCH */;
}

/* Task tid has ended but is not reaped yet: a process SIGKILL ended in
 * the middle of a line, which its parent, waiting for the lock to print
 * its own kill's line, has not reaped. */
static int ended(int tid)
{
	char path[32], stat[512];
	struct fmt f;
	long at;

	fmt_init(&f, path, sizeof(path));
	fmt_str(&f, "/proc/");
	fmt_dec(&f, tid);
	fmt_str(&f, "/stat");
	path[f.len < sizeof(path) ? f.len : sizeof(path) - 1] = 0;
	at = trace_read_stat(path, stat, sizeof(stat));
	return at >= 0 && (stat[at] == 'Z' || stat[at] == 'X');
}

/* Thread tid holds the lock and is still there (the tree's area: any
 * process of it; the process's own, copied by fork: its own threads). */
static int holder_alive(int tid)
{
	if (area == &local_area)
		return alive(my_pid(), tid);
	return sysgate_syscall(nr_tkill, tid, 0, 0, 0, 0, 0) != -3 &&
	       !ended(tid);
}

/*
 * The lock word is the holder's tid: taken again by the same thread (a
 * signal's event inside an event, even between the two halves of taking
 * or giving it) it nests.  1 when held.  A holder that is gone (killed
 * in the middle of a write) is replaced; one that stays away (stopped
 * by a debugger or a job-control signal in the middle) is waited for
 * 200 ms, then the lines go out without order rather than never.
 */
__attribute__((hot))
static int lock(int tid)
{
	static const struct { long sec, nsec; } wait = { 0, 20000000 };
	int c, spins = 0, waits = 0;

	if (__atomic_load_n(&area->lock, __ATOMIC_ACQUIRE) == tid) {
		area->depth++;
		return 1;
	}
	for (;;) {
		c = 0;
		if (__atomic_compare_exchange_n(&area->lock, &c, tid, 0,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			area->depth = 0;
			return 1;
		}
		if (spins++ < 100)
			continue;
		if (!holder_alive(c)) {
			__atomic_compare_exchange_n(&area->lock, &c, 0, 0,
						    __ATOMIC_RELAXED,
						    __ATOMIC_RELAXED);
			continue;
		}
		if (waits++ == 10)
			return 0;
		/* FUTEX_WAIT, not private: other processes share it */
		__atomic_add_fetch(&area->waiters, 1, __ATOMIC_ACQ_REL);
		sysgate_syscall(nr_futex, (long)&area->lock, 0, c, (long)&wait,
				0, 0);
		__atomic_sub_fetch(&area->waiters, 1, __ATOMIC_ACQ_REL);
	}
}

static void unlock(int held)
{
	if (!held)
		return;
	if (area->depth) {
		area->depth--;
		return;
	}
	__atomic_store_n(&area->lock, 0, __ATOMIC_RELEASE);
	if (__atomic_load_n(&area->waiters, __ATOMIC_ACQUIRE))
		sysgate_syscall(nr_futex, (long)&area->lock, 1 /* WAKE */, 1,
				0, 0, 0);
}

/* tid's slot (cache: where it was last, 1-based, 0 if unknown). */
static struct pend *find(int tid, int *cache)
{
	int i = *cache - 1, used;

	if (i >= 0 && i < ORDER_SLOTS && area->slot[i].tid == tid)
		return &area->slot[i];
	used = __atomic_load_n(&area->used, __ATOMIC_ACQUIRE);
	for (i = 0; i < used && i < ORDER_SLOTS; i++)
		if (area->slot[i].tid == tid) {
			*cache = i + 1;
			return &area->slot[i];
		}
	return 0;
}

/* (under the lock) slot p's call is in no line any more */
static void idle(struct pend *p)
{
	if (p->state == PENDING)
		area->pending--;
	p->state = IDLE;
}

/* (under the lock) slot p's call, as its thread's end cuts it short */
static void cut_of(const struct pend *p, struct order_cut *c)
{
	c->nr = p->nr;
	c->exit_args = p->exit_args;
	c->shown = p->state == SHOWN;
	c->len = p->len;
	hk_memcpy(c->text, p->text, p->len);
}

static void take(struct pend *p, int i, int pid, int tid, int *cache)
{
	idle(p);
	p->tid = tid;
	p->pid = pid;
	if (i >= area->used)
		__atomic_store_n(&area->used, i + 1, __ATOMIC_RELEASE);
	*cache = i + 1;
}

/* A slot for tid (under the lock): a free one, else one whose thread is
 * gone (killed: its slot never given back); 0 when all are in use. */
static struct pend *claim(int tid, int *cache)
{
	struct pend *p = find(tid, cache);
	int pid, i;

	if (p)
		return p;
	pid = my_pid();
	for (i = 0; i < ORDER_SLOTS; i++)
		if (!area->slot[i].tid) {
			take(&area->slot[i], i, pid, tid, cache);
			return &area->slot[i];
		}
	for (i = 0; i < ORDER_SLOTS; i++)
		if (!holder_alive(area->slot[i].tid)) {
			take(&area->slot[i], i, pid, tid, cache);
			return &area->slot[i];
		}
	return 0;
}

__attribute__((hot))
unsigned long long order_pending(int tid, int *cache, long nr, int exit_args,
				 const struct fmt *rest,
				 void (*head)(struct fmt *f, int tid,
					      unsigned long long ns))
{
	unsigned long long ns = 0;
	struct pend *p;
	struct fmt h;
	unsigned int n;

	int held = lock(tid);

	p = claim(tid, cache);
	if (p) {
		/* stamped here, in the lock's order: no line written later
		 * can be stamped earlier */
		ns = sysgate_now_ns();
		fmt_init(&h, p->text, ORDER_TEXT);
		head(&h, tid, ns);
		n = rest->len;
		if (n > ORDER_TEXT - h.len)
			n = ORDER_TEXT - h.len;
		hk_memcpy(p->text + h.len, rest->buf, n);
		p->head = (unsigned short)h.len;
		p->len = (unsigned short)(h.len + n);
		p->entry_ns = ns;
		p->nr = nr;
		p->exit_args = exit_args;
		if (p->state != PENDING)
			area->pending++;
		p->state = PENDING;
	}
	unlock(held);
	return ns;
}

/* Under the lock: slot p's start, "<unfinished ...>". */
static void show(struct sysgate_ctx *self, struct pend *p)
{
	char buf[ORDER_TEXT + 64];
	struct fmt f;

	fmt_init(&f, buf, sizeof(buf));
	fmt_mem(&f, p->text, p->head);
	if (relative_fn)
		relative_fn(&f, p->entry_ns);
	fmt_mem(&f, p->text + p->head, p->len - p->head);
	fmt_str(&f, unfinished);
	sysgate_output(self, f.buf, f.len);
	p->state = SHOWN;
	area->pending--;
}

/* Under the lock: "<unfinished ...>" for every other call in the kernel
 * that started before `before`. */
__attribute__((hot))
static void flush(struct sysgate_ctx *self, int tid, unsigned long long before)
{
	int used = area->used, i;
	int pid = area == &local_area ? my_pid() : 0;

	for (i = 0; !whole && area->pending && i < used && i < ORDER_SLOTS;
	     i++) {
		struct pend *p = &area->slot[i];

		if (p->state != PENDING || p->tid == tid ||
		    p->entry_ns >= before || (pid && p->pid != pid))
			continue;
		show(self, p);
	}
}

int order_exec_leader(struct sysgate_ctx *self, int pid, int split,
		      struct order_cut *c)
{
	int cache = 0;
	struct pend *p = find(pid, &cache);

	if (!p || p->pid != pid || p->state == IDLE)
		return 0;
	if (p->state == PENDING && split && !whole)
		show(self, p);
	cut_of(p, c);
	idle(p);
	return 1;
}

/* Thread tid is known from its start: a process killed where it cannot
 * say so (SIGKILL) is reported with all its threads (order_gone). */
void order_thread(int tid)
{
	int held = lock(tid), cache = 0;

	claim(tid, &cache);
	unlock(held);
}

/* Process pid's slots but keep's are free (a new program: the old one's
 * other threads are gone). */
void order_forget_process(int self, int pid, int keep)
{
	int held = lock(self), i;

	for (i = 0; i < area->used && i < ORDER_SLOTS; i++) {
		struct pend *p = &area->slot[i];

		if (p->tid && p->pid == pid && p->tid != keep) {
			idle(p);
			p->tid = 0;
		}
	}
	unlock(held);
}

int order_gone(int tid, int pid, struct order_gone *g, int max, int *held)
{
	int i, n = 0;

	*held = lock(tid);
	for (i = 0; n < max && i < area->used && i < ORDER_SLOTS; i++) {
		struct pend *p = &area->slot[i];

		if (!p->tid || p->pid != pid)
			continue;
		g[n].tid = p->tid;
		g[n].in_call = p->state != IDLE;
		cut_of(p, &g[n].cut);
		idle(p);
		p->tid = 0;
		n++;
	}
	return n;
}

void order_gone_shows(struct sysgate_ctx *self)
{
	/* (the caller's own call too: its line comes after these) */
	flush(self, 0, sysgate_now_ns());
}

__attribute__((hot))
int order_begin(struct sysgate_ctx *self, int tid, int call, int *cache,
		unsigned long long *ts, int *held)
{
	struct pend *p;
	int shown = 0;

	*held = lock(tid);
	p = call ? find(tid, cache) : 0;
	if (p && p->state != IDLE) {
		shown = p->state == SHOWN;
		if (p->state == PENDING) {
			area->pending--;
			*ts = p->entry_ns;	/* (its line's time) */
		}
		p->state = IDLE;
	}
	if (!*ts || shown)
		*ts = sysgate_now_ns();
	flush(self, tid, *ts);
	return shown;
}

__attribute__((hot))
void order_end(int held)
{
	unlock(held);
}

int order_shown(int tid, int *cache)
{
	struct pend *p = find(tid, cache);

	return p && p->state == SHOWN;
}

const char *order_shown_args(int tid, int *cache, int *len)
{
	struct pend *p = find(tid, cache);
	int i;

	/* (a start cut at the slot's size shows less than it was) */
	if (!p || p->len >= ORDER_TEXT)
		return 0;
	for (i = p->head; i < p->len && p->text[i] != '('; i++)
		;
	if (i == p->len)
		return 0;
	*len = p->len - i - 1;
	return p->text + i + 1;
}

/* tid's call is in no line (gone == the thread too): not pending.  The
 * lock is self's, the caller's: an exit_group settles its other threads
 * while it holds the lock. */
static void settle(int self, int tid, int *cache, int gone)
{
	int held = lock(self);
	struct pend *p = find(tid, cache);

	if (p) {
		idle(p);
		if (gone)
			p->tid = 0;
	}
	unlock(held);
}

void order_drop(int tid, int *cache)
{
	settle(tid, tid, cache, 0);
}

void order_forget(int self, int tid, int *cache)
{
	settle(self, tid, cache, 1);
	*cache = 0;
}
