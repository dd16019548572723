#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Real programs (shell pipelines, Python with threads and subprocesses, a
# compiler driving its children) natively and under sysgate -f: output and
# exit status must be identical.
[ "$ARCH" = x86_64 ] || exit 0
while IFS='|' read -r name cmd; do
	printf '%s/count\tbash tests/programs/compare.sh "%s" -f -c -o /dev/null\n' "$name" "$cmd"
	printf '%s/trace\tbash tests/programs/compare.sh "%s" -f -o $BUILD/test-logs/%s.trace\n' \
		"$name" "$cmd" "$name"
	# the other in-process mechanisms, whose children are found
	# differently (preload: libc's fork, told through pthread_atfork)
	for m in preload sud int3; do
		printf '%s/%s\tbash tests/programs/compare.sh "%s" -m %s -f -c -o /dev/null\n' \
			"$name" "$m" "$cmd" "$m"
	done
done <<'EOT'
pipeline|seq 1 5000 | sort -rn | head -3; echo done
bash-loop|bash -c 'for i in $(seq 30); do echo $i | cat; done | sort -n | tail -2'
python-threads|python3 tests/programs/threads_subprocess.py
gcc|gcc -O1 -o $TMPD/hello tests/programs/hello.c && $TMPD/hello
valgrind-none|valgrind -q --tool=none ls -a tests/programs
valgrind-memcheck|valgrind -q --tool=memcheck ls -a tests/programs
EOT
