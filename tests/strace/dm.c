/* SPDX-License-Identifier: MIT */
/* Device mapper's ioctls on no device: headers of each kind (a device
 * by number, name and UUID; counts; flags), an ABI version not 4, a
 * size too small, payloads that follow (... but under -v: target
 * specifications, one misplaced, a message, a new name), and a header
 * that cannot be read. */
#include "corpus.h"
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <linux/dm-ioctl.h>

int main(void)
{
	static struct {
		struct dm_ioctl h;
		char payload[200];
	} u;
	struct dm_target_spec *t = (struct dm_target_spec *)u.payload;
	struct dm_ioctl *d = &u.h;

	d->version[0] = DM_VERSION_MAJOR;
	d->version[1] = 4;
	d->version[2] = 0;
	d->data_size = sizeof(u);
	d->data_start = sizeof(*d);
	d->dev = makedev(253, 7);
	strcpy(d->name, "corpus");
	strcpy(d->uuid, "CORPUS-UUID");
	d->flags = DM_READONLY_FLAG | DM_UUID_FLAG | (1U << 30);
	begin();
	ioctl(-1, DM_VERSION, d);
	ioctl(-1, DM_LIST_DEVICES, d);
	ioctl(-1, DM_DEV_CREATE, d);
	ioctl(-1, DM_DEV_REMOVE, d);
	ioctl(-1, DM_DEV_SUSPEND, d);
	d->flags = DM_SUSPEND_FLAG;
	ioctl(-1, DM_DEV_SUSPEND, d);
	d->target_count = 2;
	t->sector_start = 0;
	t->length = 2048;
	strcpy(t->target_type, "linear");
	strcpy((char *)(t + 1), "8:1 0");
	t->next = sizeof(*t) + 8;
	t = (struct dm_target_spec *)(u.payload + sizeof(*t) + 8);
	t->sector_start = 2048;
	t->length = 10;
	strcpy(t->target_type, "zero");
	ioctl(-1, DM_TABLE_LOAD, d);
	d->target_count = 3;
	ioctl(-1, DM_TABLE_LOAD, d);
	d->target_count = 2;
	*(unsigned long long *)u.payload = 99;
	strcpy(u.payload + 8, "a message");
	ioctl(-1, DM_TARGET_MSG, d);
	ioctl(-1, DM_DEV_RENAME, d);
	d->data_start = d->data_size;
	ioctl(-1, DM_TARGET_MSG, d);
	d->data_size = 20;
	ioctl(-1, DM_TABLE_STATUS, d);
	d->version[0] = 5;
	ioctl(-1, DM_DEV_WAIT, d);
	ioctl(-1, DM_VERSION, NULL);
	return 0;
}
