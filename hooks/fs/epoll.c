/* SPDX-License-Identifier: MIT */
/*
 * epoll sets that hold our descriptors.  The kernel refuses regular files
 * in epoll (EPERM), so our entries live in the arena (struct fs_epi, one
 * list per struct fs_epset), and each set is tied to its epoll instance by
 * one kernel entry there: the tree's sentinel, an eventfd that is always
 * readable, registered with a tag naming the set (FS_EP_MAGIC, the set's
 * generation and index in its data).  The sentinel waits for EPOLLIN while
 * some entry of the set can be reported, and for nothing otherwise.  So:
 *  - the kernel does all the waiting: with one of ours ready it returns at
 *    once, the sentinel among its own ready events (a zero-timeout poll of
 *    the rest), and the exit side puts the set's ready entries in the
 *    sentinel's place; with none ready it waits as usual, and signals
 *    interrupt it as usual;
 *  - poll or select on the epoll descriptor, and nested epoll, see it
 *    readable while one of ours is ready;
 *  - any descriptor of the instance finds the set, in any process (dup,
 *    fork, execve, SCM_RIGHTS): /proc/self/fdinfo/EPFD lists the sentinel
 *    and its tag.
 *
 * Our files are always ready.  A level-triggered entry is reported by
 * every wait; an EPOLLONESHOT or EPOLLET one once after each ADD or MOD.
 * As in the kernel, an entry goes away with its open file description
 * (the last close), or by EPOLL_CTL_DEL.  A set without entries is freed;
 * its generation makes a sentinel left behind stale, and a stale sentinel
 * is removed when next seen.  Everything here runs with the lock held.
 */
#include <asm/unistd.h>
#include <linux/errno.h>
#include <linux/eventpoll.h>
#include <linux/fcntl.h>
#include "fs.h"
#include "../lib/fmt.h"

#define FS_EP_MAGIC 0x5347ULL		/* tag bits 63..48 */
#define TAG_GEN_BITS 28			/* bits 47..20; index: 19..0 */
#define TAG_INDEX(t) ((unsigned int)((t) & 0xfffff))
#define EP_READY (EPOLLIN | EPOLLOUT | EPOLLRDNORM | EPOLLWRNORM)
#define EP_ONCE (EPOLLONESHOT | EPOLLET)
#define EFD_NONBLOCK_ 04000

int fs_ep_fd = -1;

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return sysgate_syscall(nr, a, b, c, d, e, f);
}

int fs_epoll_is_wait(long nr)
{
	return nr == __NR_epoll_wait || nr == __NR_epoll_pwait ||
	       nr == __NR_epoll_pwait2;
}

/* One readable eventfd serves every set of the tree: a counter of 1 that
 * nobody reads.  Not close-on-exec: execve hands it on with the arena. */
int fs_epoll_sentinel(void)
{
	long fd = sc(__NR_eventfd2, 1, EFD_NONBLOCK_, 0, 0, 0, 0);

	if (fd < 0)
		return fd;
	fs_ep_fd = fs_high_fd(fd);
	return 0;
}

static unsigned long long tag_of(unsigned int set)
{
	unsigned long long gen = fs_epset(set)->gen &
				 ((1U << TAG_GEN_BITS) - 1);

	return FS_EP_MAGIC << 48 | gen << 20 | set;
}

/* The live set a tag names, or 0 (stale, or not a tag at all). */
static unsigned int set_of_tag(unsigned long long tag)
{
	unsigned int set = TAG_INDEX(tag);

	if (tag >> 48 != FS_EP_MAGIC || !set ||
	    set >= fs_ar.sb->epset_next || !fs_epset(set)->live)
		return 0;
	return tag == tag_of(set) ? set : 0;
}

/* ---- /proc/self/fdinfo/EPFD: "tfd: %8d events: %8x data: %16llx ..." */

static const char *skip_to(const char *l, const char *word)
{
	unsigned long n = hk_strlen(word);

	for (; *l; l++)
		if (!hk_strncmp(l, word, n)) {
			for (l += n; *l == ' ' || *l == '\t'; l++)
				;
			return l;
		}
	return 0;
}

