/* SPDX-License-Identifier: MIT */
/*
 * System V IPC: shmget/semget/msgget keys, flags and modes, the
 * shmctl/semctl/msgctl commands with the kernel's structures (the "64"
 * layouts, the only ones a 64-bit kernel uses), semop's operations and
 * msgsnd/msgrcv's messages, as strace prints them.
 */
#include <stddef.h>
#include <linux/ipc.h>
#include <linux/msg.h>
#include <linux/sem.h>
#include <linux/shm.h>
#include "trace.h"

/* The kernel's size of a huge page: 6 bits from SHM_HUGE_SHIFT up. */
#define HUGE_MASK (0x3fUL << SHM_HUGE_SHIFT)

/* IPC_PRIVATE, or the key in hex */
static void a_key(struct call *c, int i)
{
	unsigned int key = (unsigned int)c->s->args[i];

	a_sep(c);
	if (key == IPC_PRIVATE)
		p_named(c->f, "IPC_PRIVATE", IPC_PRIVATE, 'x');
	else
		fmt_hex(c->f, key);
}

/* IPC_CREAT|IPC_EXCL|0x100000|21<<SHM_HUGE_SHIFT|0600: the flags, the
 * huge page size (shmget's), then the mode, each its own number under
 * -X raw. */
static void a_get_flags(struct call *c, unsigned long v,
			const struct xlat *names, int huge)
{
	unsigned long flags = v & ~0777UL & ~(huge ? HUGE_MASK : 0);

	a_sep(c);
	if (flags) {
		p_flags(c->f, flags, names, 0);
		fmt_chr(c->f, '|');
	}
	if (huge && (v & HUGE_MASK)) {
		fmt_udec(c->f, (v & HUGE_MASK) >> SHM_HUGE_SHIFT);
		fmt_str(c->f, "<<");
		p_named(c->f, "SHM_HUGE_SHIFT", SHM_HUGE_SHIFT, 'd');
		fmt_chr(c->f, '|');
	}
	p_mode(c->f, v & 0777);
}

/* IPC_64|IPC_STAT */
static void a_cmd(struct call *c, unsigned long cmd, const struct xlat *t)
{
	a_sep(c);
	if (cmd & IPC_64) {
		p_named(c->f, "IPC_64", IPC_64, 'x');
		fmt_chr(c->f, '|');
	}
	p_xlat(c->f, cmd & ~(unsigned long)IPC_64, t, "IPC_???");
}

static void p_perm(struct fmt *f, const char *name,
		   const struct ipc64_perm *p, int whole)
{
	fmt_str(f, name);
	f_udec(f, "={uid=", p->uid);
	f_udec(f, ", gid=", p->gid);
	fmt_str(f, ", mode=");
	p_mode(f, p->mode);
	if (whole) {
		f_udec(f, ", key=", (unsigned int)p->key);
		f_udec(f, ", cuid=", p->cuid);
		f_udec(f, ", cgid=", p->cgid);
	}
	fmt_chr(f, '}');
}

static void d_shmget(struct call *c)
{
	a_key(c, 0);
	a_udec(c, c->s->args[1]);
	a_get_flags(c, (unsigned int)c->s->args[2], &xl_shm_flags, 1);
}

static void d_semget(struct call *c)
{
	a_key(c, 0);
	a_int(c, 1);
	a_get_flags(c, (unsigned int)c->s->args[2], &xl_ipc_flags, 0);
}

static void d_msgget(struct call *c)
{
	a_key(c, 0);
	a_get_flags(c, (unsigned int)c->s->args[1], &xl_ipc_flags, 0);
}

/* A structure's members, printed from a table: name, where, how (2, 4
 * or 8 bytes). */
