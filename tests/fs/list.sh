#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The --fs file system: C programs that print each call's result, run on a
# real directory and under --fs (compare.sh), or under --fs alone where
# the kernel has no answer to compare with (alone.sh); real tools,
# durability and bad input (tools.sh); trees copied in by tools, with
# the host checked untouched (host.sh).
[ "$ARCH" = x86_64 ] || exit 0
for src in tests/fs/*.c; do
	t=$(basename "$src" .c)
	run=compare
	head -n 2 "$src" | grep -q 'under --fs only' && run=alone
	printf '%s\tbash tests/fs/%s.sh %s\n' "$t" "$run" "$t"
	# The file system's hook keeps thread-local state: under the
	# loader (here through -m seccomp) that is sysgate's own TLS.
	[ $run = compare ] &&
		printf '%s/seccomp\tbash tests/fs/compare.sh %s -m seccomp\n' "$t" "$t"
done
# Tools that copy a tree into the prefix, as root and as nobody: the
# result as natively, the host untouched (host.sh).
for t in tar cp install copytree chmod rsync; do
	for who in root user; do
		printf 'host-%s/%s\tbash tests/fs/host.sh %s %s\n' "$t" "$who" "$t" "$who"
	done
done
for t in $(sed -n 's/^t_\([a-z0-9_]*\)().*/\1/p' tests/fs/tools.sh); do
	printf '%s\tbash tests/fs/tools.sh %s\n' "${t//_/-}" "$t"
done
# A BACKING image as hostile input: ownership, and random corruption.
for t in owner fuzz; do
	printf 'image-%s\tbash tests/fs/image.sh %s\n' "$t" "$t"
done