/* The sentinel's tag on one fdinfo line: 1 and *tag, or 0. */
static int line_tag(const char *l, unsigned long long *tag)
{
	unsigned long long v = 0;
	long fd = 0;

	if (hk_strncmp(l, "tfd:", 4))
		return 0;
	for (l = skip_to(l, "tfd:"); *l >= '0' && *l <= '9'; l++)
		fd = fd * 10 + (*l - '0');
	if (fd != fs_ep_fd || !(l = skip_to(l, "data:")))
		return 0;
	for (;; l++) {
		int d = *l >= '0' && *l <= '9' ? *l - '0' :
			*l >= 'a' && *l <= 'f' ? *l - 'a' + 10 : -1;

		if (d < 0)
			break;
		v = v << 4 | d;
	}
	if (v >> 48 != FS_EP_MAGIC)
		return 0;
	*tag = v;
	return 1;
}

/* The tag of the sentinel in the instance behind epfd: 1 (and *tag), 0
 * when it holds none, -errno when its fdinfo cannot be read. */
static long find_tag(long epfd, unsigned long long *tag)
{
	char path[48], buf[4096];
	unsigned long have = 0, i, start;
	struct fmt f;
	long fd, n, found = 0;

	fmt_init(&f, path, sizeof(path));
	fmt_str(&f, "/proc/self/fdinfo/");
	fmt_dec(&f, (int)epfd);
	fmt_chr(&f, 0);
	fd = sc(__NR_openat, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC, 0, 0,
		0);
	if (fd < 0)
		return fd;
	while (!found &&
	       (n = sc(__NR_read, fd, (long)buf + have, sizeof(buf) - 1 - have,
		       0, 0, 0)) > 0) {
		have += n;
		for (i = start = 0; i < have && !found; i++) {
			if (buf[i] != '\n')
				continue;
			buf[i] = 0;
			found = line_tag(buf + start, tag);
			start = i + 1;
		}
		for (i = start; i < have; i++)	/* keep a partial line */
			buf[i - start] = buf[i];
		have -= start;
		if (have == sizeof(buf) - 1)
			have = 0;	/* no line is that long */
	}
	sc(__NR_close, fd, 0, 0, 0, 0, 0);
	return found;
}

/* ---- sets and entries ---- */

static unsigned int *epi_link(unsigned int i)
{
	return &fs_epi(i)->next;
}

static unsigned int *epset_link(unsigned int i)
{
	return &fs_epset(i)->next_free;
}

static unsigned int set_new(void)
{
	struct fs_super *sb = fs_ar.sb;
	unsigned int i = fs_take(&sb->epset_free, &sb->epset_next,
				 sb->nepsets, epset_link);
	struct fs_epset *st;

	if (!i)
		return 0;
	st = fs_epset(i);
	st->live = 1;
	st->gen++;
	st->head = st->rr = st->armed = 0;
	st->pid = st->epfd = -1;
	return i;
}

static void set_free(unsigned int set)
{
	struct fs_epset *st = fs_epset(set);

	st->live = 0;
	st->next_free = fs_ar.sb->epset_free;
	fs_ar.sb->epset_free = set;
}

static unsigned int find_entry(unsigned int set, int fd, unsigned int ofd)
{
	unsigned int e;

	for (e = fs_epset(set)->head; e; e = fs_epi(e)->next)
		if (fs_epi(e)->fd == fd && fs_epi(e)->ofd == ofd)
			return e;
	return 0;
}

static void entry_remove(unsigned int set, unsigned int e)
{
	struct fs_epset *st = fs_epset(set);
	unsigned int *p = &st->head;

	while (*p && *p != e)
		p = &fs_epi(*p)->next;
	if (*p)
		*p = fs_epi(e)->next;
	if (st->rr == e)
		st->rr = 0;
	fs_ofd(fs_epi(e)->ofd)->epis--;
	fs_epi(e)->set = 0;
	fs_epi(e)->next = fs_ar.sb->epi_free;
	fs_ar.sb->epi_free = e;
}

static int reportable(const struct fs_epi *e)
{
	return (e->events & EP_READY) && !(e->fired && (e->events & EP_ONCE));
}

static int any_reportable(unsigned int set)
{
	unsigned int e;

	for (e = fs_epset(set)->head; e; e = fs_epi(e)->next)
		if (reportable(fs_epi(e)))
			return 1;
	return 0;
}

/*
 * Make the sentinel in epfd's instance match the set: gone with the set
 * when it has no entries left, else waiting for EPOLLIN exactly while
 * something can be reported.
 */