struct member {
	const char *name;
	unsigned short off, size;
	char kind;		/* 'd' signed, 'u' unsigned */
};
#define M(type, field, kind) \
	{ #field, offsetof(type, field), sizeof(((type *)0)->field), kind }
#define N(a) (int)(sizeof(a) / sizeof((a)[0]))

/* ", name=value" for each member (lead before the first: "{" or ", ") */
static void p_members(struct fmt *f, const void *base, const struct member *m,
		      int n, const char *lead)
{
	int i;

	for (i = 0; i < n; i++) {
		const unsigned char *p = (const unsigned char *)base + m[i].off;
		unsigned long long u;
		unsigned int u4;
		unsigned short u2;
		long long d;

		if (m[i].size == 2) {
			hk_memcpy(&u2, p, 2);
			u = u2;
			d = (short)u2;
		} else if (m[i].size == 4) {
			hk_memcpy(&u4, p, 4);
			u = u4;
			d = (int)u4;
		} else {
			hk_memcpy(&u, p, 8);
			d = (long long)u;
		}
		fmt_str(f, i ? ", " : lead);
		fmt_str(f, m[i].name);
		fmt_chr(f, '=');
		if (m[i].kind == 'd')
			fmt_dec(f, d);
		else
			fmt_udec(f, u);
	}
}

static const struct member shm_ds[] = {
	M(struct shmid64_ds, shm_segsz, 'u'), M(struct shmid64_ds, shm_cpid, 'd'),
	M(struct shmid64_ds, shm_lpid, 'd'), M(struct shmid64_ds, shm_nattch, 'u'),
	M(struct shmid64_ds, shm_atime, 'd'), M(struct shmid64_ds, shm_dtime, 'd'),
	M(struct shmid64_ds, shm_ctime, 'd'),
};
static const struct member shm_ipc_info[] = {
	M(struct shminfo64, shmmax, 'u'), M(struct shminfo64, shmmin, 'u'),
	M(struct shminfo64, shmmni, 'u'), M(struct shminfo64, shmseg, 'u'),
	M(struct shminfo64, shmall, 'u'),
};
static const struct member shm_info[] = {
	M(struct shm_info, used_ids, 'd'), M(struct shm_info, shm_tot, 'u'),
	M(struct shm_info, shm_rss, 'u'), M(struct shm_info, shm_swp, 'u'),
	M(struct shm_info, swap_attempts, 'u'),
	M(struct shm_info, swap_successes, 'u'),
};
static const struct member sem_ds[] = {
	M(struct semid64_ds, sem_otime, 'd'), M(struct semid64_ds, sem_ctime, 'd'),
	M(struct semid64_ds, sem_nsems, 'u'),
};
static const struct member sem_info[] = {
	M(struct seminfo, semmap, 'd'), M(struct seminfo, semmni, 'd'),
	M(struct seminfo, semmns, 'd'), M(struct seminfo, semmnu, 'd'),
	M(struct seminfo, semmsl, 'd'), M(struct seminfo, semopm, 'd'),
	M(struct seminfo, semume, 'd'), M(struct seminfo, semusz, 'd'),
	M(struct seminfo, semvmx, 'd'), M(struct seminfo, semaem, 'd'),
};
static const struct member msg_ds[] = {
	M(struct msqid64_ds, msg_stime, 'd'), M(struct msqid64_ds, msg_rtime, 'd'),
	M(struct msqid64_ds, msg_ctime, 'd'), M(struct msqid64_ds, msg_qnum, 'u'),
	M(struct msqid64_ds, msg_qbytes, 'u'),
	M(struct msqid64_ds, msg_lspid, 'd'), M(struct msqid64_ds, msg_lrpid, 'd'),
};
/* (IPC_SET's members after the permissions) */
static const struct member msg_set[] = {
	M(struct msqid64_ds, msg_qbytes, 'u'),
};
static const struct member msg_info[] = {
	M(struct msginfo, msgpool, 'd'), M(struct msginfo, msgmap, 'd'),
	M(struct msginfo, msgmax, 'd'), M(struct msginfo, msgmnb, 'd'),
	M(struct msginfo, msgmni, 'd'), M(struct msginfo, msgssz, 'd'),
	M(struct msginfo, msgtql, 'd'), M(struct msginfo, msgseg, 'u'),
};

struct layout {
	const struct member *m;
	int n;
	unsigned short size;
};
#define L(members, type) { members, N(members), sizeof(type) }

/* One *ctl call: its commands and what their buffers hold. */
struct ipc_ctl {
	const struct xlat *cmds;
	int cmd_arg;		/* semctl's is its third */
	/* the call's own *_STAT, *_STAT_ANY and *_INFO (MSG_STAT_ANY is
	 * SHM_STAT's number) */
	unsigned long stat, stat_any, info;
	const char *perm;	/* "{shm_perm" */
	struct layout ds, set, ipc_info, own_info;
};

static const struct ipc_ctl shm_ctl = {
	&xl_shmctl_cmds, 1, SHM_STAT, SHM_STAT_ANY, SHM_INFO, "{shm_perm",
	L(shm_ds, struct shmid64_ds), { 0, 0, sizeof(struct shmid64_ds) },
	L(shm_ipc_info, struct shminfo64), L(shm_info, struct shm_info),
};
static const struct ipc_ctl sem_ctl = {
	&xl_semctl_cmds, 2, SEM_STAT, SEM_STAT_ANY, SEM_INFO, "{sem_perm",
	L(sem_ds, struct semid64_ds), { 0, 0, sizeof(struct semid64_ds) },
	L(sem_info, struct seminfo), L(sem_info, struct seminfo),
};
static const struct ipc_ctl msg_ctl = {
	&xl_msgctl_cmds, 1, MSG_STAT, MSG_STAT_ANY, MSG_INFO, "{msg_perm",
	L(msg_ds, struct msqid64_ds), L(msg_set, struct msqid64_ds),
	L(msg_info, struct msginfo), L(msg_info, struct msginfo),
};

/* shmctl(id, cmd, buf), semctl(id, num, cmd, arg), msgctl(id, cmd, buf):
 * the buffer the command reads (IPC_SET, as given) or fills. */
static void d_ipc_ctl(struct call *c, const struct ipc_ctl *k)
{
	unsigned long cmd = (unsigned int)c->s->args[k->cmd_arg],
		      p = c->s->args[k->cmd_arg + 1], bare;
	const struct layout *l = 0;
	union {
		struct shmid64_ds shm;
		struct semid64_ds sem;
		struct msqid64_ds msg;
		struct shminfo64 shminfo;
		struct shm_info shm_info;
		struct seminfo seminfo;
		struct msginfo msginfo;
	} b;
	int i;

	for (i = 0; i < k->cmd_arg; i++)
		a_int(c, i);
	a_cmd(c, cmd, k->cmds);
	bare = cmd & ~(unsigned long)IPC_64;
	if (bare == IPC_STAT || bare == k->stat || bare == k->stat_any)
		l = &k->ds;
	else if (bare == IPC_SET)
		l = &k->set;
	else if (bare == IPC_INFO)
		l = &k->ipc_info;
	else if (bare == k->info)
		l = &k->own_info;
	if (!l) {
		a_ptr(c, p);
		return;
	}
	if (fetch_arg(c, &b, p, l->size, bare != IPC_SET))
		return;
	if (l == &k->ds || l == &k->set) {
		/* (ipc64_perm leads each *id64_ds) */
		p_perm(c->f, k->perm, (const struct ipc64_perm *)&b,
		       l == &k->ds);
		p_members(c->f, &b, l->m, l->n, ", ");
	} else {
		p_members(c->f, &b, l->m, l->n, "{");
	}
	fmt_chr(c->f, '}');
}

static void d_shmctl(struct call *c)
{
	d_ipc_ctl(c, &shm_ctl);
}

static void d_semctl(struct call *c)
{
	d_ipc_ctl(c, &sem_ctl);
}

static void d_msgctl(struct call *c)
{
	d_ipc_ctl(c, &msg_ctl);
}

static void d_shmat(struct call *c)
{
	a_int(c, 0);
	a_ptr(c, c->s->args[1]);
	a_flags(c, (unsigned int)c->s->args[2], &xl_shmat_flags, 0);
}

/* [{sem_num=0, sem_op=-1, sem_flg=SEM_UNDO}, ...]: at most -s entries,
 * then "...", and "..." with the address where it stops being readable */
static void a_sembufs(struct call *c, unsigned long p, unsigned long n)
{
	struct sembuf b;
	unsigned long i;

	a_sep(c);
	if (!n) {
		fmt_str(c->f, "[]");
		return;
	}
	if (fetch(c->f, c->s, &b, p, sizeof(b)))
		return;
	fmt_chr(c->f, '[');
	for (i = 0; i < n; i++) {
		unsigned long at = p + i * sizeof(b);

		if (i)
			fmt_str(c->f, ", ");
		if (i == (unsigned long)trace_strsize) {
			fmt_str(c->f, "...");
			break;
		}
		if (i && trace_read(c->s, &b, (void *)at, sizeof(b)) !=
				 (long)sizeof(b)) {
			fmt_str(c->f, "... /* ");
			fmt_hex(c->f, at);
			fmt_str(c->f, " */");
			break;
		}
		f_udec(c->f, "{sem_num=", b.sem_num);
		f_dec(c->f, ", sem_op=", b.sem_op);
		fmt_str(c->f, ", sem_flg=");
		p_flags(c->f, (unsigned short)b.sem_flg, &xl_sem_flags, 0);
		fmt_chr(c->f, '}');
	}
	fmt_chr(c->f, ']');
}

static void d_semop(struct call *c)
{
	a_int(c, 0);
	a_sembufs(c, c->s->args[1], (unsigned int)c->s->args[2]);
	a_udec(c, (unsigned int)c->s->args[2]);
}

static void d_semtimedop(struct call *c)
{
	d_semop(c);
	a_timespec(c, c->s->args[3]);
}

/* {mtype=1, mtext="..."}: n bytes of text after the long type */
static void p_msgbuf(struct call *c, unsigned long p, unsigned long n)
{
	long type;

	if (fetch(c->f, c->s, &type, p, sizeof(type)))
		return;
	f_dec(c->f, "{mtype=", type);
	fmt_str(c->f, ", mtext=");
	p_data(c->f, c->s, p + sizeof(type), n, 0);
	fmt_chr(c->f, '}');
}

static void d_msgsnd(struct call *c)
{
	a_int(c, 0);
	a_sep(c);
	p_msgbuf(c, c->s->args[1], c->s->args[2]);
	a_udec(c, c->s->args[2]);
	a_flags(c, (unsigned int)c->s->args[3], &xl_msgq_flags, 0);
}

static void d_msgrcv(struct call *c)
{
	a_int(c, 0);
	if (a_out(c, c->s->args[1]))
		p_msgbuf(c, c->s->args[1], c->s->ret);
	a_udec(c, c->s->args[2]);
	a_dec(c, c->s->args[3]);
	a_flags(c, (unsigned int)c->s->args[4], &xl_msgq_flags, 0);
}

/* POSIX message queues' struct mq_attr (the kernel's: four longs) */
static void a_mq_attr(struct call *c, unsigned long p, int flags, int out)
{
	long a[8];	/* (and four reserved) */

	if (fetch_arg(c, a, p, sizeof(a), out))
		return;
	fmt_str(c->f, "{mq_flags=");
	if (flags)
		p_flags_unknown(c->f, (unsigned long)a[0], &xl_mq_attr_flags,
				"O_???");
	else
		p_hex(c->f, (unsigned long)a[0]);
	f_dec(c->f, ", mq_maxmsg=", a[1]);
	f_dec(c->f, ", mq_msgsize=", a[2]);
	f_dec(c->f, ", mq_curmsgs=", a[3]);
	fmt_chr(c->f, '}');
}

/* name, flags, and with O_CREAT the mode and the attributes asked for */
static void d_mq_open(struct call *c)
{
	unsigned int fl = (unsigned int)c->s->args[1];

	a_path(c, 0);
	a_sep(c);
	p_open_flags(c->f, fl);
	if (!(fl & 0100))	/* O_CREAT */
		return;
	a_sep(c);
	p_mode(c->f, (unsigned short)c->s->args[2]);
	a_mq_attr(c, c->s->args[3], 0, 0);
}

static void d_mq_timedsend(struct call *c)
{
	a_fd(c, 0);
	a_sep(c);
	p_data(c->f, c->s, c->s->args[1], c->s->args[2], 0);
	a_udec(c, c->s->args[2]);
	a_udec(c, (unsigned int)c->s->args[3]);
	a_timespec(c, c->s->args[4]);
}

/* the message and its priority once received; the timeout as given */
static void d_mq_timedreceive(struct call *c)
{
	unsigned int prio;

	a_fd(c, 0);
	if (a_out(c, c->s->args[1]))
		p_data(c->f, c->s, c->s->args[1], c->s->ret, 0);
	a_udec(c, c->s->args[2]);
	if (!fetch_out(c, &prio, c->s->args[3], sizeof(prio)))
		f_udec(c->f, "[", prio), fmt_chr(c->f, ']');
	a_timespec(c, c->s->args[4]);
}

static void d_mq_notify(struct call *c)
{
	a_fd(c, 0);
	a_sep(c);
	p_sigevent(c, c->s->args[1]);
}

static void d_mq_getsetattr(struct call *c)
{
	a_fd(c, 0);
	a_mq_attr(c, c->s->args[1], 1, 0);
	a_mq_attr(c, c->s->args[2], 1, 1);
}

const struct decoder dec_ipc[] = {
	{ "shmget", d_shmget, 0, 0 },
	{ "semget", d_semget, 0, 0 },
	{ "msgget", d_msgget, 0, 0 },
	{ "shmctl", d_shmctl, 0, 0 },
	{ "semctl", d_semctl, 0, 0 },
	{ "msgctl", d_msgctl, 0, 0 },
	{ "shmat", d_shmat, 0, 0 },
	{ "semop", d_semop, 0, 0 },
	{ "semtimedop", d_semtimedop, 0, 0 },
	{ "msgsnd", d_msgsnd, 0, 0 },
	{ "msgrcv", d_msgrcv, 0, 0 },
	{ "mq_open", d_mq_open, 0, 0 },
	{ "mq_timedsend", d_mq_timedsend, 0, 0 },
	{ "mq_timedreceive", d_mq_timedreceive, 0, 0 },
	{ "mq_getsetattr", d_mq_getsetattr, 0, 0 },
	{ "mq_notify", d_mq_notify, 0, 0 },
	{ 0, 0, 0, 0 },
};
