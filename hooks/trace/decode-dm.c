/* SPDX-License-Identifier: MIT */
/*
 * Device mapper's ioctls as strace 6.1 prints them: [{header}, ...],
 * the header's fields each command uses (its device by number, name or
 * UUID where set; the counts the kernel fills at exit, on success), and
 * "..." where a payload follows, which -v shows: the target
 * specifications a table load gives, a target's message, a new name or
 * geometry (not yet those the kernel returns: the list of devices,
 * dependencies, versions, a table's status).
 */
#include <stddef.h>
#include <linux/ioctl.h>
#include <linux/dm-ioctl.h>
#include "trace.h"

/* Commands whose header has data_start: those with a payload */
static int dm_has_params(unsigned int req)
{
	return req != DM_VERSION && req != DM_REMOVE_ALL &&
	       req != DM_DEV_CREATE && req != DM_DEV_REMOVE &&
	       req != DM_DEV_SUSPEND && req != DM_DEV_STATUS &&
	       req != DM_TABLE_CLEAR && req != DM_DEV_ARM_POLL;
}

/* The device, and the counts: given at entry, filled at exit */
static void p_dm_values(struct call *c, unsigned int req,
			const struct dm_ioctl *d)
{
	struct fmt *f = c->f;

	if (req != DM_REMOVE_ALL && req != DM_LIST_DEVICES &&
	    req != DM_LIST_VERSIONS) {
		if (d->dev) {
			fmt_str(f, ", dev=");
			p_dev(f, d->dev);
		}
		if (d->name[0]) {
			fmt_str(f, ", name=");
			p_cstring(f, d->name, sizeof(d->name));
		}
		if (d->uuid[0]) {
			fmt_str(f, ", uuid=");
			p_cstring(f, d->uuid, sizeof(d->uuid));
		}
	}
	if (req == DM_TABLE_LOAD)
		f_udec(f, ", target_count=", d->target_count);
	else if (req == DM_DEV_RENAME || req == DM_DEV_REMOVE ||
		 req == DM_DEV_WAIT ||
		 (req == DM_DEV_SUSPEND && !(d->flags & DM_SUSPEND_FLAG)))
		f_udec(f, ", event_nr=", d->event_nr);
}

/* ", ...": a payload strace shows (under -v) and sysgate does not */
static int dm_payload(struct call *c, unsigned int req,
		      const struct dm_ioctl *d)
{
	switch (req) {
	case DM_TABLE_LOAD:
		return d->target_count != 0;
	case DM_TARGET_MSG:
		return d->data_start != d->data_size ||
		       (c_ok(c) && (d->flags & DM_DATA_OUT_FLAG));
	case DM_DEV_RENAME: case DM_DEV_SET_GEOMETRY:
		return 1;
	case DM_DEV_WAIT: case DM_TABLE_STATUS:
		return c_ok(c) && d->target_count;
	}
	return 0;
}

#define MISPLACED(what) "??? /* misplaced " what " */"

/* DM_TABLE_LOAD's target specifications, each at the previous one's
 * next (p: the header's address) */
static void p_dm_targets(struct call *c, unsigned long p,
			 const struct dm_ioctl *d)
{
	unsigned long off = d->data_start, end = 0, i;
	struct fmt *f = c->f;

	for (i = 0; i < d->target_count; i++) {
		struct dm_target_spec t;

		fmt_str(f, ", ");
		if ((i && off <= end) ||
		    (end = off + sizeof(t)) > d->data_size) {
			fmt_str(f, MISPLACED("struct dm_target_spec"));
			return;
		}
		if (i >= (unsigned long)trace_strsize) {
			fmt_str(f, "...");
			return;
		}
		if (fetch(f, c->s, &t, p + off, sizeof(t)))
			return;
		f_udec(f, "{sector_start=", t.sector_start);
		f_udec(f, ", length=", t.length);
		fmt_str(f, ", target_type=");
		p_cstring(f, t.target_type, sizeof(t.target_type));
		fmt_str(f, ", string=");
		p_str_max(f, c->s, p + end, d->data_size - end);
		fmt_chr(f, '}');
		off += t.next;
	}
}

