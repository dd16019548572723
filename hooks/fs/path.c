/* SPDX-License-Identifier: MIT */
/*
 * Paths: which file system a program's path names, and what it names in
 * ours.  The kernel's part of a path is followed as text (its directory
 * for relative paths is the tracked working directory); once the text
 * reaches the prefix, the walk continues through our directories, where
 * ".." is the parent inode, a component after a non-directory is ENOTDIR
 * and a missing one is ENOENT, as the kernel would say.  A path that
 * enters ours and leaves it again through ".." is handed to the kernel
 * as the text it reached, since the kernel cannot walk through ours.
 * Call with the arena lock held.
 */
#include <linux/errno.h>
#include "fs.h"
#include "../lib/fmt.h"

char fs_prefix[FS_PATH_MAX];
unsigned int fs_prefix_len;

static int is_dot(const char *c, unsigned int n)
{
	return n == 1 && c[0] == '.';
}

static int is_dotdot(const char *c, unsigned int n)
{
	return n == 2 && c[0] == '.' && c[1] == '.';
}

/* Back to the kernel's text at the prefix's parent directory. */
static unsigned long leave(char *t)
{
	unsigned long n = fs_prefix_len;

	hk_memcpy(t, fs_prefix, n);
	while (n && t[n - 1] != '/')
		n--;
	return n ? n - 1 : 0;
}

void fs_resolve(struct fs_path *p, unsigned int start, const char *realdir)
{
	const char *s = p->buf;
	char *t = p->real;
	unsigned long tl = 0;
	unsigned int cur = start;
	int virt = start != 0, missing = 0;

	p->virt = 0;
	p->rewrite = start != 0;
	p->err = 0;
	p->dir = 0;
	p->ino = 0;
	p->name = 0;
	p->namelen = 0;
	p->dot = 0;
	p->slash = s[0] && s[hk_strlen(s) - 1] == '/';
	if (*s == '/') {
		virt = 0;
		cur = 0;
	} else if (!virt) {
		tl = hk_strlen(realdir);
		if (tl >= FS_PATH_MAX)
			return;
		hk_memcpy(t, realdir, tl);
		if (tl == 1)
			tl = 0;	/* "/" */
	}
	while (*s) {
		const char *c;
		unsigned int n;
		struct fs_inode *d;

		while (*s == '/')
			s++;
		if (!*s)
			break;
		c = s;
		while (*s && *s != '/')
			s++;
		n = s - c;
		if (!virt) {
			if (is_dot(c, n))
				continue;
			if (is_dotdot(c, n)) {
				while (tl && t[tl - 1] != '/')
					tl--;
				if (tl)
					tl--;
				continue;
			}
			if (tl + 1 + n >= FS_PATH_MAX)
				return;	/* the kernel says ENAMETOOLONG */
			t[tl++] = '/';
			hk_memcpy(t + tl, c, n);
			tl += n;
			if (tl == fs_prefix_len &&
			    !hk_strncmp(t, fs_prefix, tl)) {
				virt = 1;
				p->rewrite = 1;
				cur = FS_ROOT;
				p->dir = 0;
				p->name = c;
				p->namelen = n;
				p->dot = 0;
			}
			continue;
		}
		if (missing) {
			p->err = -ENOENT;
			goto out;
		}
		d = fs_ino(cur);
		if (!fs_is_dir(d)) {
			p->err = -ENOTDIR;
			goto out;
		}
		p->name = c;
		p->namelen = n;
		p->dot = is_dot(c, n) || is_dotdot(c, n);
		if (is_dot(c, n)) {
			p->dir = cur;
			continue;
		}
		if (is_dotdot(c, n)) {
			if (cur == FS_ROOT) {
				virt = 0;
				tl = leave(t);
				continue;
			}
			p->dir = cur;
			cur = d->parent;
			continue;
		}
		if (n > FS_NAME_MAX) {
			p->err = -ENAMETOOLONG;
			goto out;
		}
		p->dir = cur;
		cur = fs_lookup(cur, c, n);
		if (!cur)
			missing = 1;
	}
	if (!virt) {
		if (!tl)
			t[tl++] = '/';
		if (p->slash && t[tl - 1] != '/')
			t[tl++] = '/';
		t[tl] = 0;
		return;
	}
	if (cur && p->slash && !fs_is_dir(fs_ino(cur)))
		p->err = -ENOTDIR;
out:
	p->virt = 1;
	p->ino = missing ? 0 : cur;
}

long fs_dir_path(unsigned int ino, char *buf, unsigned long size)
{
	unsigned long n = size - 1;
	unsigned int depth = 0;

	buf[n] = 0;
	while (ino != FS_ROOT) {
		struct fs_inode *d = fs_ino(ino);
		struct fs_dent *e = fs_dent(d->dent);

		if (!fs_is_dir(d) || !d->nlink || !d->dent ||
		    ++depth > FS_PATH_MAX / 2)
			return -ENOENT;
		if (n < e->namelen + 1 + fs_prefix_len)
			return -ENAMETOOLONG;
		n -= e->namelen;
		hk_memcpy(buf + n, e->name, e->namelen);
		buf[--n] = '/';
		ino = d->parent;
	}
	if (n < fs_prefix_len)
		return -ENAMETOOLONG;
	n -= fs_prefix_len;
	hk_memcpy(buf + n, fs_prefix, fs_prefix_len);
	size -= n;	/* moving left: a forward copy is safe */
	hk_memcpy(buf, buf + n, size);
	return size - 1;
}
