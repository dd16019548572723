#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Each behaviour program runs natively and under sysgate with every hook
# active (count, so every site is patched and every call dispatched; and
# trace to a file; started by the loader; every site patched with no hook;
# and with every other mechanism that `sysgate --list-mechanisms` says
# works here); stdout and exit status must be identical.  Mechanisms that
# cannot work here are one skipped test, with their reasons (the zeropage
# suite runs these programs under -m zeropage in a window where it can).
[ "$ARCH" = x86_64 ] || exit 0
mechs=$("$BUILD/sysgate" --list-mechanisms) || exit 1
avail=$(awk '$1 != "patch" && $2 == "available" { print $1 }' <<<"$mechs")
missing=$(awk '$2 != "available" { $2 = ""; print }' <<<"$mechs" | tr -s ' ' | paste -sd ';')
[ -z "$missing" ] ||
	printf 'other-mechanisms\techo %q; exit 77\n' "not available here: $missing"
for src in tests/behave/*.c; do
	t=$(basename "$src" .c)
	printf '%s/count\tbash tests/behave/compare.sh %s -c -o /dev/null\n' "$t" "$t"
	printf '%s/trace\tbash tests/behave/compare.sh %s -f -o %s/test-logs/%s.trace\n' \
		"$t" "$t" "$BUILD" "$t"
	# The trace hook's time zone was once libc's localtime_r, which
	# started the program's heap when the hook runs in its libc.
	[ "$t" = heap-at-start ] &&
		printf '%s/trace-preload\tbash tests/behave/compare.sh %s --preload -f -o /dev/null\n' \
			"$t" "$t"
	printf '%s/loader\tbash tests/behave/compare.sh %s --loader -f -c -o /dev/null\n' \
		"$t" "$t"
	# Every object planned at start (the default plans each site at
	# its first trap where SUD exists).
	printf '%s/eager\tbash tests/behave/compare.sh %s --eager -f -c -o /dev/null\n' \
		"$t" "$t"
	# Every site patched with no hook at all: the stubs' bare path.
	printf '%s/patch-all\tbash tests/behave/compare.sh %s --patch-all -e trace=none\n' \
		"$t" "$t"
	for m in $avail; do
		# preload cannot see a raw clone: a thread made that way without
		# TLS of its own is indistinguishable from its creator (README);
		# and a child of libc's syscall() wrapper returns on its
		# parent's stack, not on the one it was given.
		case $m/$t in preload/clone3|preload/clone-page-stack|preload/clone-bad-stack) continue ;; esac
		# -m preload is LD_PRELOAD: the program sees it (README), and
		# it misses libc's internal execve: an unfollowed child is a
		# sysgate of its own, whose new descriptor sits at the limit;
		# and the calls libc makes inside fstat, readdir.
		case $m/$t in preload/env-visible|preload/fd-lowered-limit|preload/fd-probe|preload/fork-first-trap) continue ;; esac
		# Under -m ptrace the command is the program's tracer: its
		# PTRACE_TRACEME fails, as under strace.
		case $m/$t in ptrace/traceme) continue ;; esac
		printf '%s/%s\tbash tests/behave/compare.sh %s -m %s -c -o /dev/null\n' \
			"$t" "$m" "$t" "$m"
	done
done
# The caller of clone, clone3 or vfork gets the record its enter() got in
# exit() (tests/hooks/samerec.c): by default, and where a trap's handler
# catches the call (raw-clone-nocfi: code no patch covers).
# (A --hook library is LD_PRELOADed, and uses libc's heap: the programs
# that look for those see them.)
for src in tests/behave/*.c; do
	t=$(basename "$src" .c)
	case $t in env-visible|heap-at-start) continue ;; esac
	printf '%s/same-record\tbash tests/behave/compare.sh %s -e trace=none -o /dev/null --hook=%s/tests/hooks/samerec.so\n' \
		"$t" "$t" "$BUILD"
done
for t in vfork-signals threads raw-clone-nocfi; do
	for m in sud int3; do
		grep -qx "$m" <<<"$avail" || continue
		printf '%s/same-record-%s\tbash tests/behave/compare.sh %s -m %s -e trace=none -o /dev/null --hook=%s/tests/hooks/samerec.so\n' \
			"$t" "$m" "$t" "$m" "$BUILD"
	done
done
# Every thread and child is followed, however it was made (raw clone and
# vfork from code no patch covers, as in Go's runtime): the same counts as
# strace -f.
for o in count:"" loader:--loader int3:"-m int3" sud:"-m sud" seccomp:"-m seccomp"; do
	printf 'raw-clone-nocfi/strace-%s\tbash tests/behave/counts.sh raw-clone-nocfi clone,vfork,readlinkat,rt_sigprocmask,write %s\n' \
		"${o%%:*}" "${o#*:}"
done
# A vDSO fallback call, planned at its first trap, is counted from the
# first one on.
for o in count:"" loader:--loader eager:--eager; do
	printf 'vdso-fallback/strace-%s\tbash tests/behave/counts.sh vdso-fallback clock_gettime %s\n' \
		"${o%%:*}" "${o#*:}"
done
# The same programs built against musl (dynamic: ld-musl as interpreter;
# static), started the way each mechanism starts a program of another C
# library (clone3, clone-bad-stack and own-seccomp* are not built for
# musl).
for src in tests/behave/*.c; do
	t=$(basename "$src" .c)
	case $t in clone3|clone-bad-stack|own-seccomp*) continue ;; esac
	for lib in musl musl-static; do
		for o in '-c' '--loader -f -c' '-m int3 -c' '-m sud -c' \
			 '-m seccomp -c' '-m ptrace -c'; do
			n=$(echo "$o" | sed -E 's/^-m //; s/^--//; s/ .*//')
			[ "$n" = -c ] && n=count
			[ "$n/$t" = ptrace/traceme ] && continue
			printf '%s/%s/%s\tbash tests/behave/compare.sh %s/%s %s -o /dev/null\n' \
				"$lib" "$t" "$n" "$lib" "$t" "$o"
		done
	done
done