static void sync_sentinel(unsigned int set, long epfd)
{
	struct fs_epset *st = fs_epset(set);
	struct epoll_event k;
	unsigned int want;

	st->pid = sc(__NR_getpid, 0, 0, 0, 0, 0, 0);
	st->epfd = epfd;
	if (!st->head) {
		if (sc(__NR_epoll_ctl, epfd, EPOLL_CTL_DEL, fs_ep_fd, 0, 0,
		       0) == 0)
			fs_ar.sb->ep_tags--;
		set_free(set);
		return;
	}
	want = any_reportable(set) ? EPOLLIN : 0;
	if (want == st->armed)
		return;
	k.events = want;
	k.data = tag_of(set);
	if (sc(__NR_epoll_ctl, epfd, EPOLL_CTL_MOD, fs_ep_fd, (long)&k, 0,
	       0) == 0)
		st->armed = want;
}

/* ---- epoll_ctl with one of ours as the target ---- */

/* A new set tied to epfd's instance, or -errno (EBADF, EINVAL: epfd is
 * not an epoll descriptor, ENOSPC). */
static long set_create(long epfd)
{
	unsigned int set = set_new();
	struct epoll_event k;
	long r;

	if (!set)
		return -ENOSPC;
	k.events = 0;
	k.data = tag_of(set);
	r = sc(__NR_epoll_ctl, epfd, EPOLL_CTL_ADD, fs_ep_fd, (long)&k, 0, 0);
	if (r == 0)
		fs_ar.sb->ep_tags++;
	else if (r == -EEXIST)	/* a stale sentinel: take it over */
		r = sc(__NR_epoll_ctl, epfd, EPOLL_CTL_MOD, fs_ep_fd, (long)&k,
		       0, 0);
	if (r < 0) {
		set_free(set);
		return r;
	}
	return set;
}

static long entry_add(unsigned int set, int fd, unsigned int ofd,
		      const struct epoll_event *ev)
{
	struct fs_super *sb = fs_ar.sb;
	unsigned int e = fs_take(&sb->epi_free, &sb->epi_next, sb->nepis,
				 epi_link);
	struct fs_epi *p;

	if (!e)
		return -ENOSPC;
	p = fs_epi(e);
	p->set = set;
	p->fd = fd;
	p->ofd = ofd;
	p->events = ev->events;
	p->data = ev->data;
	p->fired = 0;
	p->next = fs_epset(set)->head;
	fs_epset(set)->head = e;
	fs_ofd(ofd)->epis++;
	return 0;
}

long fs_epoll_ctl(struct sysgate_sys *s)
{
	long epfd = (int)s->args[0], op = s->args[1], r;
	int fd = (int)s->args[2];
	unsigned int ofd = fs_fd_ofd(s, fd), set = 0, e;
	unsigned long long tag;
	struct epoll_event ev;

	if (fs_ep_fd < 0 || fs_fd_virtual(s, epfd))
		return -EINVAL;	/* a file of ours is no epoll instance */
	if (op != EPOLL_CTL_ADD && op != EPOLL_CTL_MOD && op != EPOLL_CTL_DEL)
		return -EINVAL;
	if (op != EPOLL_CTL_DEL &&
	    fs_read_mem(s, &ev, (void *)s->args[3], sizeof(ev)) < 0)
		return -EFAULT;
	if (find_tag(epfd, &tag) > 0)
		set = set_of_tag(tag);
	if (!set && op != EPOLL_CTL_ADD) {
		/* Nothing of ours there: the kernel's answer for epfd (EBADF,
		 * EINVAL), else ENOENT; a stale sentinel goes too. */
		r = sc(__NR_epoll_ctl, epfd, EPOLL_CTL_DEL, fs_ep_fd, 0, 0, 0);
		if (r == 0)
			fs_ar.sb->ep_tags--;
		return r < 0 && r != -ENOENT ? r : -ENOENT;
	}
	if (!set) {
		r = set_create(epfd);
		if (r < 0)
			return r;
		set = r;
	}
	e = find_entry(set, fd, ofd);
	r = 0;
	switch (op) {
	case EPOLL_CTL_ADD:
		r = e ? -EEXIST : entry_add(set, fd, ofd, &ev);
		break;
	case EPOLL_CTL_MOD:
		if (!e)
			r = -ENOENT;
		else if ((ev.events | fs_epi(e)->events) & EPOLLEXCLUSIVE)
			r = -EINVAL;
		else {
			fs_epi(e)->events = ev.events;
			fs_epi(e)->data = ev.data;
			fs_epi(e)->fired = 0;
		}
		break;
	default:
		if (e)
			entry_remove(set, e);
		else
			r = -ENOENT;
	}
	sync_sentinel(set, epfd);
	return r;
}

