/* SPDX-License-Identifier: MIT */
/*
 * quotactl and quotactl_fd: the command as QCMD(Q_..., ...QUOTA), then
 * what the command takes: an id (a uid, gid or project; a format for
 * Q_QUOTAON) and the structure it reads or writes, as strace prints them
 * (the v1/v2 and XFS structures, abbreviated unless -v).
 */
#include <linux/quota.h>
#include <linux/dqblk_xfs.h>
#include "trace.h"

/* The kernel's if_dqblk without the tail padding 64-bit adds (what a
 * 32-bit program's is; strace reads this much) */
struct dqblk {
	unsigned long long bhardlimit, bsoftlimit, curspace, ihardlimit,
		isoftlimit, curinodes, btime, itime;
	unsigned int valid, id;		/* id: if_nextdqblk's */
} __attribute__((packed));
#define DQBLK_SIZE __builtin_offsetof(struct dqblk, id)

/* QCMD(Q_GETQUOTA, USRQUOTA): the names whatever -X says; -X raw the
 * number, -X verbose both */
static void p_qcmd(struct fmt *f, unsigned int q)
{
	size_t start = x_begin(f);

	fmt_str(f, "QCMD(");
	p_xlat(f, q >> SUBCMDSHIFT, &xl_quota_cmds, "Q_???");
	fmt_str(f, ", ");
	p_xlat(f, q & SUBCMDMASK, &xl_quota_types, "???QUOTA");
	fmt_chr(f, ')');
	x_end(f, start, q, 'u');
}

static void a_uid32(struct call *c, unsigned int id)
{
	a_sep(c);
	if (id == (unsigned int)-1)
		fmt_str(c->f, "-1");
	else
		fmt_udec(c->f, id);
}

static void p_dqblk(struct call *c, const struct dqblk *d, int next)
{
	struct fmt *f = c->f;

	f_udec(f, "{dqb_bhardlimit=", d->bhardlimit);
	f_udec(f, ", dqb_bsoftlimit=", d->bsoftlimit);
	f_udec(f, ", dqb_curspace=", d->curspace);
	f_udec(f, ", dqb_ihardlimit=", d->ihardlimit);
	f_udec(f, ", dqb_isoftlimit=", d->isoftlimit);
	f_udec(f, ", dqb_curinodes=", d->curinodes);
	if (trace_whole(c->s)) {
		f_udec(f, ", dqb_btime=", d->btime);
		f_udec(f, ", dqb_itime=", d->itime);
		fmt_str(f, ", dqb_valid=");
		p_flags_unknown(f, d->valid, &xl_if_dqblk_valid, "QIF_???");
	}
	if (next)
		f_udec(f, ", dqb_id=", d->id);
	if (!trace_whole(c->s))
		fmt_str(f, ", ...");
	fmt_chr(f, '}');
}

static void p_dqinfo(struct fmt *f, const struct if_dqinfo *d)
{
	f_udec(f, "{dqi_bgrace=", d->dqi_bgrace);
	f_udec(f, ", dqi_igrace=", d->dqi_igrace);
	fmt_str(f, ", dqi_flags=");
	p_flags_unknown(f, d->dqi_flags, &xl_if_dqinfo_flags, "DQF_???");
	fmt_str(f, ", dqi_valid=");
	p_flags_unknown(f, d->dqi_valid, &xl_if_dqinfo_valid, "IIF_???");
	fmt_chr(f, '}');
}

