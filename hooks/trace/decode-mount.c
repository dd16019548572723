/* SPDX-License-Identifier: MIT */
/* Mounting: mount's flags and the arguments they make meaningful, and
 * the mount API (fsopen, fsconfig, fsmount, fspick, open_tree,
 * move_mount, mount_setattr). */
#include <sys/mount.h>
#include <fcntl.h>
#include "trace.h"

/* The old magic number mount's flags may carry in their high bits. */
#define MGC_MASK 0xffff0000u

static void d_mount(struct call *c)
{
	unsigned long flags = c->s->args[3];
	int magic = (flags & MGC_MASK) == MS_MGC_VAL, no_type = 0, no_data = 0;

	if (magic)
		flags &= ~MGC_MASK;	/* (an unsigned int: strace's mask) */
	/* what the kernel ignores is an address */
	if (flags & MS_REMOUNT)
		no_type = 1;
	else if (flags & (MS_BIND | MS_MOVE | MS_SHARED | MS_PRIVATE |
			  MS_SLAVE | MS_UNBINDABLE))
		no_type = no_data = 1;
	a_path(c, 0);
	a_path(c, 1);
	a_sep(c);
	if (no_type)
		p_ptr(c->f, c->s->args[2]);
	else
		p_str_max(c->f, c->s, c->s->args[2], -1UL);
	a_sep(c);
	if (magic) {
		p_named(c->f, "MS_MGC_VAL", MS_MGC_VAL, 'x');
		if (flags)
			fmt_chr(c->f, '|');
	}
	if (flags || !magic)
		p_flags_unknown(c->f, flags, &xl_mount_flags, "MS_???");
	a_sep(c);
	if (no_data)
		p_ptr(c->f, c->s->args[4]);
	else
		p_str_max(c->f, c->s, c->s->args[4], -1UL);
}

static void d_fsopen(struct call *c)
{
	a_string(c, c->s->args[0]);
	a_int_flags(c, (unsigned int)c->s->args[1], &xl_fsopen_flags,
		    "FSOPEN_???");
}

static void d_fsconfig(struct call *c)
{
	unsigned int cmd = (unsigned int)c->s->args[1];
	unsigned long key = c->s->args[2], value = c->s->args[3];
	int aux = (int)c->s->args[4];

	a_fd(c, 0);
	a_xlat(c, cmd, &xl_fsconfig_cmds, "FSCONFIG_???");
	a_sep(c);
	/* the commands that set a parameter name it */
	if (cmd <= FSCONFIG_SET_FD)
		p_str_max(c->f, c->s, key, 256);
	else
		p_ptr(c->f, key);
	a_sep(c);
	if (cmd == FSCONFIG_SET_STRING)
		p_str_max(c->f, c->s, value, 256);
	else if (cmd == FSCONFIG_SET_PATH || cmd == FSCONFIG_SET_PATH_EMPTY)
		p_string(c->f, c->s, value);
	else if (cmd == FSCONFIG_SET_BINARY && aux >= 0 && aux <= 1 << 20)
		p_data(c->f, c->s, value, (unsigned long)aux, 1);
	else
		p_ptr(c->f, value);
	if (cmd == FSCONFIG_SET_PATH || cmd == FSCONFIG_SET_PATH_EMPTY)
		a_dirfd(c, 4);
	else if (cmd == FSCONFIG_SET_FD)
		a_fd(c, 4);
	else
		a_dec(c, aux);
}

static void d_fsmount(struct call *c)
{
	a_fd(c, 0);
	a_int_flags(c, (unsigned int)c->s->args[1], &xl_fsmount_flags,
		    "FSMOUNT_???");
	a_int_flags(c, (unsigned int)c->s->args[2], &xl_fsmount_attr,
		    "MOUNT_ATTR_???");
}

/* fspick and open_tree: a directory, a path and flags */
static void at_path_flags(struct call *c, const struct xlat *t,
			  const char *unknown)
{
	a_dirfd(c, 0);
	a_path(c, 1);
	a_int_flags(c, (unsigned int)c->s->args[2], t, unknown);
}

static void d_fspick(struct call *c)
{
	at_path_flags(c, &xl_fspick_flags, "FSPICK_???");
}

static void d_open_tree(struct call *c)
{
	at_path_flags(c, &xl_open_tree_flags, "OPEN_TREE_???");
}

static void d_move_mount(struct call *c)
{
	a_dirfd(c, 0);
	a_path(c, 1);
	a_dirfd(c, 2);
	a_path(c, 3);
	a_int_flags(c, (unsigned int)c->s->args[4], &xl_move_mount_flags,
		    "MOVE_MOUNT_???");
}

/* struct mount_attr of size bytes: its known fields (the address when
 * smaller than the first version), bytes past them shown when not 0 */
static void p_mount_attr(struct call *c, unsigned long p, unsigned long size)
{
	struct mount_attr a;
	struct fmt *f = c->f;

	if (size < MOUNT_ATTR_SIZE_VER0) {
		p_ptr(f, p);
		return;
	}
	if (fetch(f, c->s, &a, p, sizeof(a)))
		return;
	fmt_str(f, "{attr_set=");
	p_flags_unknown(f, a.attr_set, &xl_mount_attr, "MOUNT_ATTR_???");
	fmt_str(f, ", attr_clr=");
	p_flags_unknown(f, a.attr_clr, &xl_mount_attr, "MOUNT_ATTR_???");
	fmt_str(f, ", propagation=");
	p_xlat(f, a.propagation, &xl_mount_propagation, "MS_???");
	/* a descriptor only when an idmap mount uses it */
	if (a.userns_fd > 0x7fffffff ||
	    !((a.attr_set | a.attr_clr) & MOUNT_ATTR_IDMAP)) {
		f_udec(f, ", userns_fd=", a.userns_fd);
	} else {
		f_dec(f, ", userns_fd=", (long)a.userns_fd);
		p_fdpath(f, c->s, (int)a.userns_fd);
	}
	p_nonzero_tail(f, c->s, p, sizeof(a), size < 4096 ? size : 4096,
		       ", ");
	fmt_chr(f, '}');
}

static void d_mount_setattr(struct call *c)
{
	at_path_flags(c, &xl_mount_setattr_flags, "AT_???");
	a_sep(c);
	p_mount_attr(c, c->s->args[3], c->s->args[4]);
	a_udec(c, c->s->args[4]);
}

const struct decoder dec_mount[] = {
	{ "mount", d_mount, 0, 0 },
	{ "fsopen", d_fsopen, 0, 0 },
	{ "fsconfig", d_fsconfig, 0, 0 },
	{ "fsmount", d_fsmount, 0, 0 },
	{ "fspick", d_fspick, 0, 0 },
	{ "open_tree", d_open_tree, 0, 0 },
	{ "move_mount", d_move_mount, 0, 0 },
	{ "mount_setattr", d_mount_setattr, 0, 0 },
	{ 0, 0, 0, 0 },
};
