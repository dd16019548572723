/* SPDX-License-Identifier: MIT */
/* Signals: sigaction structs, masks and how they change, kill family,
 * sigaltstack. */
#include <asm/signal.h>
#include <asm/siginfo.h>
#include "trace.h"
#include "chld.h"

/* The kernel's sigaction: sa_restorer exists where SA_RESTORER does. */
struct k_sigaction {
	unsigned long handler, flags;
#ifdef SA_RESTORER
	unsigned long restorer;
#endif
	unsigned long mask;
};

static void p_sigaction(struct fmt *f, const struct sysgate_sys *s,
			unsigned long p)
{
	struct k_sigaction sa;

	if (fetch(f, s, &sa, p, sizeof(sa)))
		return;
	fmt_str(f, "{sa_handler=");
	if (sa.handler == 0)
		p_named(f, "SIG_DFL", 0, 'x');
	else if (sa.handler == 1)
		p_named(f, "SIG_IGN", 1, 'x');
	else
		fmt_hex(f, sa.handler);
	fmt_str(f, ", sa_mask=");
	p_sigset(f, &sa.mask, sizeof(sa.mask));
	fmt_str(f, ", sa_flags=");
	p_flags(f, sa.flags, &xl_sa_flags, 0);
#ifdef SA_RESTORER
	if (sa.flags & SA_RESTORER) {
		fmt_str(f, ", sa_restorer=");
		p_ptr(f, sa.restorer);
	}
#endif
	fmt_chr(f, '}');
}

static void d_rt_sigaction(struct call *c)
{
	a_sep(c);
	p_signame(c->f, (int)c->s->args[0]);
	a_sep(c);
	p_sigaction(c->f, c->s, c->s->args[1]);
	if (a_out(c, c->s->args[2]))
		p_sigaction(c->f, c->s, c->s->args[2]);
	a_udec(c, c->s->args[3]);
}

static void a_oldset(struct call *c, unsigned long p, unsigned long size)
{
	if (c_ok(c))
		a_sigset(c, p, size);
	else
		a_ptr(c, p);
}

static void d_rt_sigprocmask(struct call *c)
{
	unsigned long size = c->s->args[3];

	a_xlat(c, (unsigned int)c->s->args[0], &xl_sigprocmask_how, "SIG_???");
	a_sigset(c, c->s->args[1], size);
	a_oldset(c, c->s->args[2], size);
	a_udec(c, size);
}

/* rt_sigpending's set may be shorter than a sigset_t (sigpending's
 * reuse in the kernel): 1 to 8 bytes of it */
static void d_rt_sigpending(struct call *c)
{
	unsigned long set[1] = { 0 }, size = c->s->args[1];

	if (!a_out(c, c->s->args[0]))
		;
	else if (size < 1 || size > sizeof(set))
		p_ptr(c->f, c->s->args[0]);
	else if (!fetch(c->f, c->s, set, c->s->args[0], size))
		p_sigset(c->f, set, size);
	a_udec(c, size);
}

static void d_rt_sigtimedwait(struct call *c)
{
	unsigned char si[128];

	a_sigset(c, c->s->args[0], c->s->args[3]);
	a_exit_next(c);
	if (!fetch_out(c, si, c->s->args[1], sizeof(si)))
		p_siginfo(c->f, c->s, si);
	a_timespec(c, c->s->args[2]);
	a_udec(c, c->s->args[3]);
}

/* The signal taken, by name: "14 (SIGALRM)" */
static void r_signal(struct call *c)
{
	const char *nm = sysgate_signal_name((int)c->s->ret);

	fmt_dec(c->f, c->s->ret);
	if (nm) {
		fmt_str(c->f, " (");
		fmt_str(c->f, nm);
		fmt_chr(c->f, ')');
	}
}

static void d_rt_sigsuspend(struct call *c)
{
	a_sigset(c, c->s->args[0], c->s->args[1]);
	a_udec(c, c->s->args[1]);
}

/* The core gives where the frame keeps the mask it restores (args[0])
 * and the result the interrupted code gets back (args[1]); 0 where it
 * cannot. */