static void p_xdqblk(struct call *c, const struct fs_disk_quota *d)
{
	struct fmt *f = c->f;

	f_dec(f, "{d_version=", d->d_version);
	fmt_str(f, ", d_flags=");
	p_flags_unknown(f, (unsigned char)d->d_flags, &xl_xfs_dqblk_flags,
			"FS_???_QUOTA");
	fmt_str(f, ", d_fieldmask=");
	p_hex(f, d->d_fieldmask);
	f_udec(f, ", d_id=", d->d_id);
	f_udec(f, ", d_blk_hardlimit=", d->d_blk_hardlimit);
	f_udec(f, ", d_blk_softlimit=", d->d_blk_softlimit);
	f_udec(f, ", d_ino_hardlimit=", d->d_ino_hardlimit);
	f_udec(f, ", d_ino_softlimit=", d->d_ino_softlimit);
	f_udec(f, ", d_bcount=", d->d_bcount);
	f_udec(f, ", d_icount=", d->d_icount);
	if (!trace_whole(c->s)) {
		fmt_str(f, ", ...}");
		return;
	}
	f_dec(f, ", d_itimer=", d->d_itimer);
	f_dec(f, ", d_btimer=", d->d_btimer);
	f_udec(f, ", d_iwarns=", d->d_iwarns);
	f_udec(f, ", d_bwarns=", d->d_bwarns);
	f_udec(f, ", d_rtb_hardlimit=", d->d_rtb_hardlimit);
	f_udec(f, ", d_rtb_softlimit=", d->d_rtb_softlimit);
	f_udec(f, ", d_rtbcount=", d->d_rtbcount);
	f_dec(f, ", d_rtbtimer=", d->d_rtbtimer);
	f_udec(f, ", d_rtbwarns=", d->d_rtbwarns);
	fmt_chr(f, '}');
}

/* fs_quota_stat and fs_quota_statv alike (statv: a third file, and
 * qs_incoredqs before the files) */
struct qstat {
	int version, v, timelimit[3];
	unsigned int flags, incoredqs, warnlimit[2];
	struct {
		unsigned long long ino, nblks;
		unsigned int nextents;
	} file[3];
};
#define QSTAT_OF(d, src, nfiles) do { \
	int i_; \
	(d)->version = (src)->qs_version; \
	(d)->flags = (src)->qs_flags; \
	(d)->incoredqs = (src)->qs_incoredqs; \
	(d)->timelimit[0] = (src)->qs_btimelimit; \
	(d)->timelimit[1] = (src)->qs_itimelimit; \
	(d)->timelimit[2] = (src)->qs_rtbtimelimit; \
	(d)->warnlimit[0] = (src)->qs_bwarnlimit; \
	(d)->warnlimit[1] = (src)->qs_iwarnlimit; \
	for (i_ = 0; i_ < (nfiles); i_++) { \
		const __typeof__((src)->qs_uquota) *q_ = \
			i_ == 0 ? &(src)->qs_uquota : &(src)->qs_gquota; \
		(d)->file[i_].ino = q_->qfs_ino; \
		(d)->file[i_].nblks = q_->qfs_nblks; \
		(d)->file[i_].nextents = q_->qfs_nextents; \
	} \
} while (0)

static void p_qstat(struct call *c, const struct qstat *q)
{
	static const char *const files[] = {
		", qs_uquota", ", qs_gquota", ", qs_pquota",
	};
	struct fmt *f = c->f;
	int i;

	f_dec(f, "{qs_version=", q->version);
	if (!trace_whole(c->s)) {
		fmt_str(f, ", ...}");
		return;
	}
	fmt_str(f, ", qs_flags=");
	p_flags_unknown(f, q->flags, &xl_xfs_quota_flags, "FS_QUOTA_???");
	if (q->v)
		f_udec(f, ", qs_incoredqs=", q->incoredqs);
	for (i = 0; i < (q->v ? 3 : 2); i++) {
		fmt_str(f, files[i]);
		f_udec(f, "={qfs_ino=", q->file[i].ino);
		f_udec(f, ", qfs_nblks=", q->file[i].nblks);
		f_udec(f, ", qfs_nextents=", q->file[i].nextents);
		fmt_chr(f, '}');
	}
	if (!q->v)
		f_udec(f, ", qs_incoredqs=", q->incoredqs);
	f_dec(f, ", qs_btimelimit=", q->timelimit[0]);
	f_dec(f, ", qs_itimelimit=", q->timelimit[1]);
	f_dec(f, ", qs_rtbtimelimit=", q->timelimit[2]);
	f_udec(f, ", qs_bwarnlimit=", q->warnlimit[0]);
	f_udec(f, ", qs_iwarnlimit=", q->warnlimit[1]);
	fmt_chr(f, '}');
}

/* [flags] a u32 at p points to */
static void a_flags_at(struct call *c, unsigned long p, const struct xlat *t,
		       const char *unknown)
{
	unsigned int v;

	a_sep(c);
	if (fetch(c->f, c->s, &v, p, sizeof(v)))
		return;
	fmt_chr(c->f, '[');
	p_flags_unknown(c->f, v, t, unknown);
	fmt_chr(c->f, ']');
}

