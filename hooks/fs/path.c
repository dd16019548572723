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
 * A symbolic link of ours puts its target in place of its name (40 at
 * most, then ELOOP): a relative target goes on from the link's directory,
 * an absolute one from "/", the kernel's or ours again.  A name in the
 * kernel's text that is a link to one of ours (/proc/self/fd/N and the
 * like, procfd.c) goes on from our file, as the kernel would follow it.
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

#define MAX_LINKS 40

/* Does another name follow (not just slashes)? */
static int more(const char *s)
{
	while (*s == '/')
		s++;
	return *s != 0;
}

/* Is a link in the component before s followed? */
static int followed(int follow, const char *s)
{
	return follow == FS_FOLLOW || (follow && *s) || more(s);
}

/* The kernel's text reached ours (the prefix, or a link to one of ours
 * in /proc) with name c: the walk goes on from inode ino. */
static unsigned int enter(struct fs_path *p, const char *c, unsigned int n,
			  unsigned int ino)
{
	p->rewrite = 1;
	p->dir = 0;
	p->name = c;
	p->namelen = n;
	p->dot = 0;
	return ino;
}

/* The link's target followed by rest, as the text still to walk. */
static int splice(struct fs_path *p, unsigned int ino, const char *rest)
{
	char tmp[FS_PATH_MAX];
	unsigned long n = fs_ino(ino)->size, r = hk_strlen(rest);

	if (n + r >= sizeof(tmp))
		return -ENAMETOOLONG;
	fs_read(0, ino, tmp, n, 0);
	hk_memcpy(tmp + n, rest, r + 1);
	hk_memcpy(p->link, tmp, n + r + 1);
	return 0;
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

void fs_resolve(struct fs_path *p, unsigned int start, const char *realdir,
		int follow)
{
	const char *s = p->buf;
	char *t = p->real;
	unsigned long tl = 0;
	unsigned int cur = start, next;
	int virt = start != 0, missing = 0, links = 0;

	p->virt = 0;
	p->rewrite = start != 0;
	p->err = 0;
	p->dir = 0;
	p->ino = 0;
	p->name = 0;
	p->namelen = 0;
	p->dot = 0;
	p->magic = FS_MAGIC_NONE;
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
			p->magic = FS_MAGIC_NONE;
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
			/* /proc/self/fd/N and the like: a link to ours that
			 * the kernel would follow to the placeholder. */
			next = fs_magic(p, t, tl, c, n);
			if (next && followed(follow, s)) {
				p->magic = FS_MAGIC_NONE;
				virt = 1;
				cur = enter(p, c, n, next);
				continue;
			}
			t[tl++] = '/';
			hk_memcpy(t + tl, c, n);
			tl += n;
			if (tl == fs_prefix_len &&
			    !hk_strncmp(t, fs_prefix, tl)) {
				virt = 1;
				cur = enter(p, c, n, FS_ROOT);
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
		next = fs_lookup(cur, c, n);
		if (next && fs_is_link(fs_ino(next)) && followed(follow, s)) {
			if (++links > MAX_LINKS ||
			    (p->err = splice(p, next, s)) < 0) {
				p->err = p->err ? p->err : -ELOOP;
				goto out;
			}
			s = p->link;
			if (*s == '/') {	/* from the top, as text */
				virt = 0;
				tl = 0;
				cur = 0;
				p->rewrite = 1;
			}
			continue;
		}
		cur = next;
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

void fs_path_ino(struct fs_path *p, unsigned int ino)
{
	p->virt = 1;
	p->rewrite = 0;
	p->err = 0;
	p->dir = 0;
	p->ino = ino;
	p->name = 0;
	p->namelen = 0;
	p->slash = 0;
	p->dot = 0;
	p->magic = FS_MAGIC_NONE;
}

int fs_names_prefix(const char *path)
{
	const char *base = fs_prefix + fs_prefix_len;
	unsigned long bl;

	while (base[-1] != '/')
		base--;
	bl = fs_prefix + fs_prefix_len - base;
	while (*path) {
		const char *c;

		while (*path == '/')
			path++;
		for (c = path; *path && *path != '/'; path++)
			;
		if ((unsigned long)(path - c) == bl && !hk_strncmp(c, base, bl))
			return 1;
	}
	return 0;
}
