/* SPDX-License-Identifier: MIT */
/*
 * A vfork child shares its parent's memory but not its signal actions: a
 * handler it resets (as glibc's posix_spawn does for every handled
 * signal, and system() for SIGINT/SIGQUIT) stays set in the parent.
 * Checked after a plain vfork, posix_spawn and system(), with the
 * parent's handler both read back and run by a signal.
 */
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include "../lib/util.h"

extern char **environ;

static volatile int got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

/* The parent's handler is still its own, and still runs. */
static void check(const char *after)
{
	struct sigaction old;
	int before = got;

	test_assert(sigaction(SIGUSR1, 0, &old) == 0);
	test_assert(old.sa_handler == on_usr1);
	test_assert(sigaction(SIGINT, 0, &old) == 0);
	test_assert(old.sa_handler == on_usr1);
	test_assert(kill(getpid(), SIGUSR1) == 0);
	test_assert(got == before + 1);
	atomic_printf("%s: handlers kept\n", after);
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	char *argv[] = { "true", 0 };
	int i, st;
	pid_t p;

	test_assert(sigaction(SIGUSR1, &sa, 0) == 0);
	test_assert(sigaction(SIGINT, &sa, 0) == 0);

	for (i = 0; i < 3; i++) {
		p = vfork();
		if (p == 0) {
			/* The child's own view changes... */
			struct sigaction old;

			signal(SIGUSR1, SIG_DFL);
			signal(SIGINT, SIG_IGN);
			if (sigaction(SIGUSR1, 0, &old) != 0 ||
			    old.sa_handler != SIG_DFL)
				_exit(3);
			_exit(0);
		}
		test_assert(p > 0);
		test_assert(waitpid(p, &st, 0) == p);
		test_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	check("vfork child resets SIGUSR1");

	/* posix_spawn resets every handled signal in its child. */
	for (i = 0; i < 3; i++) {
		test_assert(posix_spawn(&p, "/bin/true", 0, 0, argv,
					environ) == 0);
		test_assert(waitpid(p, &st, 0) == p);
		test_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	check("posix_spawn");

	/* With a signal the child resets by mask, too. */
	{
		posix_spawnattr_t at;
		sigset_t def;

		sigemptyset(&def);
		sigaddset(&def, SIGUSR1);
		sigaddset(&def, SIGINT);
		test_assert(posix_spawnattr_init(&at) == 0);
		test_assert(posix_spawnattr_setsigdefault(&at, &def) == 0);
		test_assert(posix_spawnattr_setflags(&at,
						     POSIX_SPAWN_SETSIGDEF) == 0);
		test_assert(posix_spawn(&p, "/bin/true", 0, &at, argv,
					environ) == 0);
		test_assert(waitpid(p, &st, 0) == p);
		test_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		posix_spawnattr_destroy(&at);
	}
	check("posix_spawn with SETSIGDEF");

	/* system() sets SIGINT aside in the parent and back after. */
	st = system("exit 3");
	test_assert(WIFEXITED(st) && WEXITSTATUS(st) == 3);
	check("system()");

	atomic_puts("EXIT-SUCCESS");
	return 0;
}