/* What follows the command (and special or fd): by the command */
static void quota_data(struct call *c, unsigned int cmd, unsigned int id,
		       unsigned long p)
{
	union {
		struct dqblk dq;
		struct if_dqinfo info;
		struct fs_disk_quota xdq;
		struct fs_quota_stat qs;
		struct fs_quota_statv qsv;
		unsigned int fmt;
	} u;
	struct qstat st;

	switch (cmd) {
	case Q_QUOTAOFF: case Q_SYNC: case Q_XQUOTASYNC:
		return;
	case Q_QUOTAON:
		a_xlat(c, id, &xl_quota_formats, "QFMT_VFS_???");
		a_sep(c);
		p_string(c->f, c->s, p);
		return;
	case Q_GETQUOTA: case Q_GETNEXTQUOTA:
		a_uid32(c, id);
		if (!fetch_out(c, &u.dq, p, cmd == Q_GETQUOTA ? DQBLK_SIZE :
					     sizeof(u.dq)))
			p_dqblk(c, &u.dq, cmd == Q_GETNEXTQUOTA);
		return;
	case Q_SETQUOTA:
		a_uid32(c, id);
		a_sep(c);
		if (!fetch(c->f, c->s, &u.dq, p, DQBLK_SIZE))
			p_dqblk(c, &u.dq, 0);
		return;
	case Q_XGETQUOTA: case Q_XGETNEXTQUOTA: case Q_XSETQLIM:
		a_uid32(c, id);
		if (!fetch_arg(c, &u.xdq, p, sizeof(u.xdq), cmd != Q_XSETQLIM))
			p_xdqblk(c, &u.xdq);
		return;
	case Q_GETFMT:
		if (fetch_out(c, &u.fmt, p, sizeof(u.fmt)))
			return;
		fmt_chr(c->f, '[');
		p_xlat(c->f, u.fmt, &xl_quota_formats, "QFMT_VFS_???");
		fmt_chr(c->f, ']');
		return;
	case Q_GETINFO: case Q_SETINFO:
		if (!fetch_arg(c, &u.info, p, sizeof(u.info), cmd == Q_GETINFO))
			p_dqinfo(c->f, &u.info);
		return;
	case Q_XGETQSTAT:
		if (fetch_out(c, &u.qs, p, sizeof(u.qs)))
			return;
		QSTAT_OF(&st, &u.qs, 2);
		st.v = 0;
		p_qstat(c, &st);
		return;
	case Q_XGETQSTATV:
		if (fetch_out(c, &u.qsv, p, sizeof(u.qsv)))
			return;
		QSTAT_OF(&st, &u.qsv, 2);
		st.file[2].ino = u.qsv.qs_pquota.qfs_ino;
		st.file[2].nblks = u.qsv.qs_pquota.qfs_nblks;
		st.file[2].nextents = u.qsv.qs_pquota.qfs_nextents;
		st.v = 1;
		p_qstat(c, &st);
		return;
	case Q_XQUOTAON: case Q_XQUOTAOFF:
		a_flags_at(c, p, &xl_xfs_quota_flags, "FS_QUOTA_???");
		return;
	case Q_XQUOTARM:
		a_flags_at(c, p, &xl_xfs_dqblk_flags, "FS_???_QUOTA");
		return;
	}
	a_uid32(c, id);
	a_ptr(c, p);
}

static void d_quotactl(struct call *c)
{
	unsigned int q = (unsigned int)c->s->args[0];

	a_sep(c);
	p_qcmd(c->f, q);
	a_path(c, 1);
	quota_data(c, q >> SUBCMDSHIFT, (unsigned int)c->s->args[2],
		   c->s->args[3]);
}

static void d_quotactl_fd(struct call *c)
{
	unsigned int q = (unsigned int)c->s->args[1];

	a_fd(c, 0);
	a_sep(c);
	p_qcmd(c->f, q);
	quota_data(c, q >> SUBCMDSHIFT, (unsigned int)c->s->args[2],
		   c->s->args[3]);
}

const struct decoder dec_quota[] = {
	{ "quotactl", d_quotactl, 0, 0 },
	{ "quotactl_fd", d_quotactl_fd, 0, 0 },
	{ 0, 0, 0, 0 },
};
