#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bypass (sysgate --bypass) against the kernel: every byte a program
# reads, with other processes writing and truncating the file, on tmpfs and
# on the disk the build lives on; the hot-site report.
[ "$ARCH" = x86_64 ] || exit 0
for c in pread read dup fork exec writer truncate truncate-race grow badbuf ids; do
	printf '%s/shm\tbash tests/bypass/compare.sh %s /dev/shm --bypass\n' "$c" "$c"
	printf '%s/disk\tbash tests/bypass/compare.sh %s %s --bypass\n' "$c" "$c" "$BUILD"
done
printf 'ids/uname\tbash tests/bypass/compare.sh ids /dev/shm --bypass=all\n'
printf 'fork/sud\tbash tests/bypass/compare.sh fork /dev/shm --bypass -m sud\n'
printf 'hot/json\tbash tests/bypass/hot.sh /dev/shm\n'
printf 'hot/text\tbash tests/bypass/hot.sh /dev/shm text\n'
for c in wlog wlog-error; do
	printf '%s/shm\tbash tests/bypass/compare.sh %s /dev/shm --bypass=wlog\n' "$c" "$c"
	printf '%s/disk\tbash tests/bypass/compare.sh %s %s --bypass=wlog\n' "$c" "$c" "$BUILD"
done
printf 'bad-options\tbash tests/bypass/badopts.sh\n'
