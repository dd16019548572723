/* SPDX-License-Identifier: MIT */
/*
 * System V IPC: shmget/semget/msgget keys, flags and modes, the
 * shmctl/semctl/msgctl commands with the kernel's structures (the "64"
 * layouts, the only ones a 64-bit kernel uses), semop's operations and
 * msgsnd/msgrcv's messages, as strace prints them.
 */
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

/* What a ctl command's buffer holds: which struct, read after the call
 * (out) or as given. */
enum { B_NONE, B_DS, B_SET, B_INFO, B_SHM_INFO };

/* (each call's own *_STAT, *_STAT_ANY and *_INFO: MSG_STAT_ANY is
 * SHM_STAT's number) */
static int buf_kind(unsigned long cmd, unsigned long stat,
		    unsigned long stat_any, unsigned long info, int *out)
{
	cmd &= ~(unsigned long)IPC_64;
	*out = cmd != IPC_SET;
	if (cmd == IPC_STAT || cmd == stat || cmd == stat_any)
		return B_DS;
	if (cmd == IPC_SET)
		return B_SET;
	if (cmd == IPC_INFO)
		return B_INFO;
	/* (SEM_INFO and MSG_INFO fill the IPC_INFO struct) */
	if (cmd == info)
		return info == SHM_INFO ? B_SHM_INFO : B_INFO;
	return B_NONE;
}

static void d_shmctl(struct call *c)
{
	unsigned long cmd = (unsigned int)c->s->args[1], p = c->s->args[2];
	int out, k = buf_kind(cmd, SHM_STAT, SHM_STAT_ANY, SHM_INFO, &out);
	struct fmt *f = c->f;
	union {
		struct shmid64_ds ds;
		struct shminfo64 info;
		struct shm_info shm;
	} b;

	a_int(c, 0);
	a_cmd(c, cmd, &xl_shmctl_cmds);
	if (k == B_NONE || fetch_arg(c, &b, p, k == B_INFO ? sizeof(b.info) :
				     k == B_SHM_INFO ? sizeof(b.shm) :
						       sizeof(b.ds), out)) {
		if (k == B_NONE)
			a_ptr(c, p);
		return;
	}
	if (k == B_SET) {
		p_perm(f, "{shm_perm", &b.ds.shm_perm, 0);
		fmt_chr(f, '}');
	} else if (k == B_DS) {
		p_perm(f, "{shm_perm", &b.ds.shm_perm, 1);
		f_udec(f, ", shm_segsz=", b.ds.shm_segsz);
		f_dec(f, ", shm_cpid=", b.ds.shm_cpid);
		f_dec(f, ", shm_lpid=", b.ds.shm_lpid);
		f_udec(f, ", shm_nattch=", b.ds.shm_nattch);
		f_dec(f, ", shm_atime=", b.ds.shm_atime);
		f_dec(f, ", shm_dtime=", b.ds.shm_dtime);
		f_dec(f, ", shm_ctime=", b.ds.shm_ctime);
		fmt_chr(f, '}');
	} else if (k == B_INFO) {
		f_udec(f, "{shmmax=", b.info.shmmax);
		f_udec(f, ", shmmin=", b.info.shmmin);
		f_udec(f, ", shmmni=", b.info.shmmni);
		f_udec(f, ", shmseg=", b.info.shmseg);
		f_udec(f, ", shmall=", b.info.shmall);
		fmt_chr(f, '}');
	} else {
		f_dec(f, "{used_ids=", b.shm.used_ids);
		f_udec(f, ", shm_tot=", b.shm.shm_tot);
		f_udec(f, ", shm_rss=", b.shm.shm_rss);
		f_udec(f, ", shm_swp=", b.shm.shm_swp);
		f_udec(f, ", swap_attempts=", b.shm.swap_attempts);
		f_udec(f, ", swap_successes=", b.shm.swap_successes);
		fmt_chr(f, '}');
	}
}

