/* SPDX-License-Identifier: MIT */
/* What the benchmarks that call libcephfs directly share: libcephfs's
 * functions found with dlsym (so building them needs no Ceph package),
 * and a clock. */
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* In main(), with dl from dlopen: v = name, or exit status 1. */
#define SYM(v, name)                                                        \
	do {                                                                \
		*(void **)&v = dlsym(dl, name);                             \
		if (!v)                                                     \
			return fprintf(stderr, "no %s\n", name), 1;         \
	} while (0)

struct cm;				/* struct ceph_mount_info */
static void *dl;			/* libcephfs.so.2 */
static int (*unmount_)(struct cm *);

/* libcephfs loaded and a client made with CONF, mounted at "/"; 0 (and
 * a line said) if not. */
static inline struct cm *mount_conf(const char *conf)
{
	int (*create)(struct cm **, const char *);
	int (*read_file)(struct cm *, const char *);
	int (*mount)(struct cm *, const char *);
	struct cm *cm;

	dl = dlopen("libcephfs.so.2", RTLD_NOW);
	if (!dl)
		return fprintf(stderr, "%s\n", dlerror()), (struct cm *)0;
	*(void **)&create = dlsym(dl, "ceph_create");
	*(void **)&read_file = dlsym(dl, "ceph_conf_read_file");
	*(void **)&mount = dlsym(dl, "ceph_mount");
	*(void **)&unmount_ = dlsym(dl, "ceph_unmount");
	if (!create || !read_file || !mount || !unmount_ ||
	    create(&cm, 0) < 0 || read_file(cm, conf) < 0 || mount(cm, "/") < 0)
		return fprintf(stderr, "cannot mount\n"), (struct cm *)0;
	return cm;
}
