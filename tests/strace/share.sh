#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# share.sh: the share of strace's lines sysgate prints identically, per
# corpus program, as a Markdown table (for README and doc/).  Run from
# the top directory after `make check`'s build (BUILD=build by default).
export BUILD=${BUILD:-build}
echo "| program | identical lines |"
echo "|---|---|"
same=0 total=0
for c in tests/strace/*.c; do
	n=$(basename "$c" .c)
	# (a program run with options of its own in list.sh -- events
	# leaves out the calls whose count depends on timing -- with them)
	set -f
	opts=($(sed -n "s/^$n $n //p" tests/strace/list.sh))
	set +f
	r=$(bash tests/strace/run.sh "$n" "${opts[@]}" --quiet | tail -1)
	printf '| %s | %s |\n' "$n" "${r#identical }"
	m=$(echo "$r" | sed -n 's|^identical \([0-9]*\)/\([0-9]*\).*|\1 \2|p')
	set -- $m
	same=$((same + ${1:-0})) total=$((total + ${2:-0}))
done
[ "$total" -gt 0 ] &&
	printf '| all | %d/%d (%d%%) |\n' $same $total $((100 * same / total))