static void d_rt_sigreturn(struct call *c)
{
	unsigned long set[1];

	if (!c->s->args[0] ||
	    (trace_structs(c->s) &&
	     sysgate_read_mem(c->s, set, (void *)c->s->args[0], sizeof(set)) !=
		     sizeof(set)))
		return;
	fmt_str(c->f, "{mask=");
	if (trace_structs(c->s))
		p_sigset(c->f, set, sizeof(set));
	else
		p_ptr(c->f, c->s->args[0]);
	fmt_chr(c->f, '}');
}

static void a_sig(struct call *c, int i)
{
	a_sep(c);
	if (c->s->args[i])
		p_signame(c->f, (int)c->s->args[i]);
	else
		fmt_chr(c->f, '0');
}

static void d_kill(struct call *c)
{
	a_sep(c);
	p_pid_or_pgid(c->f, (int)c->s->args[0]);
	a_sig(c, 1);
}

static void d_tkill(struct call *c)
{
	a_pid(c, 0, PT_TID);
	a_sig(c, 1);
}

static void d_tgkill(struct call *c)
{
	a_pid(c, 0, PT_TGID);
	a_pid(c, 1, PT_TID);
	a_sig(c, 2);
}

/* sig, {si_signo=...}: the siginfo the call queues */
static void a_sigqueueinfo(struct call *c, int i)
{
	unsigned char si[128];

	a_sig(c, i);
	a_sep(c);
	if (!fetch(c->f, c->s, si, c->s->args[i + 1], sizeof(si)))
		p_siginfo(c->f, c->s, si);
}

static void d_rt_sigqueueinfo(struct call *c)
{
	a_pid(c, 0, PT_TGID);
	a_sigqueueinfo(c, 1);
}

static void d_rt_tgsigqueueinfo(struct call *c)
{
	a_pid(c, 0, PT_TGID);
	a_pid(c, 1, PT_TID);
	a_sigqueueinfo(c, 2);
}

/* pidfd, sig, {si_signo=...}, flags (no flag has a name yet) */
static void d_pidfd_send_signal(struct call *c)
{
	a_fd(c, 0);
	a_sigqueueinfo(c, 1);
	a_sep(c);
	p_hex(c->f, (unsigned int)c->s->args[3]);
}

static void p_stack(struct fmt *f, const struct sysgate_sys *s,
		    unsigned long p)
{
	struct {
		unsigned long sp;
		int flags;
		unsigned long size;
	} ss;

	if (fetch(f, s, &ss, p, sizeof(ss)))
		return;
	fmt_str(f, "{ss_sp=");
	p_ptr(f, ss.sp);
	fmt_str(f, ", ss_flags=");
	p_flags(f, ss.flags, &xl_ss_flags, 0);
	f_udec(f, ", ss_size=", ss.size);
	fmt_chr(f, '}');
}

static void d_sigaltstack(struct call *c)
{
	a_sep(c);
	p_stack(c->f, c->s, c->s->args[0]);
	if (a_out(c, c->s->args[1]))
		p_stack(c->f, c->s, c->s->args[1]);
}

/* The kernel's siginfo, the parts strace prints. */
struct k_siginfo {
	int signo, err, code, pad;
	union {
		struct {
			int pid, uid;
			union {
				struct {
					int status;
					int pad;
					long utime, stime;
				} chld;
				struct {
					int value_int;
					int pad;
				} rt;
				unsigned long value_ptr;
			};
		} kill;
		struct {
			int tid, overrun;
			unsigned long value;
		} timer;
		unsigned long addr;
		struct {
			unsigned long addr;
			union {
				short addr_lsb;	/* BUS_MCEERR_* */
				struct {
					unsigned long pad, lower, upper;
				} bnd;	/* SEGV_BNDERR */
				struct {
					unsigned long pad;
					unsigned int pkey;
				} pkey;	/* SEGV_PKUERR */
			};
		} fault;
		struct {
			long band;
			int fd;
		} poll;
		struct {
			unsigned long call_addr;
			int syscall;
			unsigned int arch;
		} sys;
	} u;
};

