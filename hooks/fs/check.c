/* SPDX-License-Identifier: MIT */
/*
 * A reloaded image (BACKING/sysgate-fs.img) is input, not state: before a
 * run trusts one, every index the store follows is checked against the
 * table it indexes, every chain is walked with a bound (a cycle would
 * hang a lookup), and the tables must sit where this version lays them
 * out.  A bad image is refused at start-up with one line, as the kernel
 * refuses to mount a corrupt file system; nothing in it is ever followed
 * blindly.  Only the store's own invariants are checked, not that the
 * tree makes sense as a whole (a directory's entry counts, link counts):
 * a wrong count gives wrong answers, never a stray access.
 *
 * Called with the arena mapped, before recover() and before any other
 * code looks at it.
 */
#include "fs.h"

#define BAD(msg) do { *why = (msg); return -1; } while (0)

static int walk(unsigned int head, unsigned int lo, unsigned int hi,
		unsigned int (*next)(unsigned int), unsigned long bound)
{
	unsigned int i = head;
	unsigned long steps = 0;

	while (i) {
		if (i < lo || i >= hi || ++steps > bound)
			return -1;
		i = next(i);
	}
	return 0;
}

static unsigned int inode_next_free(unsigned int i)
{
	return fs_ino(i)->parent;
}

static unsigned int dent_next_free(unsigned int i)
{
	return fs_dent(i)->hnext;
}

static unsigned int block_next_free(unsigned int b)
{
	return *(unsigned int *)fs_block(b);
}

static unsigned int dent_hash_next(unsigned int i)
{
	return fs_dent(i)->hnext;
}

static unsigned int dent_dir_next(unsigned int i)
{
	return fs_dent(i)->next;
}

static int block_ok(unsigned int b)
{
	return b < fs_ar.sb->block_next;	/* 0: a hole */
}

/* A map block: every block number in it. */
static int map_ok(unsigned int b)
{
	const unsigned int *m = (const unsigned int *)fs_block(b);

	for (unsigned int k = 0; k < FS_PER_BLOCK; k++)
		if (!block_ok(m[k]))
			return 0;
	return 1;
}

static int inode_ok(unsigned int i, const char **why)
{
	const struct fs_super *sb = fs_ar.sb;
	const struct fs_inode *n = fs_ino(i);
	unsigned int k;

	if (n->mode & ~0177777u)
		BAD("an inode has an impossible mode");
	for (k = 0; k < FS_NDIRECT; k++)
		if (!block_ok(n->blk[k]))
			BAD("an inode names a block beyond the data area");
	if (!block_ok(n->ind) || !block_ok(n->dind) ||
	    (n->ind && !map_ok(n->ind)))
		BAD("an inode's block map names a block beyond the data area");
	if (n->dind) {
		const unsigned int *l1 = (const unsigned int *)fs_block(n->dind);

		if (!map_ok(n->dind))
			BAD("an inode's block map names a block beyond the "
			    "data area");
		for (k = 0; k < FS_PER_BLOCK; k++)
			if (l1[k] && !map_ok(l1[k]))
				BAD("an inode's block map names a block "
				    "beyond the data area");
	}
	if (n->size > (FS_NDIRECT + FS_PER_BLOCK +
		       (unsigned long)FS_PER_BLOCK * FS_PER_BLOCK) * FS_BLOCK)
		BAD("a file is larger than the store can hold");
	if (!fs_is_dir(n))
		return 0;
	if (n->parent >= sb->inode_next || !n->parent ||
	    n->head >= sb->dent_next || n->tail >= sb->dent_next ||
	    (n->dent && n->dent >= sb->dent_next))
		BAD("a directory names an entry or parent out of range");
	if (walk(n->head, 1, sb->dent_next, dent_dir_next, sb->ndents) < 0)
		BAD("a directory's entry list runs out of range or in a "
		    "circle");
	return 0;
}

static int dent_ok(unsigned int i, const char **why)
{
	const struct fs_super *sb = fs_ar.sb;
	const struct fs_dent *d = fs_dent(i);

	if (!d->ino)
		return 0;
	if (d->ino >= sb->inode_next || !fs_ino(d->ino)->mode ||
	    d->dir >= sb->inode_next || !fs_is_dir(fs_ino(d->dir)))
		BAD("an entry names a free inode or a directory that is not "
		    "one");
	if (d->namelen == 0 || d->namelen > FS_NAME_MAX ||
	    d->name[d->namelen] != 0)
		BAD("an entry's name has a bad length");
	if (d->hnext >= sb->dent_next || d->next >= sb->dent_next ||
	    d->prev >= sb->dent_next)
		BAD("an entry links to one out of range");
	return 0;
}

int fs_check_image(unsigned long file_size, const char **why)
{
	const struct fs_super *sb = fs_ar.sb;
	const unsigned int *hash;
	unsigned int i;

	/* The header: counters within their tables, tables where this
	 * version puts them (fs_layout_matches), inside the file. */
	if (!fs_layout_matches(sb) || sb->arena_size > file_size)
		BAD("its tables are not where this version lays them out");
	if (sb->inode_next < FS_ROOT + 1 || sb->inode_next > sb->ninodes ||
	    sb->dent_next < 1 || sb->dent_next > sb->ndents ||
	    sb->block_next < 1 || sb->block_next > sb->nblocks ||
	    sb->reserved > sb->nblocks || sb->used > sb->nblocks ||
	    sb->block_next > 0xffffffffUL)
		BAD("a counter in its header is out of range");
	if (walk(sb->inode_free, FS_ROOT + 1, sb->inode_next, inode_next_free,
		 sb->ninodes) < 0 ||
	    walk(sb->dent_free, 1, sb->dent_next, dent_next_free,
		 sb->ndents) < 0 ||
	    walk((unsigned int)sb->block_free, 1, sb->block_next,
		 block_next_free, sb->nblocks) < 0 ||
	    sb->block_free > 0xffffffffUL)
		BAD("a free list runs out of range or in a circle");
	if (!fs_is_dir(fs_ino(FS_ROOT)))
		BAD("its root is not a directory");
	for (i = FS_ROOT; i < sb->inode_next; i++)
		if (fs_ino(i)->mode && inode_ok(i, why) < 0)
			return -1;
	for (i = 1; i < sb->dent_next; i++)
		if (dent_ok(i, why) < 0)
			return -1;
	hash = (const unsigned int *)(fs_ar.base + sb->off_hash);
	for (i = 0; i < sb->nhash; i++)
		if (walk(hash[i], 1, sb->dent_next, dent_hash_next,
			 sb->ndents) < 0)
			BAD("a name hash chain runs out of range or in a "
			    "circle");
	return 0;
}