static void d_semctl(struct call *c)
{
	unsigned long cmd = (unsigned int)c->s->args[2], p = c->s->args[3];
	int out, k = buf_kind(cmd, SEM_STAT, SEM_STAT_ANY, SEM_INFO, &out);
	struct fmt *f = c->f;
	union {
		struct semid64_ds ds;
		struct seminfo info;
	} b;

	a_int(c, 0);
	a_int(c, 1);
	a_cmd(c, cmd, &xl_semctl_cmds);
	if (k == B_NONE || fetch_arg(c, &b, p, k == B_INFO ? sizeof(b.info) :
						       sizeof(b.ds), out)) {
		if (k == B_NONE)
			a_ptr(c, p);
		return;
	}
	if (k == B_SET) {
		p_perm(f, "{sem_perm", &b.ds.sem_perm, 0);
		fmt_chr(f, '}');
	} else if (k == B_DS) {
		p_perm(f, "{sem_perm", &b.ds.sem_perm, 1);
		f_dec(f, ", sem_otime=", b.ds.sem_otime);
		f_dec(f, ", sem_ctime=", b.ds.sem_ctime);
		f_udec(f, ", sem_nsems=", b.ds.sem_nsems);
		fmt_chr(f, '}');
	} else {
		f_dec(f, "{semmap=", b.info.semmap);
		f_dec(f, ", semmni=", b.info.semmni);
		f_dec(f, ", semmns=", b.info.semmns);
		f_dec(f, ", semmnu=", b.info.semmnu);
		f_dec(f, ", semmsl=", b.info.semmsl);
		f_dec(f, ", semopm=", b.info.semopm);
		f_dec(f, ", semume=", b.info.semume);
		f_dec(f, ", semusz=", b.info.semusz);
		f_dec(f, ", semvmx=", b.info.semvmx);
		f_dec(f, ", semaem=", b.info.semaem);
		fmt_chr(f, '}');
	}
}

static void d_msgctl(struct call *c)
{
	unsigned long cmd = (unsigned int)c->s->args[1], p = c->s->args[2];
	int out, k = buf_kind(cmd, MSG_STAT, MSG_STAT_ANY, MSG_INFO, &out);
	struct fmt *f = c->f;
	union {
		struct msqid64_ds ds;
		struct msginfo info;
	} b;

	a_int(c, 0);
	a_cmd(c, cmd, &xl_msgctl_cmds);
	if (k == B_NONE || fetch_arg(c, &b, p, k == B_INFO ? sizeof(b.info) :
						       sizeof(b.ds), out)) {
		if (k == B_NONE)
			a_ptr(c, p);
		return;
	}
	if (k == B_SET) {
		p_perm(f, "{msg_perm", &b.ds.msg_perm, 0);
		f_udec(f, ", msg_qbytes=", b.ds.msg_qbytes);
		fmt_chr(f, '}');
	} else if (k == B_DS) {
		p_perm(f, "{msg_perm", &b.ds.msg_perm, 1);
		f_dec(f, ", msg_stime=", b.ds.msg_stime);
		f_dec(f, ", msg_rtime=", b.ds.msg_rtime);
		f_dec(f, ", msg_ctime=", b.ds.msg_ctime);
		f_udec(f, ", msg_qnum=", b.ds.msg_qnum);
		f_udec(f, ", msg_qbytes=", b.ds.msg_qbytes);
		f_dec(f, ", msg_lspid=", b.ds.msg_lspid);
		f_dec(f, ", msg_lrpid=", b.ds.msg_lrpid);
		fmt_chr(f, '}');
	} else {
		f_dec(f, "{msgpool=", b.info.msgpool);
		f_dec(f, ", msgmap=", b.info.msgmap);
		f_dec(f, ", msgmax=", b.info.msgmax);
		f_dec(f, ", msgmnb=", b.info.msgmnb);
		f_dec(f, ", msgmni=", b.info.msgmni);
		f_dec(f, ", msgssz=", b.info.msgssz);
		f_dec(f, ", msgtql=", b.info.msgtql);
		f_udec(f, ", msgseg=", b.info.msgseg);
		fmt_chr(f, '}');
	}
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
	{ 0, 0, 0, 0 },
};