static void p_si_code(struct fmt *f, int sig, int code)
{
	const struct xlat *t = 0;

	if (code <= 0 || code == 0x80)
		t = &xl_si_codes;
	else if (sig == SIGSEGV)
		t = &xl_segv_codes;
	else if (sig == SIGBUS)
		t = &xl_bus_codes;
	else if (sig == SIGILL)
		t = &xl_ill_codes;
	else if (sig == SIGFPE)
		t = &xl_fpe_codes;
	else if (sig == SIGTRAP)
		t = &xl_trap_codes;
	else if (sig == SIGCHLD)
		t = &xl_cld_codes;
	else if (sig == SIGIO)
		t = &xl_poll_codes;
	else if (sig == SIGSYS)
		t = &xl_sys_codes;
	if (t) {
		int i;

		for (i = 0; i < t->n; i++) {
			if (t->e[i].value == (unsigned long)(long)code) {
				p_named(f, xlat_str(t, i), (unsigned int)code,
					'x');
				return;
			}
		}
	}
	p_hex(f, (unsigned int)code);	/* (strace's %#x) */
}

/* SIGIO's band and descriptor (-y's path: of the call's process) */
static void p_si_poll(struct fmt *f, const struct sysgate_sys *s,
		      const struct k_siginfo *si)
{
	f_dec(f, ", si_band=", si->u.poll.band);
	f_dec(f, ", si_fd=", si->u.poll.fd);
	if (s)
		p_fdpath(f, s, si->u.poll.fd);
}

/* What a fault's code adds after si_addr */
static void p_si_fault(struct fmt *f, const struct k_siginfo *si)
{
	int sig = si->signo, code = si->code;

	if (sig == SIGBUS && (code == BUS_MCEERR_AR || code == BUS_MCEERR_AO)) {
		fmt_str(f, ", si_addr_lsb=");
		p_hex(f, (unsigned short)si->u.fault.addr_lsb);
	} else if (sig == SIGSEGV && code == SEGV_BNDERR) {
		fmt_str(f, ", si_lower=");
		p_ptr(f, si->u.fault.bnd.lower);
		fmt_str(f, ", si_upper=");
		p_ptr(f, si->u.fault.bnd.upper);
	} else if (sig == SIGSEGV && code == SEGV_PKUERR) {
		f_udec(f, ", si_pkey=", si->u.fault.pkey.pkey);
	}
}

/* SIGSYS's call: __NR_name when the arch is this ABI's */
static void p_si_syscall(struct fmt *f, const struct k_siginfo *si)
{
	const char *nm = si->u.sys.arch == xl_native_audit_arch.e[0].value ?
				 sysgate_syscall_name(si->u.sys.syscall) : 0;

	fmt_str(f, ", si_syscall=");
	if (nm && si->u.sys.syscall >= 0) {
		p_named_pre(f, "__NR_", nm, (unsigned int)si->u.sys.syscall,
			    'u');
	} else {
		fmt_udec(f, (unsigned int)si->u.sys.syscall);
	}
}

/* an id: unsigned, but -1 (no id) as -1, as strace prints ids */
static void p_si_uid(struct fmt *f, unsigned int uid)
{
	fmt_str(f, ", si_uid=");
	if (uid == ~0U)
		fmt_str(f, "-1");
	else
		fmt_udec(f, uid);
}

_Static_assert(sizeof(struct k_siginfo) <= 128, "a siginfo is 128 bytes");

void k_siginfo_chld(void *info, const struct chld_end *c)
{
	struct k_siginfo *si = info;

	hk_memset(si, 0, sizeof(*si));
	si->signo = SIGCHLD;
	si->code = c->code;
	si->u.kill.pid = c->pid;
	si->u.kill.uid = c->uid;
	si->u.kill.chld.status = c->status;
	si->u.kill.chld.utime = c->utime;
	si->u.kill.chld.stime = c->stime;
}