/* ---- the open file description is gone: so are its entries ---- */

void fs_epoll_forget(unsigned int ofd)
{
	struct fs_super *sb = fs_ar.sb;
	unsigned int e, set;
	int pid = sc(__NR_getpid, 0, 0, 0, 0, 0, 0);

	for (e = 1; e < sb->epi_next && fs_ofd(ofd)->epis; e++) {
		struct fs_epset *st;
		unsigned long long tag;

		if (fs_epi(e)->ofd != ofd || !(set = fs_epi(e)->set))
			continue;
		entry_remove(set, e);
		st = fs_epset(set);
		/* Where this process used the set last and the descriptor
		 * still reaches it, tidy the sentinel now; elsewhere the
		 * next wait does (one early return, with nothing of ours). */
		if (st->pid == pid && find_tag(st->epfd, &tag) > 0 &&
		    tag == tag_of(set))
			sync_sentinel(set, st->epfd);
		else if (!st->head)
			set_free(set);
	}
}

/* ---- epoll_wait, epoll_pwait, epoll_pwait2: swap in our entries ---- */

/* Our ready entries, from the set's round-robin point, into out[]. */
static long collect(unsigned int set, struct epoll_event *out, long room)
{
	struct fs_epset *st = fs_epset(set);
	unsigned int e = st->rr ? st->rr : st->head, first = e;
	long n = 0;

	while (e && n < room) {
		struct fs_epi *p = fs_epi(e);

		if (reportable(p)) {
			out[n].events = p->events & EP_READY;
			out[n].data = p->data;
			n++;
			p->fired = 1;
		}
		e = p->next ? p->next : st->head;
		if (e == first)
			break;
	}
	st->rr = e;
	return n;
}

/* Where the sentinel is among the n events at u: its index, or -1. */
static long find_sentinel(const struct sysgate_sys *s,
			  const struct epoll_event *u, long n,
			  unsigned long long *tag)
{
	struct epoll_event ev[64];
	long i, j;

	for (i = 0; i < n; i += 64) {
		long k = fs_min(64, n - i);

		if (fs_read_mem(s, ev, u + i, k * sizeof(ev[0])) < 0)
			return -1;
		for (j = 0; j < k; j++)
			if (ev[j].data >> 48 == FS_EP_MAGIC) {
				*tag = ev[j].data;
				return i + j;
			}
	}
	return -1;
}

void fs_epoll_wait_exit(struct sysgate_sys *s)
{
	struct epoll_event *u = (struct epoll_event *)s->args[1];
	struct epoll_event out[64];
	long n = s->ret, max = (int)s->args[2], at, got, room;
	unsigned long long tag;
	unsigned int set;

	if (n <= 0 || !__atomic_load_n(&fs_ar.sb->ep_tags, __ATOMIC_RELAXED))
		return;
	at = find_sentinel(s, u, n, &tag);
	if (at < 0)
		return;
	fs_lock(s->tid);
	set = set_of_tag(tag);
	room = fs_min(max - (n - 1), sizeof(out) / sizeof(out[0]));
	got = set ? collect(set, out, room) : 0;
	if (set)
		sync_sentinel(set, (int)s->args[0]);
	else if (sc(__NR_epoll_ctl, (int)s->args[0], EPOLL_CTL_DEL, fs_ep_fd,
		    0, 0, 0) == 0)
		fs_ar.sb->ep_tags--;
	fs_unlock();
	/* Ours go in the sentinel's place and after the kernel's events;
	 * with none, the last kernel event fills the hole. */
	if (!got && at != n - 1 &&
	    (fs_read_mem(s, out, u + n - 1, sizeof(out[0])) < 0 ||
	     fs_write_mem(s, u + at, out, sizeof(out[0])) < 0))
		return;
	if (got && (fs_write_mem(s, u + at, out, sizeof(out[0])) < 0 ||
		    fs_write_mem(s, u + n, out + 1,
				      (got - 1) * sizeof(out[0])) < 0))
		return;
	s->ret = n - 1 + got;
}
