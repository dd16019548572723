#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cases.sh NAME: one test of sysgate -p per function t_NAME.  Exit 0 pass,
# 77 skip (ptrace not permitted here), anything else fail.
set -u
SG=$BUILD/sysgate
LOOP=$BUILD/tests/attach/loop
TMP=$(mktemp -d /tmp/sysgate-attach.XXXXXX)
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT

fail() { echo "FAIL: $*"; exit 1; }

if [ "$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null)" = 3 ]; then
	echo "ptrace is disabled here (kernel.yama.ptrace_scope=3)"
	exit 77
fi

# wait_for REGEX FILE: until a line of FILE matches (no time limit).
wait_for() {
	until grep -Eq "$1" "$2" 2>/dev/null; do sleep 0.02; done
}

# start FILE PROG ARGS...: PROG in the background, its stdout to FILE;
# sets P once it says it is ready.
start() {
	local out=$1
	shift
	"$@" >"$out" &
	P=$!
	PIDS+=("$P")
	until grep -q '^ready' "$out"; do
		kill -0 $P 2>/dev/null || fail "$1 did not start"
		sleep 0.02
	done
}

# stop_sysgate SIG: send sysgate ($S) SIG and wait for it: it detaches,
# then dies of SIG as strace does (a status of 128 + SIG's number).
stop_sysgate() {
	local rc want=$((128 + $(kill -l "$1")))
	kill -"$1" $S
	wait $S
	rc=$?
	[ $rc = $want ] ||
		fail "sysgate exit status $rc, not $want: $(cat "$TMP/err" 2>/dev/null)"
}

