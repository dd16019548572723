#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Real JIT runtimes (LuaJIT, node, Java) natively and under sysgate: the
# same output, code really compiled, children followed, injection seen.
[ "$ARCH" = x86_64 ] || exit 0
for rt in luajit node java; do
	for mode in count trace inject loader sud seccomp; do
		printf '%s/%s\tbash tests/jit/compare.sh %s %s\n' "$rt" "$mode" "$rt" "$mode"
	done
done
