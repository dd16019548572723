/* SPDX-License-Identifier: MIT */
/*
 * What sg_init needs from the process (core/start.h), in the loader,
 * which has no libc: the environment and auxiliary vector the kernel put
 * on the stack, and a TLS block for sysgate's own thread-local variables.
 */
#include <elf.h>
#include "sg.h"
#include "start.h"
#include "loader.h"

/* The stack's environment array (unset variables shift the entries after
 * them, as a libc's unsetenv does), the variables set that it did not
 * have, and the auxiliary vector. */
static char **env;
static char *added[8];
static unsigned long *aux;
/* The first thread's TLS: its thread pointer. */
static unsigned long first_tp;

extern const Elf64_Ehdr __ehdr_start;

void sg_loader_start_init(char **envp, unsigned long *auxv)
{
	env = envp;
	aux = auxv;
	first_tp = sg_tls_start_static(&__ehdr_start);
}

void sg_start_thread(struct sg_thread *t)
{
	t->hook_tp = first_tp;
}

/* The entry of v for variable name, or NULL. */
static char **find(char **v, const char *name)
{
	size_t n = sg_strlen(name);

	for (; *v; v++)
		if (!sg_strncmp(*v, name, n) && (*v)[n] == '=')
			return v;
	return 0;
}

const char *sg_start_getenv(const char *name)
{
	char **v = find(env, name);

	if (!v)
		v = find(added, name);
	return v ? *v + sg_strlen(name) + 1 : 0;
}

void sg_start_unsetenv(const char *name)
{
	char **v, **w;

	while ((v = find(env, name)) || (v = find(added, name)))
		for (w = v; *w; w++)
			w[0] = w[1];
}

/* (the variables sysgate sets: short, few) */
void sg_start_setenv(const char *name, const char *value)
{
	static char pool[512];
	static size_t used;
	size_t len = sg_strlen(name) + sg_strlen(value) + 2;
	char **v = find(env, name), *s;

	if (!v)
		v = find(added, name);
	if (!v) {
		for (v = added; *v; v++)
			;
		if (v == added + ARRAY_SIZE(added) - 1)
			sg_die("too many variables set in loader mode");
	}
	if (len > sizeof(pool) - used)
		sg_die("variables too long in loader mode");
	s = pool + used;
	used += len;
	sg_strjoin(s, len, name, "=", value);
	*v = s;
}

unsigned long sg_start_auxv(unsigned long type)
{
	unsigned long *a;

	for (a = aux; a[0] != AT_NULL; a += 2)
		if (a[0] == type)
			return a[1];
	return 0;
}

/* The libsysgate.so installed beside the loader. */
const char *sg_start_library(void)
{
	static char path[4096];
	char *slash;

	if (!sg.loader_file ||
	    sg_strlcpy(path, sg.loader_file, sizeof(path) - 32) >=
		    sizeof(path) - 32)
		return "libsysgate.so";
	slash = sg_strrchr(path, '/');
	if (!slash)
		return "libsysgate.so";
	sg_strlcpy(slash + 1, "libsysgate.so", 32);
	return path;
}

/* (sg_init refuses --hook in loader mode before it gets here) */
const struct sysgate_hook *sg_start_user_hook(const char *path,
					      const char **why)
{
	(void)path;
	*why = "--hook needs the program to be started with LD_PRELOAD "
	       "(not available in loader mode)";
	return 0;
}