# The bytes of every file-backed or vdso code mapping of process $1.
code_sum() {
	local lo hi perm off dev ino path
	while read -r range perm off dev ino path; do
		[ "${perm:2:1}" = x ] || continue
		case "$path" in /*|'[vdso]') ;; *) continue ;; esac
		case "$path" in */sysgate-attach) continue ;; esac
		lo=$((16#${range%-*}))
		hi=$((16#${range#*-}))
		echo "$path"
		dd if=/proc/$1/mem bs=4096 skip=$((lo / 4096)) \
			count=$(((hi - lo) / 4096)) 2>/dev/null | md5sum
	done </proc/$1/maps
}

# The process runs, untraced, without a live sysgate.
left_alone() {
	local st
	st=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' /proc/$1/status)
	case "$st" in t|T) fail "process $1 left stopped ($st)" ;; esac
	grep -q '^TracerPid:[[:space:]]*0$' /proc/$1/status ||
		fail "process $1 still traced: $(grep TracerPid /proc/$1/status)"
}

# The mappings of sysgate's own files and memory in process $1 (not any
# path with "sysgate" in it: a checkout may be named so).
sysgate_maps() {
	grep -E '(/libsysgate\.so[.0-9]*|/sysgate-(loader|loader\.text|attach)|memfd:sysgate-[a-z]+( \(deleted\))?)$' /proc/$1/maps
}

# No runtime left in process $1 but an inert one (first page made
# inaccessible: a thread was inside it when sysgate detached).
no_live_runtime() {
	grep -q '/sysgate-attach$' /proc/$1/maps &&
		! grep '/sysgate-attach$' /proc/$1/maps | grep -q ' ---p 00000000 ' &&
		fail "a live runtime is left in $1: $(grep sysgate-attach /proc/$1/maps)"
	return 0
}

# no_other_words FILE: sysgate said nothing but strace's attach and
# detach lines.
no_other_words() {
	local rest
	rest=$(grep -vxE 'sysgate: Process [0-9]+ (attached|detached)' "$1")
	[ -z "$rest" ] || fail "sysgate said: $rest"
}

# attach_err FILE: skip the test if sysgate said ptrace is refused here.
attach_err() {
	grep -q 'Operation not permitted' "$1" && {
		echo "ptrace not permitted here: $(head -1 "$1")"
		exit 77
	}
}

# attached PID REGEX FILE: until a line of FILE matches while sysgate PID
# runs (it prints its error and exits when it cannot attach).
attached() {
	until grep -q "$2" "$3" 2>/dev/null; do
		kill -0 $1 2>/dev/null || {
			attach_err "$TMP/err"
			fail "sysgate: $(cat "$TMP/err")"
		}
		sleep 0.02
	done
}

# attached_window PROG SYSGATE-ARGS...: PROG runs, sysgate attaches with
# SYSGATE-ARGS (which make getppid answer 4242) and detaches on SIGINT.
# The program's results change only while sysgate is there, every code
# byte is the same afterwards, sysgate said only strace's attach and
# detach lines, and the process runs on, untraced.
attached_window() {
	local prog=$1 real before after first last n S
	shift
	start "$TMP/out" "$prog" 1
	wait_for '^tick 1 ' "$TMP/out"
	real=$(sed -n 's/^tick 0 ppid=\([0-9]*\).*/\1/p' "$TMP/out")
	before=$(code_sum $P)
	"$SG" "$@" -p $P 2>"$TMP/err" &
	S=$!
	attached $S 'ppid=4242' "$TMP/out"
	stop_sysgate INT
	no_other_words "$TMP/err"
	# strace's attach and detach lines, which scripts wait for
	grep -qx "sysgate: Process $P attached" "$TMP/err" &&
		grep -qx "sysgate: Process $P detached" "$TMP/err" ||
		fail "no attach/detach lines: $(cat "$TMP/err")"
	left_alone $P
	n=$(wc -l <"$TMP/out")
	until [ "$(tail -n +$((n + 1)) "$TMP/out" | grep -c "ppid=$real ")" -ge 3 ]; do
		sleep 0.02
	done
	after=$(code_sum $P)
	[ "$before" = "$after" ] || fail "code differs after detaching:
$(diff <(echo "$before") <(echo "$after"))"
	# ticks: real ppid, then 4242 while attached, then real again
	first=$(grep -n 'ppid=4242' "$TMP/out" | head -1 | cut -d: -f1)
	last=$(grep -n 'ppid=4242' "$TMP/out" | tail -1 | cut -d: -f1)
	head -n $((first - 1)) "$TMP/out" | grep -q 'ppid=4242' && fail "?"
	sed -n "${first},${last}p" "$TMP/out" | grep -v 'ppid=4242' &&
		fail "real results while attached"
	tail -n +$((last + 1)) "$TMP/out" | grep 'ppid=' | grep -v "ppid=$real " &&
		fail "answered after detaching"
	[ "$first" -gt 2 ] || fail "no results before attaching"
	no_live_runtime $P
}

# Trace and inject while attached.
trace_detach() {
	local prog=$1
	shift
	attached_window "$prog" "$@" -e trace=getppid \
		-e inject=getppid:retval=4242 -o "$TMP/trace"
	grep -Eq '^getppid\(\) += 4242 \(INJECTED\)$' "$TMP/trace" ||
		fail "trace: $(head -3 "$TMP/trace")"
	grep -v '^getppid()' "$TMP/trace" && fail "other lines in the trace"
	return 0
}

t_trace_detach() { trace_detach "$LOOP"; }

t_static() { trace_detach "$LOOP-static"; }

# strace's way (the CLI traces every call), for comparison
t_ptrace() { trace_detach "$LOOP" -m ptrace; }

t_count_sigterm() {
	start "$TMP/out" "$LOOP" 1
	"$SG" -c -p $P -o "$TMP/count" --stats 2>"$TMP/err" &
	local S=$!
	# (--stats: the runtime's report says it has started)
	attached $S 'mechanism patch' "$TMP/count"
	local n=$(wc -l <"$TMP/out")
	until [ "$(wc -l <"$TMP/out")" -ge $((n + 5)) ]; do sleep 0.02; done
	stop_sysgate TERM
	grep -Eq ' getppid$' "$TMP/count" || fail "no getppid row: $(cat "$TMP/count")"
	grep -Eq ' clock_nanosleep$' "$TMP/count" || fail "no clock_nanosleep row"
	grep -Eq 'detached from [0-9]+: [0-9]+ places put back, 0 changed' \
		"$TMP/err" || fail "detach report: $(cat "$TMP/err")"
	left_alone $P
}

t_threads32() {
	start "$TMP/out" "$LOOP" 32
	wait_for 'spinning=31' "$TMP/out"
	[ "$(ls /proc/$P/task | wc -l)" = 32 ] || fail "not 32 threads"
	local before=$(code_sum $P)
	# (-f: every thread's calls, as strace -f -p counts them)
	"$SG" -f -c -p $P -e inject=getppid:retval=4242 --detach-after=1 \
		-o "$TMP/count" 2>"$TMP/err" || { attach_err "$TMP/err"; fail "exit status $?: $(cat "$TMP/err")"; }
	grep -q 'ppid=4242' "$TMP/out" || fail "no injected result"
	local calls=$(awk '$NF == "getppid" { print $4 }' "$TMP/count")
	[ "${calls:-0}" -gt 1000 ] || fail "getppid calls: ${calls:-none}"
	left_alone $P
	[ "$(ls /proc/$P/task | wc -l)" = 32 ] || fail "threads lost"
	for t in /proc/$P/task/*; do
		grep -q '^TracerPid:[[:space:]]*0$' $t/status || fail "$t traced"
	done
	[ "$before" = "$(code_sum $P)" ] || fail "code differs after detaching"
	local n=$(wc -l <"$TMP/out")
	until [ "$(tail -n +$((n + 1)) "$TMP/out" | grep -vc 4242)" -ge 3 ]; do
		sleep 0.02
	done
}

t_detach_inside_hook() {
	# Each getppid spends 20 ms in the inject hook: detaching finds the
	# spinning threads there.  They finish their call and run on; the
	# runtime stays mapped, inert.
	start "$TMP/out" "$LOOP" 4
	wait_for 'spinning=3' "$TMP/out"
	local before=$(code_sum $P)
	"$SG" -p $P -e trace=none -e inject=getppid:retval=4242:delay_enter=20000 \
		--stats -o "$TMP/stats" 2>"$TMP/err" &
	local S=$!
	attached $S 'ppid=4242' "$TMP/out"
	stop_sysgate INT
	grep -q 'runtime left mapped (a thread was inside)' "$TMP/err" ||
		fail "no thread inside: $(cat "$TMP/err")"
	left_alone $P
	local n=$(wc -l <"$TMP/out") c0
	until [ "$(tail -n +$((n + 1)) "$TMP/out" | grep -vc 4242)" -ge 3 ]; do
		sleep 0.02
	done
	[ "$before" = "$(code_sum $P)" ] || fail "code differs after detaching"
	# the spinning threads run on, at full speed again
	c0=$(tail -1 "$TMP/out" | sed 's/.*calls=//')
	until [ "$(tail -1 "$TMP/out" | sed 's/.*calls=//')" -gt $((c0 + 10000)) ]; do
		sleep 0.02
	done
	[ "$(ls /proc/$P/task | wc -l)" = 4 ] || fail "threads lost"
	grep '/sysgate-attach$' /proc/$P/maps | grep -q ' ---p 00000000 ' ||
		fail "no inert image: $(grep sysgate-attach /proc/$P/maps)"
}

t_reattach() {
	# A thread inside the runtime when sysgate detaches (a thread calling
	# getppid in a loop nearly always is) keeps sysgate's GS, as its call
	# returns through it; once out, the next sysgate -p attaches again.
	start "$TMP/out" "$LOOP" 2
	wait_for 'spinning=1' "$TMP/out"
	local before=$(code_sum $P) round
	for round in 1 2 3; do
		"$SG" -f -c -p $P -e inject=getppid:retval=4242 --detach-after=1 \
			-o "$TMP/count" 2>"$TMP/err" ||
			{ attach_err "$TMP/err"; fail "round $round: $(cat "$TMP/err")"; }
		awk '$NF == "getppid" { exit $4 < 1000 } END { if (!NR) exit 1 }' \
			"$TMP/count" || fail "round $round: $(cat "$TMP/count")"
		left_alone $P
	done
	[ "$before" = "$(code_sum $P)" ] || fail "code differs after detaching"
}

t_unmapped() {
	# No thread in sysgate when it detaches: the runtime goes too.
	start "$TMP/out" "$BUILD/tests/attach/spin"
	wait_for '^n ' "$TMP/out"
	local before=$(code_sum $P) n
	"$SG" -c -p $P --stats --detach-after=1 -o "$TMP/count" 2>"$TMP/err" ||
		{ attach_err "$TMP/err"; fail "exit status $?: $(cat "$TMP/err")"; }
	grep -q 'runtime unmapped' "$TMP/err" || fail "$(cat "$TMP/err")"
	grep -q 'sysgate-attach' /proc/$P/maps && fail "image still mapped"
	grep -Eq ' write$' "$TMP/count" || fail "no write row: $(cat "$TMP/count")"
	left_alone $P
	[ "$before" = "$(code_sum $P)" ] || fail "code differs after detaching"
	n=$(wc -l <"$TMP/out")
	until [ "$(wc -l <"$TMP/out")" -gt $((n + 2)) ]; do sleep 0.02; done
}

t_jit() {
	# Its calls come from code it wrote before sysgate came.
	start "$TMP/out" "$BUILD/tests/attach/jit"
	wait_for '^tick 1 ' "$TMP/out"
	"$SG" -p $P -e trace=getppid -e inject=getppid:retval=4242 \
		-o "$TMP/trace" 2>"$TMP/err" &
	local S=$! n
	attached $S 'ppid=4242' "$TMP/out"
	stop_sysgate INT
	grep -q '^getppid() *= 4242 (INJECTED)$' "$TMP/trace" || fail "trace"
	left_alone $P
	n=$(wc -l <"$TMP/out")
	until [ "$(tail -n +$((n + 1)) "$TMP/out" | grep -vc 4242)" -ge 3 ]; do
		sleep 0.02
	done
}

t_cli_killed() {
	# sysgate killed while attached: the program's next trace line goes
	# to a pipe nobody reads, which must not kill it (SIGPIPE).  It runs
	# on, still hooked (nothing could detach it).
	start "$TMP/out" "$LOOP" 1
	"$SG" -p $P -e trace=getppid -e inject=getppid:retval=4242 \
		-o "$TMP/trace" 2>"$TMP/err" &
	local S=$! n
	attached $S 'ppid=4242' "$TMP/out"
	kill -9 $S
	wait $S
	n=$(wc -l <"$TMP/out")
	until [ "$(wc -l <"$TMP/out")" -ge $((n + 5)) ]; do
		kill -0 $P 2>/dev/null || fail "the program died"
		sleep 0.02
	done
	left_alone $P
}

t_two_processes() {
	# -p A,B: both hooked at once (one dynamic, one static), both let go.
	start "$TMP/a" "$LOOP" 1
	local A=$P
	start "$TMP/b" "$LOOP-static" 1
	local B=$P
	"$SG" -p $A,$B -e trace=none -e inject=getppid:retval=4242 \
		2>"$TMP/err" &
	local S=$!
	attached $S 'ppid=4242' "$TMP/a"
	attached $S 'ppid=4242' "$TMP/b"
	stop_sysgate TERM
	left_alone $A
	left_alone $B
	for f in "$TMP/a" "$TMP/b"; do
		local n=$(wc -l <"$f")
		until [ "$(tail -n +$((n + 1)) "$f" | grep -vc 4242)" -ge 3 ]; do
			sleep 0.02
		done
	done
}

t_two_options() {
	# -p A -p B: both, as -p A,B (before, the second replaced the
	# first); each line then begins with its pid, as under -f.
	start "$TMP/a" "$LOOP" 1
	local A=$P
	start "$TMP/b" "$LOOP" 1
	local B=$P
	"$SG" -p $A -e trace=getppid -p $B -o "$TMP/trace" 2>"$TMP/err" &
	local S=$!
	wait_for "^$A +getppid\(\)" "$TMP/trace"
	wait_for "^$B +getppid\(\)" "$TMP/trace"
	stop_sysgate TERM
	grep -v "^\($A\|$B\) \+getppid() \+= " "$TMP/trace" && fail "lines without pid"
	[ "$(grep -c "^sysgate: Process \($A\|$B\) detached$" "$TMP/err")" = 2 ] ||
		fail "$(cat "$TMP/err")"
	left_alone $A
	left_alone $B
}

# start_block: tests/attach/block as P, reading the fifo fd 7 writes to.
start_block() {
	mkfifo "$TMP/in"
	"$BUILD/tests/attach/block" <"$TMP/in" >"$TMP/out" &
	P=$!
	PIDS+=("$P")
	exec 7>"$TMP/in"
	wait_for '^ready' "$TMP/out"
}

# Both of block's threads blocked: main in read, the other in nanosleep.
both_blocked() {
	until [ "$(grep -l '^State:[[:space:]]*S' /proc/$P/task/*/status | wc -l)" = 2 ]; do
		sleep 0.02
	done
}

t_blocking() {
	start_block
	both_blocked
	"$SG" -p $P -e trace=read,write --stats -o "$TMP/trace" 2>"$TMP/err" &
	local S=$!
	attached $S 'mechanism patch' "$TMP/trace"
	echo one >&7
	wait_for '^got 4 one' "$TMP/out"
	echo two >&7
	wait_for '^got 4 two' "$TMP/out"
	stop_sysgate INT
	echo three >&7
	wait_for '^got 6 three' "$TMP/out"
	exec 7>&-
	wait $P || fail "program exit status $?"
	# The read it was blocked in finished, traced, and so did the next.
	grep -q '^read(0, "one\\n", 256) *= 4$' "$TMP/trace" ||
		fail "blocked read: $(grep -v '^sysgate' "$TMP/trace")"
	grep -q '^read(0, "two\\n", 256) *= 4$' "$TMP/trace" || fail "next read"
	grep -q '^write(1, "got 4 two\\n", 10) *= 10$' "$TMP/trace" ||
		fail "write: $(grep -v '^sysgate' "$TMP/trace")"
	grep -q 'three' "$TMP/trace" && fail "traced after detaching"
	[ "$(cat "$TMP/out")" = "ready
got 4 one
got 4 two
got 6 three
eof" ] || fail "output: $(cat "$TMP/out")"
}

t_ptrace_detach_blocked() {
	# -m ptrace let go of a read that sleeps: strace's "read(0,
	# <detached ...>" (before: "= ? ERESTARTSYS"), and the read goes on
	# without sysgate.
	start_block
	"$SG" -m ptrace -p $P -e trace=read -o "$TMP/trace" 2>"$TMP/err" &
	local S=$!
	wait_for "Process $P attached" "$TMP/err"
	echo one >&7
	wait_for '^read\(0, "one' "$TMP/trace"
	both_blocked
	stop_sysgate INT
	echo three >&7
	wait_for '^got 6 three' "$TMP/out"
	exec 7>&-
	wait $P || fail "program exit status $?"
	[ "$(tail -1 "$TMP/trace")" = "read(0,  <detached ...>" ] ||
		fail "$(cat "$TMP/trace")"
}

t_exit_while_attached() {
	start "$TMP/out" "$LOOP" 1 30
	"$SG" -p $P -e trace=exit_group -o "$TMP/trace" 2>"$TMP/err" ||
		{ attach_err "$TMP/err"; fail "exit status $?: $(cat "$TMP/err")"; }
	[ "$(cat "$TMP/trace")" = "exit_group(0)                           = ?
+++ exited with 0 +++" ] || fail "trace: $(cat "$TMP/trace")"
}

t_exec_while_attached() {
	# The program runs execve while attached: the new program is not
	# followed (it could not be detached) and runs natively, and sysgate
	# ends, as nothing is left to detach.
	start "$TMP/out" "$BUILD/tests/attach/forker"
	local real=$(sed -n 's/^ready //p' "$TMP/out") n
	real=$(awk '/^PPid:/ { print $2 }' /proc/$real/status)
	"$SG" -p $P -e trace=getppid -e inject=getppid:retval=4242 \
		-o "$TMP/trace" 2>"$TMP/err" &
	local S=$!
	attached $S 'ppid=4242' "$TMP/out"
	n=$(wc -l <"$TMP/out")
	kill -USR2 $P
	# (it runs execve at its next tick: more ticks say it failed)
	until grep -q "^child $P$" "$TMP/out"; do
		[ "$(tail -n +$((n + 1)) "$TMP/out" | grep -c '^tick')" -lt 3 ] ||
			fail "execve failed while attached: $(tail -1 "$TMP/out")"
		sleep 0.02
	done
	wait $S || fail "sysgate exit status $?: $(cat "$TMP/err")"
	no_other_words "$TMP/err"
	n=$(grep -n "^child $P$" "$TMP/out" | cut -d: -f1)
	until [ "$(tail -n +$n "$TMP/out" | grep -c "^ctick .* ppid=$real$")" -ge 3 ]; do
		sleep 0.02
	done
	tail -n +$n "$TMP/out" | grep 4242 && fail "injected after execve"
	left_alone $P
	sysgate_maps $P && fail "sysgate mapped: $(sysgate_maps $P)"
	return 0
}

# refused PID REGEX: sysgate -p PID fails with one line matching REGEX.
refused() {
	"$SG" -c -p "$1" >"$TMP/r.out" 2>"$TMP/r.err" && fail "-p $1 was accepted"
	[ "$(wc -l <"$TMP/r.err")" = 1 ] || fail "not one line: $(cat "$TMP/r.err")"
	grep -Eq "$2" "$TMP/r.err" || fail "-p $1: $(cat "$TMP/r.err")"
}

t_refusals() {
	refused 999999999 'invalid process id|No such process'
	refused abc "invalid process id 'abc'"
	refused 1,x 'invalid process id'
	"$SG" -p 1 -- true 2>"$TMP/e" && fail "-p with PROG accepted"
	grep -q 'no PROG' "$TMP/e" || fail "-p PROG: $(cat "$TMP/e")"
	# sysgate already in it
	"$SG" -e trace=none -- "$LOOP" 1 >"$TMP/pre" 2>/dev/null &
	PIDS+=($!)
	wait_for '^ready' "$TMP/pre"
	local pre=$(sed -n 's/^ready //p' "$TMP/pre")
	PIDS+=("$pre")
	refused "$pre" 'sysgate is already in this process'
	left_alone "$pre"
	# another tracer (sysgate -m ptrace)
	"$SG" -m ptrace -e trace=none -- "$LOOP" 1 >"$TMP/traced" 2>/dev/null &
	PIDS+=($!)
	wait_for '^ready' "$TMP/traced"
	local traced=$(sed -n 's/^ready //p' "$TMP/traced")
	PIDS+=("$traced")
	local before=$(code_sum "$traced")
	refused "$traced" "already traced by process $!"
	[ "$before" = "$(code_sum "$traced")" ] || fail "traced process changed"
	# ptrace refused: another user's process (as root: sysgate as nobody)
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	   id nobody >/dev/null 2>&1; then
		start "$TMP/o.out" "$LOOP" 1
		chmod 755 "$TMP"
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
			"$SG" -c -p $P >"$TMP/r.out" 2>"$TMP/r.err" &&
			fail "attached as nobody"
		[ "$(wc -l <"$TMP/r.err")" = 1 ] || fail "not one line: $(cat "$TMP/r.err")"
		grep -q "attach $P: Operation not permitted" "$TMP/r.err" ||
			fail "as nobody: $(cat "$TMP/r.err")"
		left_alone $P
	fi
	# set-user-ID (as root: a copy owned by nobody)
	if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
		cp "$LOOP" "$TMP/suid"
		chmod 755 "$TMP"
		chown nobody "$TMP/suid"
		chmod u+s "$TMP/suid"
		start "$TMP/s.out" "$TMP/suid" 1
		if grep -q "^Uid:[[:space:]]*0[[:space:]]" /proc/$P/status &&
		   ! grep -q "^Uid:[[:space:]]*0[[:space:]]*0" /proc/$P/status; then
			refused $P 'set-user-ID'
			left_alone $P
		fi
	fi
}

# one_line REGEX ARGS...: sysgate ARGS fails with one line matching REGEX
# (before it touches the process).
one_line() {
	local re=$1
	shift
	"$SG" "$@" 2>"$TMP/e" && fail "$* accepted"
	[ "$(wc -l <"$TMP/e")" = 1 ] || fail "$*: $(cat "$TMP/e")"
	grep -Eq "$re" "$TMP/e" || fail "$*: $(cat "$TMP/e")"
}

t_bad_options() {
	one_line 'detach-after' -p 1 --detach-after=x
	one_line 'seccomp filter cannot be removed' -p 1 -m seccomp -c
	one_line 'works with -m patch' -p 1 -m int3 -c
	one_line 'use -f' -p 1 -m ptrace -ff -o "$TMP/ff" -c
	one_line 'opened before attaching' -p 1 --fs=mem -c
	one_line 'at most four --hook' -p 1 --hook=a --hook=b --hook=c \
		--hook=d --hook=e -c
	one_line 'not with -m ptrace' -p 1 -m ptrace --hook="$BUILD/hooks/null.so"
}

# --hook with -p: the library is linked into the running process (its
# libc imports bound to the process's libc, its constructor run), answers
# while attached, and at detach says its last word and goes: the code and
# the mappings are the program's again.
t_hook() {
	attached_window "$LOOP" -e trace=none \
		--hook="$BUILD/tests/attach/hook.so:4242" -o "$TMP/trace"
	grep -Eq '^hook answered [1-9][0-9]* getppid$' "$TMP/trace" ||
		fail "the hook's fini: $(cat "$TMP/trace")"
	grep -q 'hook.so' /proc/$P/maps && fail "hook still mapped"
	return 0
}

# A hook that cannot be linked there: one line, and the process runs on
# untouched (a static program has no libc to bind the hook's imports to).
t_hook_refusals() {
	local before
	start "$TMP/out" "$LOOP-static" 1
	wait_for '^tick 1 ' "$TMP/out"
	before=$(code_sum $P)
	"$SG" -p $P --hook="$BUILD/tests/attach/hook.so:4242" 2>"$TMP/err" &&
		fail "attached: $(cat "$TMP/err")"
	attach_err "$TMP/err"
	[ "$(wc -l <"$TMP/err")" = 1 ] &&
		grep -q "needs libc.so.6, which process $P has not loaded" "$TMP/err" ||
		fail "$(cat "$TMP/err")"
	"$SG" -p $P --hook="$TMP/none.so" 2>"$TMP/err" && fail "attached"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$(cat "$TMP/err")"
	left_alone $P
	grep -q 'sysgate-attach\|hook.so' /proc/$P/maps && fail "left mapped"
	[ "$before" = "$(code_sum $P)" ] || fail "code differs"
	n=$(wc -l <"$TMP/out")
	until [ "$(tail -n +$((n + 1)) "$TMP/out" | grep -c "^tick")" -ge 3 ]; do
		sleep 0.02
	done
}

# Children forked while attached (-f) are hooked, and detached with their
# parent: each program's results are its own before, injected while
# attached, its own again after, and every code byte is the program's.
# The pipes process $1 holds, by inode.
pipes_of() {
	ls -l /proc/$1/fd | sed -n 's/.*-> pipe:\[\([0-9]*\)\]$/\1/p' | sort
}

follow() {
	local before C real S n pipes
	start "$TMP/out" "$BUILD/tests/attach/forker" "$@"
	wait_for '^tick 1 ' "$TMP/out"
	real=$(sed -n 's/^tick 0 ppid=\([0-9]*\)$/\1/p' "$TMP/out")
	before=$(code_sum $P)
	pipes=$(pipes_of $P)
	"$SG" -f "${SGARGS[@]}" -p $P -e trace=getppid \
		-e inject=getppid:retval=4242 -o "$TMP/trace" 2>"$TMP/err" &
	S=$!
	attached $S 'ppid=4242' "$TMP/out"
	kill -USR1 $P
	wait_for '^child ' "$TMP/out"
	C=$(sed -n 's/^child //p' "$TMP/out")
	PIDS+=("$C")
	wait_for '^ctick ' "$TMP/out"
	stop_sysgate INT
	no_other_words "$TMP/err"
	left_alone $P
	left_alone $C
	n=$(wc -l <"$TMP/out")
	until [ "$(tail -n +$((n + 1)) "$TMP/out" | grep -c "^ctick .* ppid=$P$")" -ge 3 ] &&
	      [ "$(tail -n +$((n + 1)) "$TMP/out" | grep -c "^tick .* ppid=$real$")" -ge 3 ]; do
		sleep 0.02
	done
	# parent: real, injected, real; child: $CHILD_ATTACHED, then real
	grep '^tick ' "$TMP/out" | sed "s/.*ppid=$real$/r/; s/.*ppid=4242$/i/" |
		uniq | tr -d '\n' | grep -qx 'rir' ||
		fail "parent's results: $(grep '^tick ' "$TMP/out" | uniq -f2 -c)"
	grep '^ctick ' "$TMP/out" | sed "s/.*ppid=$P$/r/; s/.*ppid=4242$/i/" |
		uniq | tr -d '\n' | grep -qx "$CHILD_ATTACHED" ||
		fail "child's results: $(grep '^ctick ' "$TMP/out" | uniq -f2 -c)"
	# The child, made from the hooked parent, has the program's code.
	[ "$before" = "$(code_sum $C)" ] || fail "child's code differs:
$(diff <(echo "$before") <(code_sum $C))"
	[ "$before" = "$(code_sum $P)" ] || fail "parent's code differs"
	no_live_runtime $C
	if [ "${SGARGS[0]:-}" = -ff ]; then
		# each process's lines in its own file, the child's too
		grep -Eq "^getppid\(\) += 4242 \(INJECTED\)$" "$TMP/trace.$P" ||
			fail "trace.$P: $(head -3 "$TMP/trace.$P")"
		grep -Eq "^getppid\(\) += 4242 \(INJECTED\)$" "$TMP/trace.$C" ||
			fail "trace.$C: $(ls "$TMP")"
		[ ! -e "$TMP/trace" ] || fail "-ff wrote $TMP/trace"
		# (the pipe by which the CLI found the child: let go too)
		[ "$(pipes_of $C)" = "$pipes" ] ||
			fail "child $C holds pipes: $(pipes_of $C) (before: $pipes)"
		return 0
	fi
	grep -Eq "^$P +getppid\(\) += 4242 \(INJECTED\)$" "$TMP/trace" ||
		fail "trace: $(head -3 "$TMP/trace")"
	return 0
}

t_follow() { CHILD_ATTACHED=ir; SGARGS=(); follow; }

# -ff: FILE.<pid> for the process attached to and for each child.
t_follow_ff() { CHILD_ATTACHED=ir; SGARGS=(-ff); follow; }

# strace's way: the CLI traces the children too, and lets them go.
t_follow_ptrace() { CHILD_ATTACHED=ir; SGARGS=(-m ptrace); follow; }

# A child that runs execve is not followed (its new program could not be
# detached): it runs natively from there, while its parent is hooked.
t_follow_exec() { CHILD_ATTACHED=r; SGARGS=(); follow exec; }

# --json: the lines an attached trace writes are those of the same
# program traced from its start (but for times and ids).
json() {
	local norm='s/"ts":[0-9.]*,"pid":[0-9]*,"tid":[0-9]*,//; s/,"dur_ns":[0-9]*//'
	"$SG" "$@" --json -e trace=getppid -e inject=getppid:retval=4242 \
		-o "$TMP/whole" -- "$LOOP" 1 3 >/dev/null ||
		fail "unattached run: $(cat "$TMP/whole")"
	start "$TMP/out" "$LOOP" 1
	"$SG" "$@" -p $P --json -e trace=getppid -e inject=getppid:retval=4242 \
		-o "$TMP/trace" 2>"$TMP/err" &
	local S=$!
	attached $S 'ppid=4242' "$TMP/out"
	stop_sysgate INT
	left_alone $P
	[ "$(head -1 "$TMP/trace")" = "$(head -1 "$TMP/whole")" ] ||
		fail "first line: $(head -1 "$TMP/trace")"
	[ "$(sed "$norm" "$TMP/trace" | sort -u)" = \
	  "$(grep -v '"type":"exit"' "$TMP/whole" | sed "$norm" | sort -u)" ] ||
		fail "lines differ:
$(diff <(sed "$norm" "$TMP/whole" | sort -u) <(sed "$norm" "$TMP/trace" | sort -u))"
}

t_json() { json; }

t_json_ptrace() { json -m ptrace; }

t_follow_orphan() {
	# -f: the process given with -p exits while its child is hooked:
	# sysgate goes on with the child (its lines, its -c counts), and
	# detaches it on SIGINT.
	start "$TMP/out" "$BUILD/tests/attach/forker" orphan
	"$SG" -f -c -p $P -e inject=getppid:retval=4242 -o "$TMP/count" \
		2>"$TMP/err" &
	local S=$! C n
	attached $S 'ppid=4242' "$TMP/out"
	kill -USR1 $P
	wait_for '^child ' "$TMP/out"
	C=$(sed -n 's/^child //p' "$TMP/out")
	PIDS+=("$C")
	kill -TERM $P
	while kill -0 $P 2>/dev/null; do sleep 0.02; done
	n=$(wc -l <"$TMP/out")
	until [ "$(tail -n +$((n + 1)) "$TMP/out" | grep -c '^ctick .*ppid=4242$')" -ge 3 ]; do
		kill -0 $S 2>/dev/null || fail "sysgate ended with the parent"
		sleep 0.02
	done
	stop_sysgate INT
	no_other_words "$TMP/err"
	left_alone $C
	grep -Eq ' getppid$' "$TMP/count" || fail "no getppid row: $(cat "$TMP/count")"
	n=$(wc -l <"$TMP/out")
	until [ "$(tail -n +$((n + 1)) "$TMP/out" | grep -c '^ctick ')" -ge 3 ]; do
		sleep 0.02
	done
	tail -n +$((n + 1)) "$TMP/out" | grep -q 4242 && fail "injected after detaching"
	no_live_runtime $C
}

need_sud() {
	"$SG" --list-mechanisms | grep -q "^sud *available" ||
		{ echo "syscall user dispatch is not available here"; exit 77; }
}

# -m sud: every call traps while attached; detaching turns syscall user
# dispatch off in every thread (a thread left armed would die of SIGSYS
# once the program's own signal actions are back).
t_sud() { need_sud; trace_detach "$LOOP" -m sud; }

t_sud_threads() {
	need_sud
	start "$TMP/out" "$LOOP" 8
	wait_for 'spinning=7' "$TMP/out"
	"$SG" -m sud -c -p $P -e inject=getppid:retval=4242 --detach-after=1 \
		-o "$TMP/count" 2>"$TMP/err" || { attach_err "$TMP/err"; fail "exit status $?: $(cat "$TMP/err")"; }
	grep -q 'ppid=4242' "$TMP/out" || fail "no injected result"
	left_alone $P
	local n=$(wc -l <"$TMP/out") c0
	until [ "$(tail -n +$((n + 1)) "$TMP/out" | grep -vc 4242)" -ge 3 ]; do
		kill -0 $P 2>/dev/null || fail "the program died"
		sleep 0.02
	done
	c0=$(tail -1 "$TMP/out" | sed 's/.*calls=//')
	until [ "$(tail -1 "$TMP/out" | sed 's/.*calls=//')" -gt $((c0 + 10000)) ]; do
		kill -0 $P 2>/dev/null || fail "the program died"
		sleep 0.02
	done
	[ "$(ls /proc/$P/task | wc -l)" = 8 ] || fail "threads lost"
}

"t_$1"