/* {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=..., ...} */
void p_siginfo(struct fmt *f, const struct sysgate_sys *s, const void *info)
{
	const struct k_siginfo *si = info;
	int sig = si->signo;

	fmt_str(f, "{si_signo=");
	p_signame(f, sig);
	fmt_str(f, ", si_code=");
	p_si_code(f, sig, si->code);
	if (si->err) {
		const char *e = sysgate_errno_name(si->err);

		fmt_str(f, ", si_errno=");
		/* (strace's: unsigned when it has no name) */
		if (e)
			p_named(f, e, si->err, 'd');
		else
			fmt_udec(f, (unsigned int)si->err);
	}
	if (si->code == SI_TIMER) {
		fmt_str(f, ", si_timerid=");
		p_hex(f, (unsigned int)si->u.timer.tid);
		f_dec(f, ", si_overrun=", si->u.timer.overrun);
		f_dec(f, ", si_int=", (int)si->u.timer.value);
		fmt_str(f, ", si_ptr=");
		p_ptr(f, si->u.timer.value);
	} else if (si->code == SI_SIGIO) {
		p_si_poll(f, s, si);
	} else if (si->code <= 0) {	/* (from a process: SI_FROMUSER) */
		fmt_str(f, ", si_pid=");
		p_pid(f, si->u.kill.pid, PT_TGID);
		p_si_uid(f, si->u.kill.uid);
		if (si->code == SI_QUEUE || si->code == SI_MESGQ) {
			f_dec(f, ", si_int=", si->u.kill.rt.value_int);
			fmt_str(f, ", si_ptr=");
			p_ptr(f, si->u.kill.value_ptr);
		}
	} else if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
		   sig == SIGFPE || sig == SIGTRAP) {
		fmt_str(f, ", si_addr=");
		p_ptr(f, si->u.addr);
		p_si_fault(f, si);
	} else if (sig == SIGCHLD) {
		fmt_str(f, ", si_pid=");
		p_pid(f, si->u.kill.pid, PT_TGID);
		p_si_uid(f, si->u.kill.uid);
		fmt_str(f, ", si_status=");
		if (si->code == CLD_EXITED)
			fmt_dec(f, si->u.kill.chld.status);
		else
			p_signame(f, si->u.kill.chld.status);
		fmt_str(f, ", si_utime=");
		p_clock_t(f, (unsigned long)si->u.kill.chld.utime);
		fmt_str(f, ", si_stime=");
		p_clock_t(f, (unsigned long)si->u.kill.chld.stime);
	} else if (sig == SIGIO) {
		if (si->code >= POLL_IN && si->code <= POLL_HUP)
			p_si_poll(f, s, si);
	} else if (sig == SIGSYS) {
		fmt_str(f, ", si_call_addr=");
		p_ptr(f, si->u.sys.call_addr);
		p_si_syscall(f, si);
		fmt_str(f, ", si_arch=");
		p_xlat(f, si->u.sys.arch, &xl_audit_arches, "AUDIT_ARCH_???");
	} else {
		/* a kernel's signal (SI_KERNEL...): its source and value
		 * only where it has them, as strace */
		if (si->u.kill.pid || si->u.kill.uid) {
			fmt_str(f, ", si_pid=");
			p_pid(f, si->u.kill.pid, PT_TGID);
			p_si_uid(f, si->u.kill.uid);
		}
		if (si->u.kill.value_ptr) {
			f_dec(f, ", si_int=", si->u.kill.rt.value_int);
			fmt_str(f, ", si_ptr=");
			p_ptr(f, si->u.kill.value_ptr);
		}
	}
	fmt_chr(f, '}');
}

const struct decoder dec_signal[] = {
	{ "rt_sigaction", d_rt_sigaction, 0, 0 },
	{ "rt_sigprocmask", d_rt_sigprocmask, 0, 0 },
	{ "rt_sigpending", d_rt_sigpending, 0, 0 },
	{ "rt_sigsuspend", d_rt_sigsuspend, 0, 0 },
	{ "rt_sigtimedwait", d_rt_sigtimedwait, r_signal, 0 },
	{ "rt_sigreturn", d_rt_sigreturn, 0, 0 },
	{ "kill", d_kill, 0, 0 },
	{ "tkill", d_tkill, 0, 0 },
	{ "rt_sigqueueinfo", d_rt_sigqueueinfo, 0, 0 },
	{ "rt_tgsigqueueinfo", d_rt_tgsigqueueinfo, 0, 0 },
	{ "tgkill", d_tgkill, 0, 0 },
	{ "pidfd_send_signal", d_pidfd_send_signal, 0, 0 },
	{ "sigaltstack", d_sigaltstack, 0, 0 },
	{ 0, 0, 0, 0 },
};