/* DM_TARGET_MSG's sector and message */
static void p_dm_msg(struct call *c, unsigned long p,
		     const struct dm_ioctl *d)
{
	unsigned long off = d->data_start,
		      end = off + offsetof(struct dm_target_msg, message);
	unsigned long long sector;
	struct fmt *f = c->f;

	fmt_str(f, ", ");
	if (end <= off || end > d->data_size) {
		fmt_str(f, MISPLACED("struct dm_target_msg"));
		return;
	}
	if (fetch(f, c->s, &sector, p + off, sizeof(sector)))
		return;
	f_udec(f, "{sector=", sector);
	fmt_str(f, ", message=");
	p_str_max(f, c->s, p + end, d->data_size - end);
	fmt_chr(f, '}');
}

/* A new name or geometry */
static void p_dm_string(struct call *c, unsigned long p,
			const struct dm_ioctl *d)
{
	fmt_str(c->f, ", ");
	if (d->data_start > d->data_size) {
		fmt_str(c->f, MISPLACED("string"));
		return;
	}
	fmt_str(c->f, "{string=");
	p_str_max(c->f, c->s, p + d->data_start,
		  d->data_size - d->data_start);
	fmt_chr(c->f, '}');
}

/* The payload of what the call gives, under -v */
static int p_dm_given(struct call *c, unsigned int req, unsigned long p,
		      const struct dm_ioctl *d)
{
	if (!trace_whole(c->s))
		return 0;
	if (req == DM_TABLE_LOAD)
		p_dm_targets(c, p, d);
	else if (req == DM_TARGET_MSG && d->data_start != d->data_size)
		p_dm_msg(c, p, d);
	else if (req == DM_DEV_RENAME || req == DM_DEV_SET_GEOMETRY)
		p_dm_string(c, p, d);
	else
		return 0;
	return 1;
}

int ioctl_dm(struct call *c, unsigned int req, unsigned long arg)
{
	const char *nm = xlat_name(&xl_ioctl_dm, req);
	struct dm_ioctl d;
	struct fmt *f = c->f;

	if (!nm)
		return 0;
	p_named(f, nm, req, 'x');
	a_sep(c);
	if (trace_read(c->s, &d, (void *)arg, offsetof(struct dm_ioctl, data)) !=
		    (long)offsetof(struct dm_ioctl, data) ||
	    d.data_size < offsetof(struct dm_ioctl, data_size)) {
		p_hex(f, arg);
		return 1;
	}
	fmt_str(f, "[");
	f_udec(f, "{version=[", d.version[0]);
	f_udec(f, ", ", d.version[1]);
	f_udec(f, ", ", d.version[2]);
	fmt_chr(f, ']');
	if (d.version[0] != DM_VERSION_MAJOR) {
		fmt_str(f, " /* unsupported device mapper ABI version */}]");
		return 1;
	}
	f_udec(f, ", data_size=", d.data_size);
	if (d.data_size < offsetof(struct dm_ioctl, data)) {
		fmt_str(f, " /* data_size too small */}]");
		return 1;
	}
	if (dm_has_params(req))
		f_udec(f, ", data_start=", d.data_start);
	p_dm_values(c, req, &d);
	if (c_ok(c) && req != DM_VERSION && req != DM_REMOVE_ALL &&
	    req != DM_LIST_DEVICES && req != DM_LIST_VERSIONS &&
	    req != DM_DEV_REMOVE && req != DM_DEV_ARM_POLL &&
	    req != DM_DEV_SET_GEOMETRY && req != DM_GET_TARGET_VERSION) {
		f_udec(f, ", target_count=", d.target_count);
		f_udec(f, ", open_count=", d.open_count);
		f_udec(f, ", event_nr=", d.event_nr);
	}
	fmt_str(f, ", flags=");
	p_flags(f, d.flags, &xl_dm_flags, 0);
	fmt_chr(f, '}');
	if (!p_dm_given(c, req, arg, &d) && dm_payload(c, req, &d))
		fmt_str(f, ", ...");
	fmt_chr(f, ']');
	return 1;
}
