/* SPDX-License-Identifier: MIT */
/* Landlock: rulesets' attributes by size (too small, larger than strace
 * knows), access flags known and not, the ABI version query (a number,
 * not a descriptor), rules of each type with their parent descriptor,
 * restrict_self's flags; a real ruleset when the kernel has Landlock. */
#include "corpus.h"
#include <fcntl.h>
#include <stdint.h>
#include <linux/landlock.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

int main(int argc, char **argv)
{
	struct {
		struct landlock_ruleset_attr a;
		uint64_t more;
	} big = { { LANDLOCK_ACCESS_FS_READ_FILE | 0x40000000000ULL }, 0 };
	struct landlock_ruleset_attr attr = {
		LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_DIR
	};
	struct landlock_path_beneath_attr rule = {
		LANDLOCK_ACCESS_FS_READ_DIR, -1
	};
	char *page;
	long rs;
	int dir;

	check(argc > 1 && chdir(argv[1]) == 0, "chdir");
	dir = open(".", O_RDONLY | O_DIRECTORY);
	check(dir >= 0, "open");
	/* a rule whose last bytes lie in a page that cannot be read */
	page = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(page != MAP_FAILED && munmap(page + 4096, 4096) == 0, "mmap");
	begin();
	syscall(SYS_landlock_create_ruleset, NULL, 0,
		LANDLOCK_CREATE_RULESET_VERSION);
	syscall(SYS_landlock_create_ruleset, NULL, 0, 0);
	syscall(SYS_landlock_create_ruleset, &attr, 4, 0);
	syscall(SYS_landlock_create_ruleset, &big, sizeof(big), 0);
	attr.handled_access_fs = 1ULL << 60;
	syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0xfe);
	syscall(SYS_landlock_create_ruleset, (void *)8, sizeof(attr), 3);
	syscall(SYS_landlock_add_rule, -1, 0, NULL, 0);
	syscall(SYS_landlock_add_rule, dir, 7, &rule, 1);
	syscall(SYS_landlock_add_rule, dir, LANDLOCK_RULE_PATH_BENEATH,
		page + 4096 - 8, 0);
	syscall(SYS_landlock_add_rule, dir, LANDLOCK_RULE_PATH_BENEATH,
		&rule, 0);
	attr.handled_access_fs = LANDLOCK_ACCESS_FS_READ_DIR |
				 LANDLOCK_ACCESS_FS_MAKE_REG;
	rs = syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	rule.parent_fd = dir;
	rule.allowed_access = LANDLOCK_ACCESS_FS_READ_DIR |
			      LANDLOCK_ACCESS_FS_MAKE_REG | (1ULL << 40);
	syscall(SYS_landlock_add_rule, (int)rs, LANDLOCK_RULE_PATH_BENEATH,
		&rule, 0);
	syscall(SYS_landlock_restrict_self, dir, 0);
	syscall(SYS_landlock_restrict_self, -1, 0xffffffffU);
	if (rs >= 0)
		close((int)rs);
	return 0;
}
