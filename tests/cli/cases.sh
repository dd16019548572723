#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cases.sh NAME: one CLI test per function t_NAME.  Exit 0 pass, 77 skip,
# anything else fail (with the reason printed).
set -u
SG=$BUILD/sysgate
PROG=$BUILD/tests/cli/prog
TMP=$(mktemp -d /tmp/sysgate-cli.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*"; exit 1; }
# same FILE-A FILE-B: identical, or show the difference and fail
same() { diff -u "$1" "$2" || fail "$1 and $2 differ"; }
need_strace() { command -v strace >/dev/null || { echo "strace not installed"; exit 77; }; }

TRACED=write,openat,close,read,lseek
# The loader's calls come before sysgate starts (see issue 3): compare
# from the program's first write on.
from_main() { sed -n '/^write(1, "hello/,$p' "$1"; }

t_golden_trace() {
	# --preload: from the program's own calls on; by default ld.so's
	# come first (the machine's library paths: not in the golden file).
	"$SG" --preload -e trace=$TRACED -o "$TMP/out" -- "$PROG" basic \
		>/dev/null || fail "exit status $?"
	same tests/cli/golden/basic.trace "$TMP/out"
	"$SG" -e trace=$TRACED -o "$TMP/out" -- "$PROG" basic >/dev/null ||
		fail "exit status $?"
	from_main "$TMP/out" >"$TMP/main"
	same tests/cli/golden/basic.trace "$TMP/main"
}

t_same_as_strace() {
	# The whole trace, ld.so's calls included.
	need_strace
	"$SG" -e trace=$TRACED -o "$TMP/sg" -- "$PROG" basic >/dev/null
	strace -e trace=$TRACED -o "$TMP/st" -- "$PROG" basic >/dev/null
	same "$TMP/st" "$TMP/sg"
	"$SG" --preload -e trace=$TRACED -o "$TMP/sg" -- "$PROG" basic >/dev/null
	from_main "$TMP/st" >"$TMP/st.main"
	same "$TMP/st.main" "$TMP/sg"
}

t_execve_first_line() {
	# The first line is the execve that started the program, as strace
	# prints it: the same path, argv and number of variables (sysgate's
	# own are not among them), under every in-process mechanism that
	# starts programs through the loader.
	local m
	need_strace
	strace -o "$TMP/st" -- /bin/true
	sed -n '1s/0x[0-9a-f]*/ADDR/p' "$TMP/st" >"$TMP/want"
	grep -q '^execve("/bin/true", \["/bin/true"\], ADDR /\* [0-9]* vars \*/) = 0$' \
		"$TMP/want" || fail "strace's first line: $(cat "$TMP/want")"
	for m in patch sud seccomp int3; do
		"$BUILD/sysgate" --list-mechanisms | grep -q "^$m *available" ||
			continue
		"$SG" -m $m -o "$TMP/sg" -- /bin/true || fail "$m: exit $?"
		sed -n '1s/0x[0-9a-f]*/ADDR/p' "$TMP/sg" >"$TMP/got"
		same "$TMP/want" "$TMP/got"
		"$SG" -m $m -c -o "$TMP/sg" -- /bin/true || fail "$m: exit $?"
		[ "$(calls_of "$TMP/sg" execve)" = 1 ] || fail "$m: -c: $(cat "$TMP/sg")"
	done
}

t_stderr_default() {
	# Without -o the trace goes to stderr, the program's stdout is intact.
	"$SG" -e trace=write -- "$PROG" basic >"$TMP/stdout" 2>"$TMP/stderr"
	[ "$(cat "$TMP/stdout")" = hello ] || fail "stdout: $(cat "$TMP/stdout")"
	grep -q '^write(1, "hello\\n", 6) *= 6$' "$TMP/stderr" ||
		fail "no write line in: $(cat "$TMP/stderr")"
}

t_service_with_output_traces() {
	# --fs and --bypass are the action by themselves, but naming an
	# output (-o) asks for the trace too (before, -o stayed empty).
	"$SG" --fs=/sgx -e trace=write -o "$TMP/fs" -- "$PROG" basic >/dev/null ||
		fail "exit status $?"
	grep -q '^write(1, "hello' "$TMP/fs" || fail "--fs -o: $(cat "$TMP/fs")"
	"$SG" --fs=/sgx -o "$TMP/fs2" -- "$PROG" basic >/dev/null
	grep -q '^write(1, "hello' "$TMP/fs2" || fail "--fs -o: $(cat "$TMP/fs2")"
	"$SG" --bypass -o "$TMP/bp" -- "$PROG" basic >/dev/null
	grep -q '^write(1, "hello' "$TMP/bp" || fail "--bypass -o: $(cat "$TMP/bp")"
	# alone, --fs traces nothing
	"$SG" --fs=/sgx -- "$PROG" basic >/dev/null 2>"$TMP/err"
	[ ! -s "$TMP/err" ] || fail "--fs alone printed: $(cat "$TMP/err")"
}

t_error_escapes_controls() {
	# What a user or program gave is quoted in errors with control
	# characters escaped: one line, nothing that drives the terminal.
	"$SG" -e $'trace=\e[31mfoo' -- true 2>"$TMP/e1" && fail "accepted"
	"$SG" $'--bogus\a\nsysgate: forged' -- true 2>"$TMP/e2" && fail "accepted"
	"$SG" -- $'/none\e]0;x' 2>"$TMP/e3" && fail "accepted"
	for f in e1 e2 e3; do
		[ "$(wc -l <"$TMP/$f")" = 1 ] || fail "$f: $(cat -A "$TMP/$f")"
		LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$TMP/$f" &&
			fail "$f: control character: $(cat -A "$TMP/$f")"
	done
	grep -qF "'\x1b[31mfoo'" "$TMP/e1" || fail "$(cat "$TMP/e1")"
}

t_fpu_state_kept() {
	# A hook without SYSGATE_HOOK_NOFPU that changes every vector, mask
	# and x87 register (tests/hooks/clobber.c) must leave the program's
	# own values where they were, under each mechanism that runs --hook.
	# clobber-enter.so has no exit(): the lean path calls its enter()
	# with no wrapper between.  clobber-libc.so changes them only
	# through the C library's memset: its callbacks must not be taken
	# for FPU-free (core/hooks.c).
	local prog=$BUILD/tests/behave/vecregs m h
	"$prog" >"$TMP/native" || fail "native run"
	for m in patch sud int3 zeropage; do
		"$SG" --list-mechanisms | grep -q "^$m *available" || continue
		for h in clobber clobber-enter clobber-libc; do
			"$SG" -m $m -o /dev/null -e trace=none \
				--hook="$BUILD/tests/hooks/$h.so" -- "$prog" \
				>"$TMP/$m" || fail "-m $m $h: exit $?: $(cat "$TMP/$m")"
			same "$TMP/native" "$TMP/$m"
		done
	done
	# Every site planned at start: the first call goes through its stub
	# (not a first trap's signal handler) while x87 is in its initial
	# state, whose words sysgate then knows without reading them.
	for h in clobber clobber-enter clobber-libc; do
		"$SG" --eager -o /dev/null -e trace=none \
			--hook="$BUILD/tests/hooks/$h.so" -- "$prog" >"$TMP/eager" ||
			fail "--eager $h: exit $?: $(cat "$TMP/eager")"
		same "$TMP/native" "$TMP/eager"
	done
	# Started by an execve under -f: the save area's size and the
	# CPU's features come from the process that made it (core/init.c),
	# not from CPUID again.
	for h in clobber clobber-enter clobber-libc; do
		"$SG" -f -o /dev/null -e trace=none \
			--hook="$BUILD/tests/hooks/$h.so" -- sh -c 'exec "$0"' \
			"$prog" >"$TMP/exec" || fail "execve $h: exit $?"
		same "$TMP/native" "$TMP/exec"
	done
}

t_hook_unwinds_into_program() {
	# A hook that unwinds (backtrace(), a profiler) walks from sysgate's
	# frames into the program's function that made the call: through a
	# patched site's stub, a breakpoint's or a SIGSYS's signal frame.
	local prog=$BUILD/tests/cli/unwind-prog m
	for m in patch int3 zeropage sud; do
		"$SG" --list-mechanisms | grep -q "^$m *available" || continue
		"$SG" -m $m -o /dev/null -e trace=none \
			--hook="$BUILD/tests/hooks/unwind.so" -- "$prog" \
			>"$TMP/out" 2>"$TMP/err" || fail "-m $m: exit $?"
		grep -qx "unwind: reached unwind_marker" "$TMP/err" ||
			fail "-m $m: $(cat "$TMP/err")"
	done
}

t_hook_callback_calls_untrapped() {
	# A hook callback's own calls from code no patch covers go to the
	# kernel without a SIGSYS each while syscall user dispatch is on
	# (tests/hooks/window.c makes 1000 there), and the threads it starts
	# there with a raw clone, and theirs, stay the hook's: only the
	# program's 5 getppid calls reach it.
	local prog=$BUILD/tests/cli/window-prog m n
	for m in patch sud int3; do
		"$SG" --list-mechanisms | grep -q "^$m *available" || continue
		"$SG" -m $m --stats -e trace=none \
			--hook="$BUILD/tests/hooks/window.so" -- "$prog" \
			>"$TMP/out" 2>"$TMP/err" || fail "-m $m: exit $?"
		grep -qx "window: 5 getppid" "$TMP/err" ||
			fail "-m $m: $(grep window: "$TMP/err")"
		n=$(sed -n 's/^sysgate: calls caught by SIGSYS: //p' "$TMP/err")
		[ "${n:-0}" -lt 1000 ] ||
			fail "-m $m: $n calls caught by SIGSYS"
	done
}

t_hook_callback_forks() {
	# A hook that forks inside its callback (tests/hooks/forkcb.c): the
	# child goes on with the program and must be a traced process of
	# its own -- its pid on its lines, its own memory decoded (its path
	# differs from the parent's), its signal, thread and fork -- whether
	# libc's fork site was patched (depth_call), trapped, or ran from
	# code no patch covers (:wx, syscall user dispatch's window,
	# core/sud.c).
	local prog=$BUILD/tests/cli/forkcb-prog m arg ppid cpid
	for m in "" --eager "-m sud" "-m int3" --preload wx "wx -m sud"; do
		arg=
		case $m in wx*) arg=:wx m=${m#wx} ;; esac
		# shellcheck disable=SC2086
		"$SG" $m -f -e trace=openat,kill,tgkill \
			--hook="$BUILD/tests/hooks/forkcb.so$arg" -- "$prog" \
			>"$TMP/out" 2>"$TMP/err" || fail "'$m$arg': exit $?"
		grep -qx "parent 0, child exited 0" "$TMP/out" ||
			fail "'$m$arg': $(cat "$TMP/out")"
		cpid=$(sed -n 's/^\[pid *\([0-9]*\)\] openat(AT_FDCWD, "\/nonexistent\/forkcb-child".*/\1/p' "$TMP/err")
		ppid=$(sed -n 's/^\(\[pid *\([0-9]*\)\] \)\{0,1\}openat(AT_FDCWD, "\/nonexistent\/forkcb-parent".*/\2/p' "$TMP/err")
		[ -n "$cpid" ] && [ "$cpid" != "$ppid" ] ||
			fail "'$m$arg': the child's open: $(cat "$TMP/err")"
		grep -q "^\[pid *$cpid\] --- SIGUSR1 .*si_pid=$cpid," "$TMP/err" ||
			fail "'$m$arg': the child's signal: $(cat "$TMP/err")"
		grep -q "^\[pid *$cpid\] +++ exited with 0 +++" "$TMP/err" ||
			fail "'$m$arg': the child's exit: $(cat "$TMP/err")"
	done
}

t_hook_callback_sets_action() {
	# A hook callback's sigaction (tests/hooks/sigcb.c) is the program's
	# action too, as with any library natively: the program reads it
	# back, and the signal reaches the handler through sysgate (traced),
	# where libc's site is patched.  (While syscall user dispatch is on,
	# a callback's calls from unpatched code go to the kernel unseen:
	# core/sud.c, doc/status.md.)
	local prog=$BUILD/tests/cli/sigcb-prog m
	for m in --eager "-m int3"; do
		# shellcheck disable=SC2086
		"$SG" $m -e trace=tgkill --hook="$BUILD/tests/hooks/sigcb.so" \
			-- "$prog" >"$TMP/out" 2>"$TMP/err" ||
			fail "'$m': exit $?: $(cat "$TMP/err")"
		grep -qx "action seen, handler ran 1" "$TMP/out" ||
			fail "'$m': $(cat "$TMP/out")"
		grep -q "^--- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_TKILL" \
			"$TMP/err" || fail "'$m': $(cat "$TMP/err")"
	done
}

# run ARGS... with memory-deny-write-execute set (exit 77: no PR_SET_MDWE)
with_mdwe() {
	python3 -c 'import ctypes, os, sys
if ctypes.CDLL(None).prctl(65, 1, 0, 0, 0): sys.exit(77)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}

t_mdwe() {
	# Under PR_SET_MDWE (systemd's MemoryDenyWriteExecute=) nothing can
	# write code: the CLI refuses in one line before starting anything,
	# except with -m ptrace and -m preload, which work; the library alone
	# says so and lets the program run (it used to die of SIGSEGV).
	with_mdwe true || { echo "PR_SET_MDWE not available"; exit 77; }
	for m in patch sud int3 seccomp; do
		with_mdwe "$SG" -m $m -o /dev/null -- "$PROG" basic \
			>"$TMP/out" 2>"$TMP/err" && fail "-m $m: started"
		[ ! -s "$TMP/out" ] || fail "-m $m: the program ran"
		[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q PR_SET_MDWE "$TMP/err" ||
			fail "-m $m: $(cat "$TMP/err")"
	done
	for m in ptrace preload; do
		with_mdwe "$SG" -m $m -c -o "$TMP/c" -- "$PROG" basic >"$TMP/out" ||
			fail "-m $m: exit $?"
		[ "$(cat "$TMP/out")" = hello ] || fail "-m $m: $(cat "$TMP/out")"
		[ "$(calls_of "$TMP/c" write)" = 1 ] || fail "-m $m: $(cat "$TMP/c")"
	done
	with_mdwe env LD_PRELOAD="$BUILD/libsysgate.so" SYSGATE_OPTIONS=-c \
		"$PROG" basic >"$TMP/out" 2>"$TMP/err" || fail "preloaded: exit $?"
	[ "$(cat "$TMP/out")" = hello ] || fail "preloaded: $(cat "$TMP/out")"
	grep -q PR_SET_MDWE "$TMP/err" || fail "preloaded: $(cat "$TMP/err")"
}

# bad_elf SRC DST KIND: a copy of SRC with one program header field made
# invalid the way KIND says
bad_elf() {
	python3 - "$@" <<'EOT'
import struct, sys
src, dst, kind = sys.argv[1:]
b = bytearray(open(src, 'rb').read())
phoff, = struct.unpack_from('<Q', b, 32)
phentsize, phnum = struct.unpack_from('<HH', b, 54)
for i in range(phnum):
    o = phoff + i * phentsize
    typ, = struct.unpack_from('<I', b, o)
    if kind == 'interp-empty' and typ == 3:
        struct.pack_into('<Q', b, o + 32, 0)            # p_filesz
        break
    if kind == 'filesz' and typ == 1:
        memsz, = struct.unpack_from('<Q', b, o + 40)
        struct.pack_into('<Q', b, o + 32, memsz + 4096)
        break
    if kind == 'congruence' and typ == 1:
        off, = struct.unpack_from('<Q', b, o + 8)
        struct.pack_into('<Q', b, o + 8, off + 8)        # p_offset
        break
else:
    sys.exit('no such header')
open(dst, 'wb').write(b)
EOT
	chmod +x "$2"
}

t_loader_refuses_bad_elf() {
	# Program headers execve refuses (an empty interpreter path), or maps
	# to a program that then faults (file bytes beyond memory, address
	# and offset disagreeing within a page): the loader refuses them in
	# one line, exit 127, nothing run, no crash of its own (static
	# programs and --loader go through it).
	local k src
	for k in interp-empty filesz congruence; do
		src=$PROG
		[ $k = interp-empty ] || src=$BUILD/tests/cli/prog-static
		bad_elf "$src" "$TMP/bad" $k || fail "$k: cannot make it"
		"$TMP/bad" basic >/dev/null 2>&1 && fail "$k: the kernel runs it"
		"$SG" --loader -o /dev/null -- "$TMP/bad" basic >"$TMP/out" 2>"$TMP/err"
		rc=$?
		[ $rc = 127 ] || fail "$k: exit $rc: $(cat "$TMP/err")"
		[ ! -s "$TMP/out" ] || fail "$k: it ran: $(cat "$TMP/out")"
		[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$k: $(cat "$TMP/err")"
	done
}

t_bench_out_kept_on_failure() {
	# sysgate bench -o FILE replaces FILE only with a complete report: a
	# run that stops (a bad argument here) leaves the old one intact.
	echo old >"$TMP/b.json"
	"$SG" bench --bogus -o "$TMP/b.json" 2>/dev/null && fail "bad argument accepted"
	[ "$(cat "$TMP/b.json")" = old ] || fail "report replaced: $(cat "$TMP/b.json")"
	[ "$(ls "$TMP")" = b.json ] || fail "left behind: $(ls "$TMP")"
}

# calls column of NAME in a -c summary
calls_of() { awk -v n="$2" '$NF == n { print ($5 ~ /^[0-9]+$/ && NF == 6) ? $4 : $4 }' "$1"; }

t_count() {
	"$SG" -c -e trace=getppid -o "$TMP/c" -- "$PROG" getppid 100 >"$TMP/stdout" ||
		fail "exit status $?"
	[ "$(calls_of "$TMP/c" getppid)" = 100 ] || { cat "$TMP/c"; fail "getppid calls"; }
	[ "$(calls_of "$TMP/c" total)" = 100 ] || { cat "$TMP/c"; fail "total"; }
	[ "$(cat "$TMP/stdout")" -gt 0 ] || fail "program output"
}

t_count_same_as_strace() {
	need_strace
	# Calls the loader does not make, so both see the same ones.
	"$SG" -c -e trace=write,lseek -o "$TMP/sg" -- "$PROG" basic >/dev/null
	strace -c -e trace=write,lseek -o "$TMP/st" -- "$PROG" basic >/dev/null
	for n in write lseek total; do
		[ "$(calls_of "$TMP/sg" $n)" = "$(calls_of "$TMP/st" $n)" ] ||
			{ cat "$TMP/sg" "$TMP/st"; fail "calls of $n differ"; }
	done
	# errors column: one of the two lseeks fails
	grep -E '^ *[0-9.]+ +[0-9.]+ +[0-9]+ +2 +1 +lseek$' "$TMP/sg" >/dev/null ||
		{ cat "$TMP/sg"; fail "lseek errors"; }
}

t_count_columns_as_strace() {
	need_strace
	# -U and -S with strace's names: without a time column the whole
	# summary is strace's, byte for byte.
	for u in name,calls,errors errors,calls count,syscall; do
		"$SG" -c -S name -U $u -e trace=write,lseek -o "$TMP/sg" -- "$PROG" basic >/dev/null ||
			fail "-U $u: exit status $?"
		strace -c -S name -U $u -e trace=write,lseek -o "$TMP/st" -- "$PROG" basic >/dev/null
		same "$TMP/st" "$TMP/sg"
	done
	# every column: strace's header and rules
	all=time-percent,total-time,min-time,max-time,avg-time,calls,errors,name
	"$SG" -c -U $all -S max-time -e trace=write,lseek -o "$TMP/sg" -- "$PROG" basic >/dev/null
	strace -c -U $all -S max-time -e trace=write,lseek -o "$TMP/st" -- "$PROG" basic >/dev/null
	same <(sed -n '1,2p; /^-/p' "$TMP/st") <(sed -n '1,2p; /^-/p' "$TMP/sg")
	for bad in "-U bogus" "-U nothing" "-S bogus"; do
		# shellcheck disable=SC2086 # the option and its value
		"$SG" -c $bad -- "$PROG" basic >/dev/null 2>&1 && fail "$bad accepted"
	done
	# without a summary: -w and -U refused, -S said to do nothing, in
	# strace's words
	for opt in "-w" "-U calls" "-S calls"; do
		# shellcheck disable=SC2086 # the option and its value
		"$SG" $opt -e trace=none -o /dev/null -- "$PROG" basic >/dev/null 2>"$TMP/sg.err"
		echo "rc=$?" >>"$TMP/sg.err"
		# shellcheck disable=SC2086
		strace $opt -e trace=none -o /dev/null -- "$PROG" basic >/dev/null 2>"$TMP/st.err"
		echo "rc=$?" >>"$TMP/st.err"
		same <(sed 's/^strace/sysgate/; /^Try /d' "$TMP/st.err") "$TMP/sg.err"
	done
	return 0
}

t_count_system_time() {
	# -c times are system CPU time, as strace's: a sleep costs next to
	# none; -w gives the wall-clock time it took.
	for w in "" -w; do
		# shellcheck disable=SC2086 # -w or nothing
		"$SG" -c $w -U name,total-time -e trace=clock_nanosleep,nanosleep \
			-o "$TMP/c$w" -- sleep 0.3 || fail "exit status $?"
	done
	cpu=$(awk '$1 == "total" { print $2 }' "$TMP/c")
	wall=$(awk '$1 == "total" { print $2 }' "$TMP/c-w")
	awk -v c="$cpu" -v w="$wall" 'BEGIN { exit !(c < 0.1 && w >= 0.3) }' ||
		{ cat "$TMP/c" "$TMP/c-w"; fail "system time $cpu s, wall time $wall s"; }
}

t_count_overhead() {
	# -O takes its time off each call's (never below 0), in strace's
	# units: a 0.3 s sleep less 100ms keeps at least 0.2 s of wall time,
	# less 10s none; a bad value is one line and exit 1.
	for o in 100ms 10s 1e7us; do
		"$SG" -c -w -O "$o" -U name,total-time \
			-e trace=clock_nanosleep,nanosleep -o "$TMP/c$o" -- sleep 0.3 ||
			fail "exit status $?"
	done
	awk '$1 == "total" { exit !($2 >= 0.2) }' "$TMP/c100ms" ||
		{ cat "$TMP/c100ms"; fail "-O 100ms"; }
	for o in 10s 1e7us; do
		awk '$1 == "total" { exit !($2 == 0) }' "$TMP/c$o" ||
			{ cat "$TMP/c$o"; fail "-O $o"; }
	done
	"$SG" -c --summary-syscall-overhead=1x true 2>"$TMP/err" && fail "1x accepted"
	[ "$(cat "$TMP/err")" = "sysgate: invalid -O argument: '1x'" ] ||
		fail "$(cat "$TMP/err")"
}

t_id_result_unsigned() {
	# a user or group id comes back unsigned, as strace prints it (an
	# injected result past 2^63 shows it; strace's inject-nf)
	need_strace
	set -- -e trace=geteuid,getegid -e inject=geteuid,getegid:retval=0x8000000000000000
	"$SG" "$@" -o "$TMP/sg" -- id >/dev/null || fail "exit status $?"
	strace "$@" -o "$TMP/st" -- id >/dev/null 2>&1
	grep -q '= 9223372036854775808 (INJECTED)$' "$TMP/sg" || fail "$(cat "$TMP/sg")"
	same "$TMP/st" "$TMP/sg"
	# a call that cannot fail (%pure) returns even -2 as a number
	set -- -e trace=geteuid -e inject=geteuid:retval=0xfffffffffffffffe
	"$SG" "$@" -o "$TMP/sg" -- id >/dev/null || fail "exit status $?"
	strace "$@" -o "$TMP/st" -- id >/dev/null 2>&1
	grep -q '= 18446744073709551614 (INJECTED)$' "$TMP/sg" || fail "$(cat "$TMP/sg")"
	same "$TMP/st" "$TMP/sg"
}

t_stdio_let_go() {
	# A program that closes its standard input or output ends the pipe
	# there as natively: sysgate holds no copy (strace's redirect test).
	# The program waits for the other side to see it (the loop's bound
	# only turns a hang into a failure).
	wait_for='i=0; while [ ! -e "$1" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; [ -e "$1" ]'
	for m in "" "-m ptrace"; do
		rm -f "$TMP/eof" "$TMP/epipe"
		# shellcheck disable=SC2086 # the mechanism's words
		"$SG" $m -f -e trace=none -o /dev/null -- sh -c "exec >&-; $wait_for" \
			sh "$TMP/eof" | { cat >/dev/null; : >"$TMP/eof"; }
		[ "${PIPESTATUS[0]}" = 0 ] || fail "${m:-patch}: the reader saw no end of file"
		# shellcheck disable=SC2086
		{ yes; : >"$TMP/epipe"; } 2>/dev/null | "$SG" $m -f -e trace=none \
			-o /dev/null -- sh -c "exec <&-; $wait_for" sh "$TMP/epipe" ||
			fail "${m:-patch}: the writer's pipe stayed open"
	done
	# -o naming standard output keeps it: the summary goes there
	"$SG" -c -o /dev/stdout -- true 2>/dev/null | grep -q '^100.00 .* total$' ||
		fail "-c -o /dev/stdout: no summary"
}

t_stack_after_main_thread_exit() {
	# -k once the main thread has called pthread_exit: /proc/self then
	# has no memory (its maps read empty), the calling thread's has
	# (-f: the calls of a thread are traced under -f, as strace's)
	prog=$BUILD/tests/behave/main-thread-exit
	"$SG" -f -k -e trace=rt_sigaction -o "$TMP/out" -- "$prog" >/dev/null ||
		fail "exit status $?"
	grep -A1 -E '^([0-9]+ +)?rt_sigaction\(SIGUSR1, \{sa_handler=' "$TMP/out" |
		tail -1 | grep -q '^ > .*(' || fail "no stack: $(cat "$TMP/out")"
	grep -q "^ > .*/main-thread-exit(rest+" "$TMP/out" ||
		fail "no frame in rest(): $(cat "$TMP/out")"
}

t_env_set_unset() {
	# -E VAR=VAL replaces VAR's value, -E VAR removes it, as strace's
	# (the later item wins).
	HOME=/x SG_T=1 "$SG" -E HOME=/y -E SG_T -E SG_U=1 -E SG_U -E SG_V=2 \
		-e trace=none -o /dev/null -- /usr/bin/env >"$TMP/env" ||
		fail "exit status $?"
	[ "$(grep -c '^HOME=' "$TMP/env")" = 1 ] && grep -qx HOME=/y "$TMP/env" ||
		fail "HOME: $(grep HOME "$TMP/env")"
	grep -qE '^SG_(T|U)=|^SG_T$|^SG_U$' "$TMP/env" && fail "-E VAR kept: $(grep SG_ "$TMP/env")"
	grep -qx SG_V=2 "$TMP/env" || fail "SG_V"
}

t_output_pipe() {
	# -o '|CMD' and '!CMD': the trace goes to CMD's input, whole, from
	# every process, and sysgate ends after CMD; -ff cannot take it.
	"$SG" -f -e trace=write,lseek -o "$TMP/file" -- "$PROG" basic >/dev/null ||
		fail "exit status $?"
	"$SG" -f -e trace=write,lseek -o "|cat >$TMP/piped" -- "$PROG" basic >/dev/null ||
		fail "exit status $?"
	same <(sed -E 's/^[0-9]+ +//' "$TMP/file") <(sed -E 's/^[0-9]+ +//' "$TMP/piped")
	"$SG" -f -e trace=write --output="!wc -l >$TMP/n" -- sh -c 'echo a; (echo b)' >/dev/null ||
		fail "exit status $?"
	[ "$(cat "$TMP/n")" -ge 4 ] || fail "lines from the tree: $(cat "$TMP/n")"
	"$SG" -ff -o "|cat" -- "$PROG" basic >/dev/null 2>&1 && fail "-ff -o |CMD accepted"
	[ ! -e "|cat" ] || fail "a file named |cat"
}

t_output_reader_gone() {
	# The reader of the output pipe goes away while the program runs:
	# sysgate's writes fail, and the program must not die of SIGPIPE.
	"$SG" -o "|exec 0<&-; : >$TMP/gone" -- \
		sh -c "while [ ! -e $TMP/gone ]; do :; done; echo done" \
		>"$TMP/stdout" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = done ] || fail "output $(cat "$TMP/stdout")"
}

t_inject_retval() {
	out=$("$SG" -e trace=none -e inject=getppid:retval=42 -- "$PROG" getppid 3)
	[ "$out" = 42 ] || fail "got '$out'"
}

t_inject_error_when() {
	# (--preload: counting the program's own openat calls, not ld.so's)
	"$SG" --preload -e trace=none -e inject=openat:error=EACCES:when=2 -- \
		"$PROG" open 3 >"$TMP/out"
	printf 'ok\nPermission denied\nok\n' | same - "$TMP/out"
}

t_inject_same_as_strace() {
	need_strace
	for when in 2 2+ 1..2 2+2; do
		inj=lseek:error=ENOSPC:when=$when
		"$SG" -e trace=lseek -e inject=$inj -o "$TMP/sg" \
			-- "$PROG" lseek 5 >"$TMP/sg.out"
		strace -e trace=lseek -e inject=$inj -o "$TMP/st" \
			-- "$PROG" lseek 5 >"$TMP/st.out"
		same "$TMP/st.out" "$TMP/sg.out"
		same "$TMP/st" "$TMP/sg"
	done
}

t_inject_strace_rules() {
	# What strace 6.1's own inject tests check: only traced calls are
	# tampered with; a signal comes after the call, from the kernel
	# (SI_KERNEL); errno names in any case; retval in hex; delays with
	# units; each option once
	need_strace
	for args in "-e trace=getppid -e inject=lseek:error=ENOSPC" \
		"-e trace=lseek -e inject=lseek:signal=USR1:when=2" \
		"-e trace=lseek -e inject=lseek:error=enospc:when=2" \
		"-e trace=lseek -e inject=lseek:retval=0x10" \
		"-e trace=lseek -e fault=lseek:error=eperm:when=3+"; do
		# shellcheck disable=SC2086
		"$SG" $args -o "$TMP/sg" -- "$PROG" lseek 3 >"$TMP/sg.out"
		# shellcheck disable=SC2086
		strace $args -o "$TMP/st" -- "$PROG" lseek 3 >"$TMP/st.out"
		same "$TMP/st.out" "$TMP/sg.out"
		same "$TMP/st" "$TMP/sg"
	done
	t0=$(date +%s%N)
	"$SG" -e trace=none -e inject=lseek:delay_enter=.1s:delay_exit=5e4 \
		-- "$PROG" lseek 1 >/dev/null || fail "delay: exit $?"
	[ $(($(date +%s%N) - t0)) -ge 150000000 ] || fail "delays too short"
	for arg in inject=lseek:error=1:error=2 inject=lseek:retval=0b \
		inject=lseek:delay_enter=1:delay_enter=2 inject=lseek:when=65536 \
		inject=lseek:when=1..65535 fault=lseek:signal=1 \
		inject=lseek:delay_exit=1x; do
		"$SG" -e "$arg" -- "$PROG" >/dev/null 2>"$TMP/err" &&
			fail "$arg accepted"
		grep -q "invalid ${arg%%=*} argument '${arg#*=}'" "$TMP/err" ||
			fail "$arg: $(cat "$TMP/err")"
	done
}

t_inject_syscall() {
	# syscall=: a call without side effects runs in place of the
	# original, whose result error= or retval= gives (strace's suite
	# runs each inject test with syscall=gettid too)
	need_strace
	for inj in lseek:syscall=getpid:error=ENOSPC:when=2+ \
		lseek:syscall=gettid:retval=7; do
		"$SG" -e trace=lseek -e inject=$inj -o "$TMP/sg" \
			-- "$PROG" lseek 3 >"$TMP/sg.out" || fail "$inj: exit $?"
		strace -e trace=lseek -e inject=$inj -o "$TMP/st" \
			-- "$PROG" lseek 3 >"$TMP/st.out"
		same "$TMP/st.out" "$TMP/sg.out"
		same "$TMP/st" "$TMP/sg"
	done
	# what strace refuses: a call with side effects, no result given
	for inj in lseek:syscall=write:retval=1 lseek:syscall=gettid \
		lseek:syscall=nosuch:retval=1; do
		"$SG" -e inject=$inj -- "$PROG" >/dev/null 2>"$TMP/err" &&
			fail "$inj accepted"
		[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$inj: $(cat "$TMP/err")"
	done
}

t_mapped_code_read_once() {
	# Libraries mapped while the process runs alone are looked at (a
	# read of /proc/self/maps) only when a call of theirs traps, or
	# something changes them, all of them at once: one that never
	# makes a call costs none.  Their calls are hooked from the first
	# all the same.
	need_sud
	"$SG" --stats -e trace=lseek -o "$TMP/out" -- "$PROG" dlopen-also \
		"$BUILD/tests/cli/rawlib-gap.so" "$BUILD/tests/cli/rawlib.so" \
		>"$TMP/stdout" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = -9 ] || fail "result $(cat "$TMP/stdout")"
	grep -qx 'lseek(-42, 7, SEEK_SET) *= -1 EBADF (Bad file descriptor)' \
		"$TMP/out" || fail "not traced: $(cat "$TMP/out")"
	# (libc at its first trap, then both libraries at rawlib.so's:
	# fewer reads than mappings)
	line=$(grep '^sysgate: code mapped after start-up: ' "$TMP/out") ||
		fail "no line: $(grep -E 'mapped|loaded' "$TMP/out")"
	set -- $line
	[ "$6" -ge 3 ] && [ "${11}" -lt "$6" ] || fail "$line"
	# Once a thread has run, a library is looked at when it is mapped
	# (planned before any thread can run it): by PROCMAP_QUERY where
	# the kernel has it (6.11), not a read of the maps.
	"$SG" --stats -e trace=lseek -o "$TMP/out2" -- "$PROG" dlopen-threaded \
		"$BUILD/tests/cli/rawlib.so" >"$TMP/stdout" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = -9 ] || fail "threaded: $(cat "$TMP/stdout")"
	grep -qx 'lseek(-42, 7, SEEK_SET) *= -1 EBADF (Bad file descriptor)' \
		"$TMP/out2" || fail "threaded, not traced: $(cat "$TMP/out2")"
	line=$(grep '^sysgate: code mapped after start-up: ' "$TMP/out2") ||
		fail "threaded, no line: $(grep sysgate "$TMP/out2")"
	case $(uname -r) in
	[0-5].* | 6.[0-9].* | 6.10.*) ;;
	*) case $line in
	   *" with 0 reads "*) ;;
	   *) fail "threaded: $line" ;;
	   esac ;;
	esac
}

t_dlopen_raw_syscall() {
	# A raw syscall in a library loaded after start-up is hooked.
	dlopen_raw_syscall
}

t_memfd_raw_syscall() {
	# The same library copied into a memfd and loaded from there (no
	# file on disk to read it from): patched too, not left to a trap.
	dlopen_raw_syscall memfd
	"$SG" --stats -e trace=lseek -o "$TMP/stats" -- "$PROG" dlopen \
		"$BUILD/tests/cli/rawlib.so" memfd >/dev/null || fail "exit status $?"
	grep -A1 'loaded later' "$TMP/stats" | grep -q '/memfd:rawlib.*jump=1' ||
		fail "not patched: $(cat "$TMP/stats")"
	# Planning's CPU time, at start-up and for what was loaded later
	# (wall time alone says little on a loaded machine).
	grep -q 'KiB of text read, [0-9]* us ([0-9]* of CPU)' "$TMP/stats" ||
		fail "no CPU time: $(grep 'syscall sites' "$TMP/stats")"
	grep -q 'loaded later ([0-9]* us of CPU):' "$TMP/stats" ||
		fail "no CPU time: $(grep 'loaded later' "$TMP/stats")"
}

t_tls_block_small() {
	# libsysgate.so's thread-local block is copied and zeroed for every
	# thread of every hooked process, dirtying its pages whether or not
	# a hook uses them: the fs hook's 64 KiB bounce buffer was in it
	# (76 KiB of -c's private memory).  Buffers that size are mapped at
	# first use instead.
	local lib="$BUILD/libsysgate.so" sz
	sz=$(readelf -lW "$lib" | awk '$1 == "TLS" {print $6}')
	[ -n "$sz" ] || fail "$lib: no TLS segment: $(readelf -lW "$lib")"
	[ $((sz)) -lt 65536 ] || fail "$lib: TLS block of $((sz)) bytes"
}

t_name_tables_read_only() {
	# The syscall, errno, signal and trace name tables were arrays of
	# string pointers: every entry needed a relocation, so ld.so wrote
	# their 60 KiB of pages in every hooked process.  They hold offsets
	# into string pools now and lie in read-only pages shared by all.
	local lib="$BUILD/libsysgate.so" w
	local t='sg_(syscall|compat)_table|sg_errno_(name|msg|index)'
	t+='|sg_signal_(names|index)|e_[a-z0-9_]+'
	w=$(nm "$lib" | awk -v t="^($t)\$" '$3 ~ t && $2 !~ /^[rRtT]$/ {print $3}')
	[ -n "$(nm "$lib" | awk '$3 == "sg_syscall_table"')" ] ||
		fail "$lib: no symbol sg_syscall_table (stripped?)"
	[ -z "$w" ] || fail "$lib: writable (relocated) name tables:" $w
}

t_segment_gap_library() {
	# A library whose segments have gaps (ld.so maps its text, then
	# the rest, the gaps PROT_NONE): the patcher read the unmapped parts
	# and the program died of SIGSEGV (curl with librtmp, --loader).
	local lib="$BUILD/tests/cli/rawlib-gap.so" m
	# (segments of a few hundred bytes, 64 KiB apart)
	readelf -lW "$lib" | grep -q 'LOAD.*R E 0x10000$' || fail "$lib has no gaps"
	for m in --loader "-m seccomp" ""; do
		# shellcheck disable=SC2086
		"$SG" $m -e trace=lseek -o "$TMP/out" -- "$PROG" dlopen "$lib" \
			>"$TMP/stdout" || fail "$m: exit status $?"
		[ "$(cat "$TMP/stdout")" = -9 ] || fail "$m: result $(cat "$TMP/stdout")"
		grep -qx 'lseek(-42, 7, SEEK_SET) *= -1 EBADF (Bad file descriptor)' \
			"$TMP/out" || fail "$m: not traced: $(cat "$TMP/out")"
	done
}

dlopen_raw_syscall() {
	"$SG" -e trace=lseek -o "$TMP/out" -- "$PROG" dlopen "$BUILD/tests/cli/rawlib.so" "$@" \
		>"$TMP/stdout" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = -9 ] || fail "result $(cat "$TMP/stdout")"
	grep -qx 'lseek(-42, 7, SEEK_SET) *= -1 EBADF (Bad file descriptor)' "$TMP/out" ||
		fail "not traced: $(cat "$TMP/out")"
	out=$("$SG" -e trace=none -e inject=lseek:retval=5 -- "$PROG" dlopen \
		"$BUILD/tests/cli/rawlib.so" "$@")
	[ "$out" = 5 ] || fail "inject: $out"
}

# "syscall calls errors" from a -c table, one line each, sorted; with
# START, that many execve calls fewer (the ones that started the program);
# calls named by the regex SKIP_CALLS left out
count_table() {
	awk -v start="${2:-0}" -v skip="${SKIP_CALLS:-^$}" '$1 ~ /^[0-9.]+$/ && $NF != "total" && $NF !~ skip {
		calls = $4; errors = NF == 6 ? $5 : 0
		if ($NF == "execve") calls -= start
		if (calls) print $NF, calls, errors
	}' "$1" | sort
}

t_static_binary() {
	# LD_PRELOAD cannot reach it: the CLI starts it through the loader.
	"$SG" -e trace=$TRACED -o "$TMP/out" -- "$BUILD/tests/cli/prog-static" basic \
		>"$TMP/stdout" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = hello ] || fail "output"
	same tests/cli/golden/basic.trace "$TMP/out"
}

t_fexecve_static() {
	# fexecve (execveat of a close-on-exec descriptor) of a static
	# program is followed through the loader like execve of its path
	# (before: the default mechanism let it run untraced, -m seccomp
	# failed with exit 127).
	local m
	for m in "" "-m seccomp" --loader; do
		# shellcheck disable=SC2086
		"$SG" $m -f -e trace=write -o "$TMP/out" -- "$PROG" fexecve \
			"$BUILD/tests/cli/prog-static" basic >"$TMP/stdout" ||
			fail "$m: exit status $?"
		[ "$(cat "$TMP/stdout")" = hello ] || fail "$m: output"
		grep -q 'write(1, "hello' "$TMP/out" || fail "$m: not traced: $(cat "$TMP/out")"
	done
}

t_static_threads() {
	out=$("$SG" -c -o /dev/null -- "$BUILD/tests/cli/prog-static" threads 8 100) ||
		fail "exit status $?"
	[ "$out" = "800 calls" ] || fail "$out"
}

# count_same_as_strace [SYSGATE-OPTIONS...] -- COMMAND...: every call
# strace sees in the process tree, sysgate sees: -f -c tables equal, call
# by call, errors too, the execve that starts the program included (the
# loader hands it to the hooks as strace's first line).
count_same_as_strace() {
	local opts=()

	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	"$SG" "${opts[@]}" -f -c -o "$TMP/sg" -- "$@" >"$TMP/sg.out" || fail "exit $?"
	strace -f -c -o "$TMP/st" -- "$@" >"$TMP/st.out"
	same "$TMP/st.out" "$TMP/sg.out"
	count_table "$TMP/sg" >"$TMP/sg.t"
	count_table "$TMP/st" >"$TMP/st.t"
	same "$TMP/st.t" "$TMP/sg.t"
}

t_coverage_static() {
	need_strace
	count_same_as_strace -- "$BUILD/tests/cli/prog-static" basic
}

t_coverage_loader() {
	# --loader: the dynamic loader's calls too, from the first instruction.
	need_strace
	count_same_as_strace --loader -- "$PROG" basic
}

# A deterministic tree: a shell starts programs one after another (no
# pipes read concurrently, no threads: every process's calls are the same
# in every run), dynamic and static ones, which fork and exec each other.
t_coverage_tree() {
	need_strace
	coverage_tree --loader
}

coverage_tree() {
	ST=$BUILD/tests/cli/prog-static
	count_same_as_strace "$@" -- sh -c \
		"$PROG fork; $ST fork; $PROG run $ST run $PROG fork; $ST run $PROG basic"
}

t_coverage_luajit() {
	# A JIT-compiling runtime (tests/jit/hot.lua: hot loops compiled to
	# machine code, children through popen and system).  LuaJIT runs no
	# threads of its own, so its counts are the same in every run; node
	# and java run helper threads whose futex and epoll calls vary from
	# run to run, so they are left to tests/jit (same output, not counts).
	need_strace
	command -v luajit >/dev/null || { echo "luajit not installed"; exit 77; }
	coverage_luajit --loader
}

coverage_luajit() {
	count_same_as_strace "$@" -- sh -c \
		"echo probe >$TMP/probe && exec luajit tests/jit/hot.lua $TMP"
	grep -qx 'jit compiled	true' "$TMP/sg.out" || fail "nothing compiled: $(cat "$TMP/sg.out")"
}

t_loader_same_as_strace() {
	need_strace
	"$SG" --loader -e trace=openat,close,read,write,lseek -o "$TMP/sg" -- "$PROG" basic >/dev/null
	strace -e trace=openat,close,read,write,lseek -o "$TMP/st" -- "$PROG" basic >/dev/null
	same "$TMP/st" "$TMP/sg"
}

t_loader_without_libc() {
	# The loader starts without a libc (issue 28: glibc's static start
	# cost ~0.5 ms per started process, most of it CPUIDs a hypervisor
	# traps).  A libc in it shows in its file (ifunc relocations,
	# libc's start function) and in the calls it makes before it opens
	# the program (glibc: brk, set_tid_address, set_robust_list, rseq).
	local ld=$BUILD/sysgate-loader pid
	command -v readelf >/dev/null || { echo "readelf not installed"; exit 77; }
	readelf -lW "$ld" | grep -q INTERP && fail "the loader has an interpreter"
	readelf -rW "$ld" | grep IRELATIVE | head -3
	readelf -rW "$ld" | grep -q IRELATIVE && fail "a libc's ifunc relocations"
	nm "$ld" | grep -w -e __libc_start_main -e __libc_setup_tls &&
		fail "a libc's start in the loader"
	need_strace
	strace -f -o "$TMP/st" "$SG" -e trace=none -- "$PROG" basic \
		>/dev/null 2>&1 || fail "exit status $? under strace"
	pid=$(awk '/execve\(".*sysgate-loader"/ { print $1; exit }' "$TMP/st")
	[ -n "$pid" ] || fail "no sysgate-loader in strace's output"
	awk -v p="$pid" '$1 == p && /openat\(/ { exit } $1 == p' "$TMP/st" \
		>"$TMP/start"
	grep -E '(brk|set_tid_address|set_robust_list|rseq)\(' "$TMP/start" &&
		fail "the loader makes a libc's start-up calls"
	return 0
}

t_loader_maps_only_its_stub() {
	# The kernel maps only the installed loader's stub (a page or two of
	# text), which maps the rest from sysgate-loader.text, the loader as
	# linked: nothing is left to map again under another name before the
	# program is named in /proc/self/exe (it cost ~0.4 ms per process).
	# Without the .text file, or with one of another build, the loader
	# maps itself from its own file and still starts programs.
	local ld=$BUILD/sysgate-loader rl out how size note
	command -v readelf >/dev/null || { echo "readelf not installed"; exit 77; }
	out=0
	for size in $(readelf -lW "$ld" | grep -E '^ *LOAD .* (R E|RWE) ' |
		      awk '{ print $5 }'); do
		out=$((out + size))
	done
	[ "$out" -gt 0 ] && [ "$out" -le 16384 ] ||
		fail "the kernel maps $out bytes of the loader's text"
	rl=$(readlink -f "$(command -v readlink)")
	note=$(readelf -lW "$BUILD/sysgate-loader.text" | awk '$1 == "NOTE" { print $2; exit }')
	[ -n "$note" ] || fail "no build ID note in sysgate-loader.text"
	for how in text none other; do
		rm -rf "$TMP/inst"
		mkdir "$TMP/inst"
		cp "$SG" "$BUILD/libsysgate.so" "$ld" "$TMP/inst/"
		case $how in
		text) cp "$BUILD/sysgate-loader.text" "$TMP/inst/" ;;
		other)	# (a byte of the build ID changed)
			cp "$BUILD/sysgate-loader.text" "$TMP/inst/"
			printf 'x' | dd of="$TMP/inst/sysgate-loader.text" bs=1 \
				seek=$((note + 20)) conv=notrunc 2>/dev/null ;;
		esac
		out=$("$TMP/inst/sysgate" -f -e trace=none -o /dev/null -- sh -c 'readlink /proc/self/exe' 2>&1) ||
			fail "$how: exit status $?: $out"
		[ "$out" = "$rl" ] || fail "$how: $out"
	done
}

# The calls of the traced process (the one that runs sysgate-loader) of
# `sysgate -f -c -- /bin/true`, as strace -f sees them, into $TMP/own.
own_startup_calls() {
	local pid
	need_strace
	strace -f -o "$TMP/st" -e trace=execve,openat,read,ioctl,close \
		"$SG" -f -c -o /dev/null -- /bin/true || fail "exit status $?"
	pid=$(awk '/execve\(".*sysgate-loader"/ { print $1; exit }' "$TMP/st")
	[ -n "$pid" ] || fail "no sysgate-loader process in: $(head -3 "$TMP/st")"
	awk -v p="$pid" '$1 == p' "$TMP/st" >"$TMP/own"
}

t_startup_no_task_walk() {
	# A process with one thread has no other thread to tell that SUD
	# went on: /proc/self/task is not read at start (~25 us each).
	own_startup_calls
	grep -q '"/proc/self/maps"' "$TMP/own" ||
		fail "no look at the maps: $(head -5 "$TMP/own")"
	! grep -q '"/proc/self/task"' "$TMP/own" ||
		fail "$(grep '"/proc/self/task"' "$TMP/own")"
}

t_startup_maps_read_once() {
	# /proc/self/maps is read whole once at start (the patch mechanism's
	# objects); what else start-up wants of it (the vDSO's data pages)
	# is asked with PROCMAP_QUERY, where the kernel has it.
	local reads noquery
	own_startup_calls
	set -- $(awk '
		{ sub(/^[0-9]+ +/, "") }
		/^openat\(AT_FDCWD, "\/proc\/self\/maps"/ {
			fd = $NF; open = 1; seen = 0; next }
		open && index($0, "read(" fd ",") == 1 && !seen { n++; seen = 1 }
		open && index($0, "ioctl(" fd ",") == 1 && / = -1 / { q = 1 }
		open && index($0, "close(" fd ")") == 1 { open = 0 }
		END { print n + 0, q + 0 }' "$TMP/own")
	reads=$1 noquery=$2
	[ "$noquery" = 0 ] || { echo "no PROCMAP_QUERY (Linux < 6.11)"; exit 77; }
	[ "$reads" = 1 ] || fail "/proc/self/maps read whole $reads times"
}

t_startup_proc_mem_once() {
	# Code is written through /proc/self/mem, opened once and kept (an
	# open and a close at every first trap cost more than the write).
	local n
	own_startup_calls
	n=$(grep -c '"/proc/self/mem"' "$TMP/own")
	[ "$n" -ge 1 ] || fail "no write of code: $(head -5 "$TMP/own")"
	[ "$n" = 1 ] || fail "/proc/self/mem opened $n times"
}

t_startup_vdso_not_read() {
	# The vDSO is planned at its first trap like a file's object, not at
	# every start (~10 % of /bin/true's): its few sites are fallbacks
	# for clocks it cannot read (behave/vdso-fallback: still counted).
	need_sud
	"$SG" --stats -f -o "$TMP/out" -- /bin/true || fail "exit status $?"
	grep -q '^sysgate:   \[vdso\]: not read, its sites patched at their third trap' \
		"$TMP/out" || fail "$(grep sysgate "$TMP/out")"
}

t_sud_off_when_calls_keep_coming() {
	# Without --eager, objects are planned at their sites' first traps,
	# and whole once calls keep coming under syscall user dispatch; then
	# nothing is left for it to catch (the vDSO, left to traps at start,
	# included) and it goes off: it taxes every call of the process.
	need_sud
	"$SG" --stats -c -o "$TMP/c" -- "$BUILD/sysgate-bench-loop" getppid \
		20000 1 >/dev/null || fail "exit status $?"
	stats_line 'sysgate: syscall user dispatch: turned on 1 times, off 1 times (nothing left for it to catch)' \
		"syscall user dispatch left on"
}

t_loader_proc_self_exe() {
	# Started by sysgate-loader, a program still reads its own path in
	# /proc/self/exe (ld.so resolves $ORIGIN that way), followed execs too.
	rl=$(readlink -f "$(command -v readlink)")
	out=$("$SG" --loader -e trace=none -- readlink /proc/self/exe 2>/dev/null)
	[ "$out" = "$rl" ] || fail "--loader: $out"
	out=$("$SG" --loader -f -e trace=none -- sh -c 'readlink /proc/self/exe' 2>/dev/null)
	[ "$out" = "$rl" ] || fail "--loader -f, after an exec: $out"
}

t_exec_chain_static_dynamic() {
	# dynamic -> static -> dynamic under -f: each one hooked, the static
	# one through the loader.
	exec_chain
}

exec_chain() {
	ST=$BUILD/tests/cli/prog-static
	"$SG" "$@" -f -e trace=execve,lseek -o "$TMP/out" -- "$PROG" run "$ST" run "$PROG" basic \
		>"$TMP/stdout" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = hello ] || fail "output $(cat "$TMP/stdout")"
	sed -E 's/^[0-9]+ +//; s/0x[0-9a-f]+ \/\*/ADDR \/*/' "$TMP/out" >"$TMP/norm"
	cat >"$TMP/want" <<EOT
execve("$PROG", ["$PROG", "run", "$ST", "run", "$PROG", "basic"], ADDR /* N vars */) = 0
execve("$ST", ["$ST", "run", "$PROG", "basic"], ADDR /* N vars */) = 0
execve("$PROG", ["$PROG", "basic"], ADDR /* N vars */) = 0
lseek(3, 0, SEEK_SET)                   = 0
lseek(-1, 0, SEEK_SET)                  = -1 EBADF (Bad file descriptor)
+++ exited with 0 +++
EOT
	# (the alignment counted the pid prefix: compare without it)
	sed -E 's/[0-9]+ vars/N vars/; s/ +=/ =/' "$TMP/norm" >"$TMP/got"
	sed -Ei 's/ +=/ =/' "$TMP/want"
	same "$TMP/want" "$TMP/got"
}

# need_mechanism NAME WHAT: skip unless mechanism NAME runs here.
need_mechanism() {
	"$SG" --list-mechanisms | grep -q "^$1 *available" ||
		{ echo "$2 not available here"; exit 77; }
}

need_sud() {
	need_mechanism sud "syscall user dispatch is"
}

t_fork_kill() {
	# A child killed as soon as fork returns takes the signal before its
	# first instruction, while sysgate's state in it is still its
	# parent's: its lines are a followed child's own (-f) or none (a
	# child strace does not trace), never the parent's, as strace prints.
	local f n
	need_strace
	for f in "" -f; do
		strace $f -o "$TMP/st" -- "$PROG" fork-kill 50 >/dev/null
		"$SG" $f -o "$TMP/sg" -- "$PROG" fork-kill 50 >"$TMP/stdout" ||
			fail "$f: exit status $?"
		[ "$(cat "$TMP/stdout")" = "50 of 50 killed by SIGUSR1" ] ||
			fail "$f: $(cat "$TMP/stdout")"
		for n in 'SIGUSR1 {' 'killed by SIGUSR1 +++'; do
			[ "$(grep -c "$n" "$TMP/sg")" = "$(grep -c "$n" "$TMP/st")" ] ||
				fail "'$f': $(grep -c "$n" "$TMP/sg") lines of $n, strace $(grep -c "$n" "$TMP/st")"
		done
	done
}

t_threads_without_f() {
	# As strace: without -f only the thread the program started with is
	# traced, counted and injected into (prog jit: the main thread's
	# lseek(-43), two threads' -44 and -45; -f: jit-raw-syscall).
	need_sud
	need_strace
	strace -e trace=lseek -o "$TMP/st" -- "$PROG" jit >/dev/null
	"$SG" -e trace=lseek -o "$TMP/sg" -- "$PROG" jit >/dev/null ||
		fail "exit status $?"
	same "$TMP/st" "$TMP/sg"
	"$SG" -c -e trace=lseek -o "$TMP/c" -- "$PROG" jit >/dev/null
	[ "$(calls_of "$TMP/c" lseek)" = 1 ] || { cat "$TMP/c"; fail "-c"; }
	out=$("$SG" -e trace=none -e inject=lseek:retval=5 -- "$PROG" jit)
	[ "$out" = "$(printf '5\n-9 -9')" ] || fail "inject: $out"
}

t_jit_raw_syscall() {
	# Code written at run time makes a raw syscall, from the main thread,
	# a thread started before the code existed and one started after.
	need_sud
	jit_raw_syscall
}

jit_raw_syscall() {
	# (-f: threads are followed, as strace's)
	"$SG" "$@" -f -e trace=lseek -o "$TMP/out" -- "$PROG" jit >"$TMP/stdout" ||
		fail "exit status $?"
	printf -- '-9\n-9 -9\n' | same - "$TMP/stdout"
	for fd in -43 -44 -45; do
		grep -Eq "^([0-9]+ +)?lseek\\($fd, 7, SEEK_SET\\) *= -1 EBADF" \
			"$TMP/out" || fail "lseek($fd) not traced: $(cat "$TMP/out")"
	done
	out=$("$SG" "$@" -f -e trace=none -e inject=lseek:retval=5 -- "$PROG" jit)
	[ "$out" = "$(printf '5\n5 5')" ] || fail "inject: $out"
}

# jit_run PROG MODE N CALLS: --stats -c of it in $TMP/c; every call right,
# CALLS lseek calls counted.
# (--eager: every ELF site is patched at start, so what SUD does is the
# run-time code's alone; by default the libraries' sites are caught by
# it too, each once.)
jit_run() {
	# (-f: its threads' calls are counted too, as strace -f -c counts)
	"$SG" -f --eager --stats -c -o "$TMP/c" -- "$1" "$2" "$3" >"$TMP/stdout" ||
		fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = "0 wrong" ] || fail "$1: $(cat "$TMP/stdout")"
	[ "$(calls_of "$TMP/c" lseek)" = "$4" ] || { cat "$TMP/c"; fail "$1: lseek calls"; }
}

# stats_line LINE WHY: $TMP/c has that line.
stats_line() {
	grep -qx "$1" "$TMP/c" || { cat "$TMP/c"; fail "$2"; }
}

t_jit_lazy_patch() {
	# A site in run-time code traps (syscall user dispatch) until its
	# third call, then is patched in place: 5000 calls, three SIGSYS,
	# every call still counted and right, and SUD off again (nothing
	# left for it to catch); -m
	# sud, where each call is meant to trap, traps them all.  Dynamic
	# (LD_PRELOAD) and static (loader) programs alike.
	need_sud
	for p in "$PROG" "$PROG-static"; do
		jit_run "$p" jitloop 5000 5000
		stats_line 'sysgate: calls caught by SIGSYS: 3' "$p: calls trapped after the third"
		grep -q '^sysgate: patched after their third trap: 1 sites' "$TMP/c" ||
			{ cat "$TMP/c"; fail "$p: site not reported patched"; }
		stats_line 'sysgate: syscall user dispatch: turned on 1 times, off 1 times (nothing left for it to catch)' \
			"$p: SUD not off once the site was patched"
		"$SG" -m sud --stats -c -o "$TMP/c" -- "$p" jitloop 5000 >/dev/null
		n=$(sed -n 's/^sysgate: calls caught by SIGSYS: //p' "$TMP/c")
		[ "${n:-0}" -ge 5000 ] || { cat "$TMP/c"; fail "$p: -m sud trapped $n"; }
		! grep -q 'first trap' "$TMP/c" || fail "$p: -m sud patched a site"
	done
}

t_fork_and_sigreturn_sites_patched() {
	# The site of a fork (clone), a vfork and a signal handler's return
	# (rt_sigreturn) is made from sysgate's text when it traps, and was
	# never patched: a shell paid a SIGSYS for every command it started.
	# Now each traps until its third call, as any other site: 200
	# forks, 200 vforks, 200 handled signals.  strace outside counts the
	# SIGSYS signals (sysgate's own count did not include these).
	need_sud
	need_strace
	local mode c n
	for mode in forks handled; do
		strace -f -qq -e trace=none -e signal=SIGSYS -o "$TMP/s" \
			"$SG" -e trace=none -o /dev/null -- "$PROG" $mode 200 \
			>"$TMP/out" 2>"$TMP/err" || fail "$mode: exit $?"
		grep -qx "200 $mode" "$TMP/out" || fail "$mode: $(cat "$TMP/out")"
		for c in clone vfork rt_sigreturn; do
			n=$(grep -c "si_syscall=__NR_$c," "$TMP/s")
			[ "$n" -le 10 ] ||
				fail "$mode: $n SIGSYS for $c (200 calls)"
		done
	done
}

t_own_fds_below_1024_without_room() {
	# Where the soft limit is the hard one and cannot be raised
	# (docker's default; no CAP_SYS_RESOURCE), sysgate's descriptors
	# sit just below min(limit, 1024), not 4096: the kernel sizes a
	# process's table of descriptors by its highest one, and each fork
	# copies it (20 us more a fork here at 4032).  Seen from the outside
	# (a process's own listing leaves them out).
	command -v setpriv >/dev/null && command -v prlimit >/dev/null ||
		{ echo "setpriv or prlimit not installed"; exit 77; }
	local fds max
	setpriv --bounding-set=-sys_resource prlimit --nofile=5000:5000 \
		"$SG" -e trace=none -o "$TMP/o" -- \
		sh -c 'ls -l /proc/$$/fd; true' >"$TMP/out" ||
		fail "exit status $?"
	fds=$(awk '$NF == "'"$TMP/o"'" { print $(NF - 2) }' "$TMP/out")
	[ -n "$fds" ] || fail "no descriptor of the -o file: $(cat "$TMP/out")"
	max=$(awk '$(NF - 1) == "->" { print $(NF - 2) }' "$TMP/out" | sort -n | tail -1)
	[ "$max" -lt 1024 ] || fail "descriptor $max: $(cat "$TMP/out")"
}

t_jit_sud_back_on() {
	# Once its only site is patched SUD goes off (it taxes every call);
	# that code goes, new code comes, and a thread that existed all
	# along calls it first: SUD must be on again in that thread too, or
	# its calls would go by unseen.  Then off again.
	need_sud
	for p in "$PROG" "$PROG-static"; do
		jit_run "$p" jitrearm 3000 9000
		stats_line 'sysgate: calls caught by SIGSYS: 6' "$p: not three traps per site"
		stats_line 'sysgate: syscall user dispatch: turned on 2 times, off 2 times (nothing left for it to catch)' \
			"$p: SUD not back on, or not off again"
	done
}

t_jit_no_syscall_no_sud() {
	# Run-time code with no syscall instruction in it (most JIT output)
	# cannot make a call: syscall user dispatch, which would tax every
	# call of the process, stays off; code with one turns it on.
	"$SG" --eager --stats -c -o "$TMP/c" -- "$PROG" jitnosys >"$TMP/stdout" ||
		fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = 42 ] || fail "output $(cat "$TMP/stdout")"
	grep -qx 'sysgate: executable memory without an ELF object and without a system call instruction: 1 mappings, nothing to catch' "$TMP/c" ||
		{ cat "$TMP/c"; fail "mapping not seen as call-free"; }
	! grep -q 'SIGSYS\|user dispatch' "$TMP/c" || { cat "$TMP/c"; fail "SUD armed"; }
	"$SG" --list-mechanisms | grep -q '^sud *available' || return 0
	"$SG" --eager --stats -c -o "$TMP/c" -- "$PROG" jitloop 10 >/dev/null
	grep -q 'JIT): 1 mappings, caught by syscall user dispatch' "$TMP/c" ||
		{ cat "$TMP/c"; fail "syscall in JIT code not caught"; }
}

t_nolibc_static() {
	# A static program with no libc and no unwind info (raw calls from
	# _start): nothing can be patched, yet every call is seen: by syscall
	# user dispatch (default) and by the filter (-m seccomp).
	need_strace
	NL=$BUILD/tests/cli/nolibc
	ran=0
	for m in patch seccomp; do
		avail=sud
		[ $m = seccomp ] && avail=seccomp
		"$SG" --list-mechanisms | grep -q "^$avail *available" || continue
		count_same_as_strace -m $m -- "$NL"
		"$SG" -m $m -e trace=none -e inject=getppid:retval=4242 -- "$NL" \
			>/dev/null 2>&1
		[ $? = 42 ] || fail "-m $m: getppid not injected"
		ran=$((ran + 1))
	done
	[ $ran -gt 0 ] || { echo "neither syscall user dispatch nor seccomp here"; exit 77; }
}

need_seccomp() {
	need_mechanism seccomp "seccomp filters are"
}

t_seccomp_coverage() {
	# The filter catches every call from the first instruction, ld.so's
	# and a static program's too: -c tables equal strace's, for single
	# programs, a tree of them and a JIT-compiling runtime (if installed).
	need_strace
	need_seccomp
	count_same_as_strace -m seccomp -- "$PROG" basic
	count_same_as_strace -m seccomp -- "$BUILD/tests/cli/prog-static" basic
	coverage_tree -m seccomp
	command -v luajit >/dev/null && coverage_luajit -m seccomp
	true
}

t_seccomp_exec_chain() {
	# The filter outlives execve: each program, static or dynamic, is
	# started by the loader again.
	need_seccomp
	exec_chain -m seccomp
}

t_seccomp_jit() {
	# JIT code needs no syscall user dispatch: the filter traps it too.
	need_seccomp
	jit_raw_syscall -m seccomp
}

t_seccomp_unfollowed() {
	# Without -f a child program runs passive: correct, untraced, with
	# none of sysgate's variables, under the one filter (never stacked).
	need_seccomp
	"$SG" -m seccomp -e trace=write -o "$TMP/out" -- "$PROG" run /bin/sh -c \
		"$PROG fork; $PROG run /bin/sh -c 'grep ^Seccomp_filters /proc/self/status; env | grep -c ^SYSGATE_; true'" \
		>"$TMP/stdout" || fail "exit status $?"
	printf 'child\nchild exit 7\nSeccomp_filters:\t1\n0\n' | same - "$TMP/stdout"
	grep -q 'write(1, "child' "$TMP/out" && fail "a child was traced without -f"
	# (the shell itself is followed: it only waits for its children)
	grep -v -e '^--- SIGCHLD' -e '^+++ exited with 0 +++$' "$TMP/out" &&
		fail "more than the shell's own lines traced"
	true
	"$SG" -m seccomp -f -e trace=write -o "$TMP/out" -- "$PROG" run /bin/sh -c "$PROG fork" \
		>/dev/null || fail "exit status $?"
	grep -c 'write(1, "child' "$TMP/out" | grep -qx 2 || fail "-f: $(cat "$TMP/out")"
}

t_seccomp_unprivileged() {
	# Without CAP_SYS_ADMIN the kernel takes the filter only with
	# no_new_privs: sysgate sets it, the program runs.
	need_seccomp
	as=""
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv >/dev/null || { echo "setpriv not installed"; exit 77; }
		as="setpriv --reuid 65534 --regid 65534 --clear-groups"
	fi
	out=$($as env HOME="$TMP" "$SG" -m seccomp -c -o /dev/null -- /bin/sh -c \
		'grep ^NoNewPrivs /proc/self/status; id -u') || fail "exit status $?"
	[ "$out" = "$(printf 'NoNewPrivs:\t1\n%s' "$(id -u ${as:+nobody})")" ] || fail "$out"
}

t_count_clock_in_vdso() {
	# -c reads the clock through the vDSO, not with a system call per
	# hooked call, even where the loader maps the program right below
	# the vDSO (its RELRO mprotect is not a change to the vDSO).
	need_strace
	strace -f -qq -e trace=clock_gettime -e signal=none -o "$TMP/st" \
		"$SG" -c -o /dev/null -- "$BUILD/sysgate-bench-loop" getppid 1000 1 \
		>/dev/null 2>&1 || fail "exit status $?"
	local n=$(grep -c clock_gettime "$TMP/st")
	[ "$n" -lt 100 ] || fail "$n clock_gettime system calls for 1000 getppid"
}

t_bench_json() {
	# The benchmark's JSON has every figure the README quotes (values are
	# not checked: they are measurements, not pass/fail thresholds).
	"$SG" bench --quick --json >"$TMP/b.json" || fail "exit status $?"
	python3 - "$TMP/b.json" <<'EOT' || fail "$(cat "$TMP/b.json")"
import json, sys
b = json.load(open(sys.argv[1]))
assert b["native_ns"] > 0
for m in ("patch", "preload", "sud", "seccomp", "int3", "ptrace"):
    for k in ("emulate_ns", "pass_ns", "emulate_ratio", "pass_ratio"):
        assert b["mechanisms"][m][k] > 0, (m, k)
assert b["startup_ms"]["python3"]["trace_none_ratio"] > 0
# libraries python3 maps while it runs alone are looked at with fewer
# reads of the maps than there are mappings (looked at when they trap)
p = b["planning"]["python3"]
assert p["mapped_later"] > p["maps_reads"] >= 0 and p["whole_us"] >= 0, p
assert p["tree_sites"] >= 0, p
assert b["startup_ms"]["true"]["preload_trace_none_ratio"] > 0
assert b["startup_ms"]["true"]["preload_count_all_ratio"] > 0
assert b["fpu_hook"]["emulate_ns"] > 0 and b["fpu_hook"]["pass_ns"] > 0
assert b["fpu_hook"]["save"]
assert b["fpu_save"]["emulate_ns"] > 0 and b["fpu_save"]["pass_ns"] > 0
assert b["memory_kib"]["count_all"] > 0
assert b["private_dirty_kib"]["count_all"] > b["private_dirty_kib"]["native"] > 0
# sysgate -p (null where it could not run: ptrace refused, no strace)
assert b["attach"]["native_calls_per_s"] > 0
for k in ("sysgate_c_ratio", "sysgate_ptrace_c_ratio", "strace_c_ratio"):
    assert b["attach"][k] is None or b["attach"][k] > 0, k
EOT
	"$SG" bench --bogus >/dev/null 2>"$TMP/err" && fail "bad argument accepted"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$(cat "$TMP/err")"
}

t_ptrace_same_as_strace() {
	# -m ptrace sees everything strace sees, the starting execve too.
	need_strace
	"$SG" -m ptrace -c -o "$TMP/sg" -- "$PROG" basic >/dev/null || fail "exit $?"
	strace -c -o "$TMP/st" -- "$PROG" basic >/dev/null
	awk '$1 ~ /^[0-9.]+$/ && $NF != "total" { print $NF, $4 }' "$TMP/sg" | sort >"$TMP/sg.t"
	awk '$1 ~ /^[0-9.]+$/ && $NF != "total" { print $NF, $4 }' "$TMP/st" | sort >"$TMP/st.t"
	same "$TMP/st.t" "$TMP/sg.t"
	"$SG" -m ptrace -f -e trace=write -o "$TMP/out" -- "$PROG" fork >/dev/null
	grep -q 'write(1, "child\\n", 6)' "$TMP/out" || fail "child not followed: $(cat "$TMP/out")"
	out=$("$SG" -m ptrace -e trace=none -e inject=lseek:error=ENOSPC:when=2 -- "$PROG" lseek 3 2>/dev/null)
	[ "$out" = "$(printf 'ok\nNo space left on device\nok')" ] || fail "inject: $out"
	"$SG" -m ptrace --hook=$BUILD/hooks/null.so -- true 2>"$TMP/err" && fail "--hook accepted"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$(cat "$TMP/err")"
}

t_ptrace_output_pipe() {
	# -m ptrace writing its trace into a pipe (the tracer once crashed
	# claiming SIGPIPE as in-process sysgate does), its first line the
	# execve as strace prints it (decoded at entry: at its exit the old
	# program's memory is gone)
	need_strace
	"$SG" -m ptrace -- "$PROG" basic 2>&1 >/dev/null | cat >"$TMP/sg"
	[ "${PIPESTATUS[0]}" = 0 ] || fail "exit status ${PIPESTATUS[0]}"
	strace -- "$PROG" basic 2>&1 >/dev/null | cat >"$TMP/st"
	grep -q '^write(1, "hello' "$TMP/sg" || fail "no trace: $(head -3 "$TMP/sg")"
	head -1 "$TMP/st" | sed 's/0x[0-9a-f]* \/\*/ADDR \/*/' >"$TMP/st1"
	head -1 "$TMP/sg" | sed 's/0x[0-9a-f]* \/\*/ADDR \/*/' >"$TMP/sg1"
	same "$TMP/st1" "$TMP/sg1"
}

t_exit_status() {
	"$SG" -e trace=none -- "$PROG" exit 3
	[ $? = 3 ] || fail "exit status $?"
}

t_trace_none_exit_line() {
	need_strace
	"$SG" -e trace=none -o "$TMP/sg" -- "$PROG" exit 3
	strace -e trace=none -o "$TMP/st" -- "$PROG" exit 3
	same "$TMP/st" "$TMP/sg"
}

t_root_sigkill_pid_column() {
	# the root's SIGKILL, which only the CLI sees: under -f -o, with
	# strace's "PID " column as every line of the file
	need_strace
	"$SG" -f -e trace=none -o "$TMP/sg" -- "$PROG" kill 9
	strace -f -e trace=none -o "$TMP/st" -- "$PROG" kill 9
	sed -E 's/^[0-9]+ +/PID /' "$TMP/sg" >"$TMP/sg.n"
	sed -E 's/^[0-9]+ +/PID /' "$TMP/st" >"$TMP/st.n"
	grep -q '^PID +++ killed by SIGKILL +++$' "$TMP/st.n" ||
		fail "strace: $(cat "$TMP/st")"
	same "$TMP/st.n" "$TMP/sg.n"
}

t_root_sigkill_signal_set() {
	# -e signal= leaves out the root's SIGKILL line, which the CLI
	# prints, as strace does when SIGKILL is not in the set
	local set
	need_strace
	for set in '!SIGKILL' KILL; do
		"$SG" -e trace=none -e signal=$set -o "$TMP/sg" -- "$PROG" kill 9
		strace -e trace=none -e signal=$set -o "$TMP/st" -- "$PROG" kill 9
		same "$TMP/st" "$TMP/sg"
	done
	grep -qx '+++ killed by SIGKILL +++' "$TMP/sg" || fail "KILL: $(cat "$TMP/sg")"
}

t_daemonize_program_keeps_the_process() {
	# -D: the program is the process the shell started ($!) and its
	# parent is the shell; its exit status is the shell's to see
	local lines
	bash -c '"$1" -D -e trace=none -o "$2/out" -- sh -c "echo \$PPID \$\$" &
		echo "$$ $!"; wait' sh "$SG" "$TMP" >"$TMP/ids" ||
		fail "exit status $?"
	lines=$(wc -l <"$TMP/ids")/$(sort -u "$TMP/ids" | wc -l)
	[ "$lines" = 2/1 ] ||
		fail "shell and job, the program's parent and pid: $(cat "$TMP/ids")"
	"$SG" -D -e trace=none -- sh -c 'exit 3' 2>/dev/null
	[ $? = 3 ] || fail "exit status $?, want 3"
}

t_daemonize_summary_at_the_end() {
	# the -c table comes from a grandchild once the tree has ended; -DD
	# and -DDD the same from a process group, a session of its own
	local d i
	for d in -D -DD -DDD; do
		rm -f "$TMP/c"
		"$SG" $d -f -c -o "$TMP/c" -- sh -c 'sh -c "echo x" >/dev/null' ||
			fail "$d: exit status $?"
		# (a wait for the grandchild, which nothing here can reap)
		for i in $(seq 300); do
			grep -q ' total$' "$TMP/c" 2>/dev/null && break
			sleep 0.1
		done
		grep -Eq '^ +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9]* +execve$' "$TMP/c" ||
			fail "$d: $(cat "$TMP/c")"
	done
}

t_daemonize_refused() {
	# strace's words where it refuses; sysgate's where it cannot
	local want args
	while IFS='#' read -r args want; do
		eval "set -- $args"
		"$SG" "$@" >/dev/null 2>"$TMP/err" && fail "$args: exit status 0"
		[ "$(cat "$TMP/err")" = "sysgate: $want" ] ||
			fail "$args: $(cat "$TMP/err")"
	done <<'EOT'
-D -p 1#PROG [ARGS] must be specified with -D/--daemonize
--daemonize=x true#invalid --daemonize argument: 'x'
-DDDD true#Too many -D's (4), maximum supported -D count is 3
-D -m ptrace true#-D leaves the program this process, and -m ptrace traces it from a child: not together
-D -o '|cat' true#-D with -o |COMMAND would leave the program a child it did not make: not together
EOT
}

t_killed_by_signal() {
	"$SG" -e trace=none -- "$PROG" kill 15 2>"$TMP/err"
	rc=$?
	[ $rc = 143 ] || fail "exit status $rc, want 143 like strace"
	grep -qx '+++ killed by SIGTERM +++' "$TMP/err" || fail "$(cat "$TMP/err")"
}

# -f -e trace=write of "prog fork" with the options given: strace's
# lines once its "PID " column is taken off.
t_follow_fork() {
	# -f -o FILE: strace's "PID " column on every line; the parent's
	# SIGCHLD, which it has no handler for (the kernel drops it), as
	# strace prints it, from the child's end
	"$SG" -f -e trace=write -o "$TMP/out" -- "$PROG" fork >/dev/null ||
		fail "exit status $?"
	sed -E 's/^[0-9]+ +//; s/ +=/ =/; s/(si_pid|si_uid|si_utime|si_stime)=[0-9]+/\1=N/g' \
		"$TMP/out" >"$TMP/norm"
	cat >"$TMP/want" <<'EOT'
write(1, "child\n", 6) = 6
+++ exited with 7 +++
--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=N, si_uid=N, si_status=7, si_utime=N, si_stime=N} ---
write(1, "child exit 7\n", 13) = 13
+++ exited with 0 +++
EOT
	same "$TMP/want" "$TMP/norm"
	[ "$(grep -cE '^[0-9]+ +[-w+]' "$TMP/out")" = 5 ] || fail "pid prefixes"
}

t_sigchld_pidns() {
	# A parent without a SIGCHLD handler in a new pid namespace whose
	# /proc is the old one's (unshare --pid without --mount-proc): the
	# child posts its end under the ids its parent has, its own in the
	# namespace (the program's SIGCHLD), /proc's for unshare, outside
	local n
	need_strace
	{ [ "$(id -u)" = 0 ] && unshare --pid --fork true 2>/dev/null; } ||
		{ echo "needs root and pid namespaces"; exit 77; }
	"$SG" -f -e trace=none -o "$TMP/sg" -- unshare --pid --fork -- "$PROG" fork \
		>/dev/null || fail "exit status $?"
	strace -f -e trace=none -o "$TMP/st" -- unshare --pid --fork -- "$PROG" fork \
		>/dev/null
	for n in sg st; do
		grep -o -- '--- SIGCHLD .*' "$TMP/$n" |
			sed -E 's/si_pid=[0-9]{3,}/si_pid=N/; s/(si_[us]time)=[^,}]*/\1=T/g' \
			>"$TMP/$n.norm"
	done
	same "$TMP/st.norm" "$TMP/sg.norm"
	[ "$(grep -c . "$TMP/sg.norm")" = 2 ] || fail "not two SIGCHLD lines"
}

t_ptrace_follow_fork() {
	# -m ptrace runs the hooks in the tracer: one exit line per traced
	# process, none for the tracer's own thread; and, as strace, the
	# parent's SIGCHLD, which a program that leaves it at its default
	# never lets in-process sysgate see: the whole of strace's lines.
	need_strace
	"$SG" -m ptrace -f -e trace=write -o "$TMP/out" -- "$PROG" fork \
		>/dev/null || fail "exit status $?"
	strace -f -e trace=write -o "$TMP/st" -- "$PROG" fork >/dev/null
	sed -E 's/^[0-9]+ +//; s/ +=/ =/; s/(si_pid)=[0-9]+/\1=N/' "$TMP/out" >"$TMP/norm"
	sed -E 's/^[0-9]+ +//; s/ +=/ =/; s/(si_pid)=[0-9]+/\1=N/' "$TMP/st" >"$TMP/want"
	same "$TMP/want" "$TMP/norm"
	[ "$(grep -c SIGCHLD "$TMP/norm")" = 1 ] || fail "no SIGCHLD line"
	# without -o: "[pid N] " only while more than one task lives (the
	# tracer counts them as in-process sysgate does)
	"$SG" -m ptrace -f -e trace=write -- "$PROG" fork 2>"$TMP/out" >/dev/null
	strace -f -e trace=write -- "$PROG" fork 2>"$TMP/st" >/dev/null
	sed -E 's/[0-9]+/N/g; s/ +=/ =/' "$TMP/out" >"$TMP/norm"
	sed -E '/^strace: Process [0-9]+ attached$/d; s/[0-9]+/N/g; s/ +=/ =/' \
		"$TMP/st" >"$TMP/want"
	same "$TMP/want" "$TMP/norm"
}

t_orphan_reaped() {
	# An orphaned grandchild that exits is reaped at once (by init, as
	# natively: sysgate is not the tree's subreaper), not left a zombie
	# until the program ends (the program waits here until it is gone:
	# once, when sysgate was the subreaper and did not reap, forever).
	"$SG" -f -e trace=none -o /dev/null -- sh -c '
		sh -c "true & echo \$! >$1"
		g=$(cat "$1")
		while [ -e /proc/$g ]; do sleep 0.01; done
		echo reaped' sh "$TMP/grandchild" >"$TMP/stdout" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = reaped ] || fail "output: $(cat "$TMP/stdout")"
}

t_orphaned_group_gets_sighup() {
	# A process group whose leader exits while a member is stopped is
	# orphaned: the kernel sends it SIGHUP and SIGCONT.  sysgate -f used
	# to be the tree's subreaper, a parent in the same session that kept
	# the group from being orphaned: the stopped member and the program
	# waiting for it hung forever.  (strace's orphaned_process_group.)
	local m out
	for m in "" "-m seccomp" "-m sud" "-m ptrace"; do
		# shellcheck disable=SC2086
		out=$("$SG" $m -f -e trace=none -o /dev/null -- python3 -c '
import os, signal
r, w = os.pipe()
leader = os.fork()
if leader == 0:
    os.close(r)
    os.setpgid(0, 0)
    s = os.fork()
    if s == 0:
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGSTOP)
        os._exit(0)
    os.waitpid(s, os.WUNTRACED)
    os._exit(0)
os.close(w)
os.waitpid(leader, 0)
os.read(r, 1)
print("orphan gone")') || fail "$m: exit status $?"
		[ "$out" = "orphan gone" ] || fail "$m: output: $out"
	done
}

t_pipe_helper_ends() {
	# A helper that lives until its parent's end of a pipe closes (as
	# CPython's resource_tracker and forkserver do) ends with its parent,
	# and the traced tree with it: no descriptor of sysgate's keeps the
	# pipe open.
	local m
	for m in "" --loader "-m seccomp"; do
		# shellcheck disable=SC2086
		"$SG" $m -f -c -o /dev/null -- bash -c '
			exec 3> >(setsid sh -c "cat >/dev/null; echo helper done")
			echo parent done' >"$TMP/stdout" || fail "$m: exit status $?"
		[ "$(sort "$TMP/stdout")" = "helper done
parent done" ] || fail "$m: output: $(cat "$TMP/stdout")"
	done
}

t_unfollowed_child_lets_go() {
	# Without -f, a child sysgate does not trace holds none of its
	# descriptors: a daemon that closed its stdio does not keep the
	# pipe reading sysgate's stderr open (before, the command
	# substitution waited for the daemon).
	local out
	mkfifo "$TMP/release"
	out=$("$SG" -c -e trace=write -- sh -c '
		(exec </dev/null >/dev/null 2>&1; read -r x <"$1") &
		echo started' sh "$TMP/release" 2>&1)
	echo >"$TMP/release"
	case $out in
	started*write*) ;;
	*) fail "output: $out" ;;
	esac
}

# stop_on SIGNAL [OPTIONS]: a traced tree that ignores SIGNAL; sysgate
# gets it once the tree runs.
# stop_on SIG OPTIONS...: SIG to sysgate alone while its program (a shell
# that ignores the stop signals, waiting for a sleep) runs.
stop_on() {
	local sig=$1 num
	shift
	num=$(kill -l "$sig")
	rm -f "$TMP/ready" "$TMP/c" "$TMP/pid"
	mkfifo "$TMP/ready"
	"$SG" "$@" -c -o "$TMP/c" -- sh -c 'trap "" TERM INT HUP QUIT
		sleep 1000 & echo $! >"$1"; echo ready >"$2"; wait; exit 7' sh \
		"$TMP/pid" "$TMP/ready" &
	local sg=$! rc
	read -r _ <"$TMP/ready"
	kill -"$sig" $sg
	case " $* " in
	*" -I2 "* | *" -I waiting "*)
		# -I waiting: as strace, the program gets the signal too
		# (ignored here), the -c table is printed, and sysgate dies
		# of the signal, leaving the tree to go on
		wait $sg
		rc=$?
		[ $rc = $((128 + num)) ] || fail "$sig $*: exit status $rc"
		kill -0 "$(cat "$TMP/pid")" 2>/dev/null ||
			fail "$sig $*: the tree was killed"
		kill -KILL "$(cat "$TMP/pid")" ;;
	*)
		# -o FILE: -I never, as strace's default there: the signal
		# passes, and the run ends with the program
		sleep 0.3
		kill -0 $sg 2>/dev/null || fail "$sig $*: sysgate ended"
		kill -KILL "$(cat "$TMP/pid")"
		wait $sg
		rc=$?
		[ $rc = 7 ] || fail "$sig $*: exit status $rc" ;;
	esac
	grep -q ' total$' "$TMP/c" || fail "$sig $*: no -c table: $(cat "$TMP/c")"
}

t_stop_signal_finishes() {
	# SIGTERM, SIGINT or SIGHUP to sysgate, as to strace under its -I
	# defaults (waiting; never with -o FILE).  (Before, sysgate killed
	# the whole tree with SIGKILL.)
	stop_on TERM -f -I2
	stop_on INT -f -I waiting
	stop_on HUP -I2
	stop_on TERM -f
	stop_on INT
}

t_ignored_signals_stay_ignored() {
	# nohup's SIGHUP (and SIGINT, SIGTERM...) ignored when sysgate
	# starts: the program inherits them ignored, as natively (before,
	# the command's own handlers, set before the program started, were
	# reset to the default action by its execve).
	local want got o
	want=$(bash -c "trap '' HUP INT QUIT TERM PIPE
		exec grep SigIgn /proc/self/status")
	for o in "-e trace=none" "-o /dev/null" "-I1 -e trace=none" \
		 "-I4 -c -o /dev/null"; do
		got=$(bash -c "trap '' HUP INT QUIT TERM PIPE
			exec $SG $o -- grep SigIgn /proc/self/status" 2>/dev/null)
		[ "$got" = "$want" ] || fail "$o: $got, natively $want"
	done
}

t_interrupted_program_as_native() {
	# ^C reaches the whole foreground process group: a program that
	# handles SIGINT finishes as natively, with its own exit status
	# (before, sysgate killed it with SIGKILL and exited 0).
	command -v python3 >/dev/null || { echo "python3 missing"; exit 77; }
	cat >"$TMP/ki.py" <<'PY'
import os, signal, subprocess, sys, time
if sys.argv[1:] == ["child"]:
    try:
        open(sys.argv[0] + ".ready", "w").close()
        time.sleep(30)
    except KeyboardInterrupt:
        print("caught", flush=True)
        sys.exit(3)
p = subprocess.Popen(sys.argv[1:] + [sys.executable, sys.argv[0], "child"],
                     stdout=subprocess.PIPE, start_new_session=True)
while not os.path.exists(sys.argv[0] + ".ready"):
    time.sleep(0.01)
os.remove(sys.argv[0] + ".ready")
os.killpg(p.pid, signal.SIGINT)
out = p.communicate()[0].decode().split()
print(p.returncode, *out)
PY
	local want got
	want=$(python3 "$TMP/ki.py")
	[ "$want" = "3 caught" ] || fail "natively: $want"
	for o in "-f -o $TMP/tr" "-o $TMP/tr" "-I never -e trace=none" \
		 "-f -I3 -c"; do
		got=$(python3 "$TMP/ki.py" "$SG" $o --)
		[ "$got" = "$want" ] || fail "$o: $got"
	done
	# -I waiting (the default without -o): sysgate ends as strace does,
	# killed by the signal, the program's handler run
	got=$(python3 "$TMP/ki.py" "$SG" -f -e trace=none --)
	[ "$got" = "-2 caught" ] || fail "-I waiting: $got"
}

t_ff_exec_same_file() {
	# -ff: a process that execs goes on in its own FILE.PID (the
	# descriptor is handed down); before, the new program truncated it
	# and the calls before the exec were lost.
	"$SG" -ff -e trace=write,execve -o "$TMP/out" -- \
		sh -c 'echo a; exec /bin/echo b' >/dev/null || fail "exit status $?"
	[ "$(ls "$TMP"/out.* | wc -l)" = 1 ] || fail "files: $(ls "$TMP")"
	grep -q '^write(1, "a\\n", 2)' "$TMP"/out.* ||
		fail "calls before the exec lost: $(cat "$TMP"/out.*)"
	grep -q '^write(1, "b\\n", 2)' "$TMP"/out.* || fail "after exec: $(cat "$TMP"/out.*)"
}

t_trace_survives_stderr_redirect() {
	# The trace goes where sysgate's goes, as strace's does, even for a
	# program started after the shell sent its own stderr elsewhere
	# (before, the new program traced into /dev/null).
	"$SG" -f -e trace=write -- sh -c 'exec 2>/dev/null; /bin/echo x' \
		>/dev/null 2>"$TMP/err" || fail "exit status $?"
	grep -q 'write(1, "x\\n", 2)' "$TMP/err" || fail "trace lost: $(cat "$TMP/err")"
}

t_su_keeps_tracing() {
	# A followed program that changes its uid keeps the output and the
	# -c state it inherited (before: "cannot open output file", and
	# the calls after setuid were not counted).
	[ "$(id -u)" = 0 ] || { echo "needs root (su to nobody)"; exit 77; }
	command -v su >/dev/null && id nobody >/dev/null 2>&1 ||
		{ echo "su or user nobody missing"; exit 77; }
	chmod 755 "$TMP"
	"$SG" -f -c -o "$TMP/c" -- su nobody -s /bin/sh -c "id -u; $PROG getppid 7" \
		>"$TMP/stdout" 2>"$TMP/err" || fail "exit status $?: $(cat "$TMP/err")"
	[ "$(head -1 "$TMP/stdout")" = "$(id -u nobody)" ] ||
		fail "output: $(cat "$TMP/stdout")"
	[ ! -s "$TMP/err" ] || fail "stderr: $(cat "$TMP/err")"
	[ "$(calls_of "$TMP/c" getppid)" -ge 7 ] || fail "not counted: $(cat "$TMP/c")"
}

t_output_error_said() {
	# A write of -o FILE that fails (a full disk) is said at the end,
	# as strace says it, with the program's own exit status (before:
	# the trace was lost without a word).
	[ -w /dev/full ] || { echo "no /dev/full"; exit 77; }
	for f in "" -f; do
		"$SG" $f -o /dev/full -- sh -c 'exit 3' 2>"$TMP/err"
		[ $? = 3 ] || fail "$f: exit status"
		[ "$(cat "$TMP/err")" = "sysgate: /dev/full: No space left on device" ] ||
			fail "$f: $(cat "$TMP/err")"
	done
	"$SG" -o "$TMP/out" -- /bin/true 2>"$TMP/err" || fail "exit status $?"
	[ ! -s "$TMP/err" ] || fail "said: $(cat "$TMP/err")"
}

t_tracer_reads_without_vm_readv() {
	# sysgate under sysgate traces its program with -m ptrace; where the
	# outer one makes process_vm_readv fail (strace's legacy tests), the
	# inner one reads the tracee's memory through /proc/PID/mem, as
	# strace falls back to PTRACE_PEEKDATA (before: chdir(0x55...)).
	"$SG" -qq -e signal=none -o /dev/null -e trace=process_vm_readv \
		-e fault=process_vm_readv \
		"$SG" -e trace=chdir -o "$TMP/log" sh -c 'cd /tmp' 2>/dev/null ||
		fail "exit status $?"
	grep -q '^chdir("/tmp") *= 0$' "$TMP/log" || fail "$(cat "$TMP/log")"
}

t_detach_on_execve() {
	# -b execve: a traced execve's program runs without sysgate once it
	# has started, its line ended " <detached ...>" as strace ends it:
	# the same lines as strace's, and the program sees no trace of
	# sysgate (maps, environment, signal mask and ignored signals).
	need_strace
	norm() { sed -E 's/^[0-9]+ +/P /; s/0x[0-9a-f]+/0xN/g; s/si_pid=[0-9]+/si_pid=N/' "$1"; }
	strace -f -qq -e trace=execve,exit_group -b execve -o "$TMP/st" -- \
		sh -c '/bin/true; exec /bin/echo hi' >/dev/null
	"$SG" -f -qq -e trace=execve,exit_group -b execve -o "$TMP/sg" -- \
		sh -c '/bin/true; exec /bin/echo hi' >"$TMP/out" ||
		fail "exit status $?"
	[ "$(cat "$TMP/out")" = hi ] || fail "output: $(cat "$TMP/out")"
	[ "$(norm "$TMP/sg")" = "$(norm "$TMP/st")" ] ||
		fail "$(diff <(norm "$TMP/st") <(norm "$TMP/sg"))"
	"$SG" -o /dev/null -b execve -- sh -c 'trap "" USR1; exec cat /proc/self/maps /proc/self/environ /proc/self/status' \
		>"$TMP/self" || fail "exit status $?"
	# (the environment's _ is the shell's path to sysgate, as natively)
	! grep -aq -e sysgate-loader -e SYSGATE_ -e 'memfd:sysgate' "$TMP/self" ||
		fail "$(grep -a -e sysgate-loader -e SYSGATE_ -e memfd:sysgate "$TMP/self")"
	grep -q '^SigIgn:.*[2367abef]..$' "$TMP/self" || fail "$(grep Sig "$TMP/self")"
	# -c counts only the execve calls that came back (strace -c's)
	"$SG" -f -c -b execve -o "$TMP/c" -- sh -c '/bin/true; exec /bin/echo hi' \
		>/dev/null || fail "exit status $?"
	[ "$(calls_of "$TMP/c" execve)" = 1 ] || fail "$(cat "$TMP/c")"
	# the program's own status (strace's exits 0)
	"$SG" -o /dev/null -b execve -- sh -c 'exec sh -c "exit 5"'
	[ $? = 5 ] || fail "exit status"
	"$SG" -o "$TMP/m" -b execve -- sh -c 'exec true' || fail "exit status $?"
	grep -q '^sysgate: Process [0-9]* detached$' "$TMP/m" || fail "$(cat "$TMP/m")"
	for m in seccomp ptrace; do
		"$SG" -b execve -m $m true 2>"$TMP/err" && fail "-m $m: exit 0"
		[ "$(cat "$TMP/err")" = "sysgate: -b execve is not available with -m $m" ] ||
			fail "$(cat "$TMP/err")"
	done
}

t_su_keeps_the_tree() {
	# su's child drops to the user's ids, then runs the shell: the state
	# is opened again for that execve, which the ids no longer allow
	# unless a descriptor was kept before the setuid (before: the shell
	# started a tree of its own, and its execve line came again as
	# "<unfinished ...>" when su reaped it).
	[ "$(id -u)" = 0 ] || { echo "needs root (su to nobody)"; exit 77; }
	command -v su >/dev/null && id nobody >/dev/null 2>&1 ||
		{ echo "su or user nobody missing"; exit 77; }
	"$SG" -f -e trace=execve,exit_group -o "$TMP/t" -- \
		su nobody -s /bin/sh -c 'sh -c /bin/true; true' \
		2>"$TMP/err" || fail "exit status $?: $(cat "$TMP/err")"
	! grep -q unfinished "$TMP/t" || fail "$(cat "$TMP/t")"
	[ "$(grep -c '^[0-9]* *execve(.*) = 0$' "$TMP/t")" = 4 ] &&
		[ "$(grep -c '^[0-9]* *+++ exited with 0 +++$' "$TMP/t")" = 4 ] ||
		fail "$(cat "$TMP/t")"
}

t_set_id_not_traced() {
	# A set-ID program (static, and dynamic, where ld.so ignores
	# LD_PRELOAD) cannot be followed: it runs as natively, with its
	# owner's uid (before: as root through the loader), and sysgate says
	# so; under -m seccomp, which can run nothing else, it is refused.
	[ "$(id -u)" = 0 ] || { echo "needs root (a program set-ID to nobody)"; exit 77; }
	id nobody >/dev/null 2>&1 || { echo "user nobody missing"; exit 77; }
	chmod 755 "$TMP"
	cp "$BUILD/tests/cli/prog-static" "$TMP/static"
	cp "$PROG" "$TMP/dynamic"
	chown nobody "$TMP/static" "$TMP/dynamic"
	chmod u+s "$TMP/static" "$TMP/dynamic"
	run="$TMP/static euid; $TMP/dynamic euid"
	sh -c "$run" >"$TMP/native" || fail "native run: exit status $?"
	grep -q "^euid $(id -u nobody)$" "$TMP/native" ||
		{ echo "set-ID bits ignored here (nosuid?)"; exit 77; }
	for m in "" --loader; do
		"$SG" $m -f -c -o "$TMP/log" -- sh -c "$run" >"$TMP/out" ||
			fail "$m: exit status $?"
		same "$TMP/native" "$TMP/out"
		for p in static dynamic; do
			[ "$(grep -c "^sysgate: $TMP/$p is set-ID: not traced$" "$TMP/log")" = 1 ] ||
				fail "$m: not said once: $(cat "$TMP/log")"
		done
	done
	# started by the CLI itself: the line on its stderr
	"$SG" -c -o "$TMP/log" -- "$TMP/static" euid >"$TMP/out" 2>"$TMP/err" ||
		fail "exit status $?"
	[ "$(cat "$TMP/out")" = "euid $(id -u nobody)" ] || fail "ran as: $(cat "$TMP/out")"
	[ "$(cat "$TMP/err")" = "sysgate: $TMP/static is set-ID: not traced" ] ||
		fail "stderr: $(cat "$TMP/err")"
	"$SG" --list-mechanisms | grep -q "^seccomp *available" || return 0
	"$SG" -m seccomp -f -o "$TMP/log" -- sh -c "$TMP/static euid" >"$TMP/out" 2>&1 &&
		fail "-m seccomp ran it: $(cat "$TMP/out")"
	grep -q "^sysgate: $TMP/static is set-ID: -m seccomp cannot run it$" "$TMP/log" ||
		fail "-m seccomp: $(cat "$TMP/log")"
	"$SG" -m seccomp -- "$TMP/static" euid >"$TMP/out" 2>"$TMP/err" &&
		fail "-m seccomp ran it: $(cat "$TMP/out")"
	[ "$(cat "$TMP/err")" = "sysgate: $TMP/static is set-ID: -m seccomp cannot run it" ] ||
		fail "-m seccomp, stderr: $(cat "$TMP/err")"
}

t_tight_address_space() {
	# Under a low RLIMIT_AS (ulimit -v) sysgate keeps its regions small
	# (shared state, stubs) and says so under --stats: the program and
	# -c work.  12 MiB: enough for the program, sysgate's code and the
	# small regions (9 MiB do here); before, the 4 MiB state and 1 MiB
	# stub regions needed 16 MiB, and the program died or sysgate
	# refused to start.
	for m in "" --loader "-m seccomp" "-m sud"; do
		case $m in -m*) "$SG" --list-mechanisms | grep -q "^${m#-m } *available" || continue ;; esac
		(ulimit -v 12288 && exec "$SG" $m --stats -c -o "$TMP/c" -- "$PROG" basic) \
			>"$TMP/out" 2>"$TMP/err" || fail "$m: exit status $?: $(cat "$TMP/err")"
		[ "$(cat "$TMP/out")" = hello ] || fail "$m: output: $(cat "$TMP/out")"
		grep -q ' total$' "$TMP/c" || fail "$m: no count table: $(cat "$TMP/c")"
		grep -q '^sysgate: RLIMIT_AS is tight' "$TMP/c" || fail "$m: not said: $(cat "$TMP/c")"
	done
}

t_no_follow() {
	# Without -f the child runs unhooked, like strace without -f.
	"$SG" -e trace=write -o "$TMP/out" -- "$PROG" fork >/dev/null
	grep -q 'write(1, "child\\n"' "$TMP/out" && fail "child traced without -f"
	grep -q 'child exit 7' "$TMP/out" || fail "parent not traced"
}

t_ff_files() {
	"$SG" -ff -e trace=write -o "$TMP/log" -- "$PROG" fork >/dev/null
	n=$(ls "$TMP"/log.* | wc -l)
	[ "$n" = 2 ] || fail "$n files"
	cat "$TMP"/log.* | grep -c '^write' | grep -qx 2 || fail "writes"
}

t_exec() {
	"$SG" -e trace=execve,write -o "$TMP/out" -- "$PROG" exec >/dev/null
	grep -qE '^execve\(".*/prog", \[".*/prog", "basic"\], 0x[0-9a-f]+ /\* [0-9]+ vars \*/\) += 0$' \
		"$TMP/out" || { cat "$TMP/out"; fail "execve line"; }
	grep -q '^write(1, "hello' "$TMP/out" || fail "not followed into the new program"
}

t_json() {
	"$SG" --preload --json -e trace=$TRACED -o "$TMP/out" -- "$PROG" basic >/dev/null
	python3 - "$TMP/out" <<'EOT' || fail "bad JSON"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert recs[0]["type"] == "start" and recs[0]["schema"] == 2, recs[0]
calls = [r for r in recs if r.get("type", "syscall") == "syscall"]
names = [r["name"] for r in calls]
assert names == ["write", "openat", "close", "openat", "read", "lseek",
                 "lseek", "close"], names
bad = calls[1]
assert bad["ret"] == -2 and bad["err"] == "ENOENT", bad
assert bad["args"] == ["AT_FDCWD", "/nonexistent/sysgate", "O_RDONLY"], bad
assert calls[0]["args"] == [1, "hello\n", 6] and calls[0]["ret"] == 6, calls[0]
assert any(r.get("type") == "exit" for r in recs), recs[-1]
EOT
}

t_trace_none_events() {
	# -e trace=none traces no call, but strace still prints each
	# process's end: under -f the child's "+++ exited with 7 +++" too
	# (before, only the root's line, and with a "[pid N]" prefix).
	"$SG" -f -e trace=none -o "$TMP/sg" -- "$PROG" fork >/dev/null ||
		fail "exit status $?"
	grep -q ' +++ exited with 7 +++$' "$TMP/sg" || fail "no child line: $(cat "$TMP/sg")"
	grep -q '^[0-9]* *+++ exited with 0 +++$' "$TMP/sg" || fail "no root line: $(cat "$TMP/sg")"
	grep -q ' --- SIGCHLD {.*si_status=7,' "$TMP/sg" || fail "no SIGCHLD line: $(cat "$TMP/sg")"
	[ "$(grep -vc '+++ exited\|--- SIGCHLD' "$TMP/sg")" = 0 ] || fail "other lines: $(cat "$TMP/sg")"
	if command -v strace >/dev/null; then
		strace -f -e trace=none -o "$TMP/st" -- "$PROG" fork >/dev/null
		diff <(grep -o -- '[-+]\{3\} [^{]*' "$TMP/st") \
			<(grep -o -- '[-+]\{3\} [^{]*' "$TMP/sg") >&2 ||
			fail "not strace's events"
	fi
	# with -qq and -e signal=none nothing is left to print
	"$SG" -f -e trace=none -qq -e signal=none -o "$TMP/none" -- "$PROG" fork \
		>/dev/null || fail "exit status $?"
	[ ! -s "$TMP/none" ] || fail "-qq: $(cat "$TMP/none")"
}

t_status_filter_exec() {
	# -e status= decides a followed execve's line too (it printed under
	# status=none), and a status filter holds each line whole as strace
	# does: no "<unfinished ...>" split (rt_sigreturn's status, what it
	# restores: strace/sigdeliver-ok).  (-ff: one file per process, as
	# the processes' lines interleave as they run; no SIGCHLD, which
	# comes before or during the parent's wait4 as the child runs.)
	local st n f
	need_strace
	for st in none successful failed unfinished '!successful'; do
		for n in sg st; do
			rm -rf "$TMP/$n" && mkdir "$TMP/$n"
			if [ $n = sg ]; then
				"$SG" -ff -e status="$st" -e signal=none \
					-e trace='!rt_sigreturn' -o "$TMP/$n/log" -- sh -c \
					'/bin/true; exec /bin/true' || fail "exit $?"
			else
				strace -ff -e status="$st" -e signal=none \
					-e trace='!rt_sigreturn' -o "$TMP/$n/log" -- sh -c \
					'/bin/true; exec /bin/true'
			fi
			for f in $(ls "$TMP/$n" | sort -t. -k2n); do
				echo "== process"
				sed -E 's/0x[0-9a-f]+/0x/g; s/[0-9]+/N/g; s/getrandom\("[^"]*"/getrandom(""/; s/ +=/ =/' \
					"$TMP/$n/$f"
			done >"$TMP/$n.n"
		done
		diff "$TMP/st.n" "$TMP/sg.n" >&2 || fail "status=$st: not strace's lines"
	done
}

t_ff_vfork_child() {
	# -ff: a vfork child runs on its parent's memory but is a process:
	# its lines and its program's go to FILE.<its pid>, as strace
	# writes them (they went to the parent's file).  (No signal lines:
	# SIGCHLD, ignored by default, is not seen in-process.)
	local n f
	need_strace
	for n in sg st; do
		mkdir "$TMP/$n"
		if [ $n = sg ]; then
			"$SG" -ff -e trace=getppid,execve,exit_group -e signal=none -o "$TMP/$n/log" \
				-- "$PROG" vfork-ppid >/dev/null || fail "exit $?"
		else
			strace -ff -e trace=getppid,execve,exit_group -e signal=none -o "$TMP/$n/log" \
				-- "$PROG" vfork-ppid >/dev/null
		fi
		for f in $(ls "$TMP/$n" | sort -t. -k2n); do
			echo "== process"
			sed -E 's/0x[0-9a-f]+/0x/g; s/[0-9]+/N/g; s/ +=/ =/' "$TMP/$n/$f"
		done >"$TMP/$n.n"
	done
	[ "$(ls "$TMP/sg" | wc -l)" = 2 ] || fail "files: $(ls "$TMP/sg")"
	diff "$TMP/st.n" "$TMP/sg.n" >&2 || fail "not strace's files"
}

t_ff_after_chdir() {
	# -ff -o with a relative name: a child forked after the program
	# changed its directory writes FILE.<pid> where sysgate was started,
	# as strace does (it went to the program's new directory).
	local sg
	sg=$(realpath "$SG")
	mkdir "$TMP/d" "$TMP/away"
	(cd "$TMP/d" && "$sg" -ff -o log -- sh -c "cd '$TMP/away'; /bin/true") ||
		fail "exit $?"
	[ "$(ls "$TMP/d" | wc -l)" = 2 ] || fail "in place: $(ls "$TMP/d")"
	[ -z "$(ls "$TMP/away")" ] || fail "in the program's directory: $(ls "$TMP/away")"
}

t_trace_personality() {
	# strace's personality designators: @64 is the program's own
	# calls; @32 and @x32 (i386's and x32's) are calls sysgate never
	# sees (tokens checked, nothing traced); another is an error.
	local e
	need_strace
	for e in write@64 %desc@64 '/^(write|lseek)$@64' 1@64 write@32 \
		%file@x32 all@32 '?nosuch@32' write@32,lseek; do
		"$SG" -e trace="$e" -o "$TMP/sg" -- "$PROG" basic >/dev/null ||
			fail "$e: exit status $?"
		strace -e trace="$e" -o "$TMP/st" -- "$PROG" basic >/dev/null
		case $e in
		*@64)	# (from the program's write: ld.so's maps differ)
			from_main "$TMP/st" >"$TMP/st.calls"
			from_main "$TMP/sg" >"$TMP/sg.calls"
			grep -q . "$TMP/st.calls" ||
				fail "$e: strace traced no write" ;;
		*)	grep -v '^+++ exited' "$TMP/st" >"$TMP/st.calls"
			grep -v '^+++ exited' "$TMP/sg" >"$TMP/sg.calls" ;;
		esac
		same "$TMP/st.calls" "$TMP/sg.calls"
	done
	"$SG" -e trace=write@33 -- true 2>"$TMP/err" && fail "@33 accepted"
	grep -qx "sysgate: incorrect personality designator '33' in qualification 'write@33'" \
		"$TMP/err" || fail "@33: $(cat "$TMP/err")"
}

t_strace_long_options() {
	# strace's long spellings give what its letters and -e expressions
	# give (strace's own test suite uses them; they were refused).
	local pair long short
	for pair in "--no-abbrev|-v" "--syscall-number|-n" \
		"--successful-only|-z" "--failed-only|-Z" "--columns=30|-a30" \
		"--strings-in-hex=all|-xx" "--strings-in-hex|-xx" \
		"--strings-in-hex=non-ascii|-x" "-xxx|-xx" \
		"--decode-fds=path|-y" "--decode-fds=all|-yy" \
		"-edecode-fd=path|-y" "--signal=none|-esignal=none" \
		"--status=failed|-estatus=failed" "--quiet=exit|-equiet=exit" \
		"--trace-path=/dev/null|-P/dev/null" "--write=2|-ewrite=2" \
		"--silent=exit|-eq=exit" "--silence=exit|-equiet=exit" \
		"--silence|-q" "-es=none|-esignal=none" "-ew=1|-ewrite=1" \
		"-ewrites=1|-ewrite=1" "-er=3|-eread=3" "-ereads=3|-eread=3" \
		"-et=write|-etrace=write" "--interruptible=never|-I3"; do
		long=${pair%%|*} short=${pair#*|}
		"$SG" "$long" -e trace=openat,read,close,write -- "$PROG" \
			>/dev/null 2>"$TMP/long" || fail "$long: exit status $?"
		"$SG" "$short" -e trace=openat,read,close,write -- "$PROG" \
			>/dev/null 2>"$TMP/short" || fail "$short: exit status $?"
		diff -u "$TMP/short" "$TMP/long" >&2 || fail "$long differs from $short"
	done
	# --strings-in-hex=none is the default; non-ascii-chars: only the
	# bytes that are neither printable nor a C escape, as \x.. (the
	# default's octal); not with -x (strace's errors)
	"$SG" --strings-in-hex=none -e trace=write -- printf 'a\001\n' \
		2>&1 >/dev/null | grep -qx 'write(1, "a\\1\\n", 3) *= 3' ||
		fail "--strings-in-hex=none"
	"$SG" --strings-in-hex=non-ascii-chars -e trace=write -- \
		printf 'a\001\n' 2>&1 >/dev/null |
		grep -qx 'write(1, "a\\x01\\n", 3) *= 3' ||
		fail "--strings-in-hex=non-ascii-chars"
	out=$("$SG" -x --strings-in-hex=all -- true 2>&1) && fail "-x with --strings-in-hex"
	[ "$out" = "sysgate: -x and --strings-in-hex cannot be provided simultaneously" ] ||
		fail "-x with --strings-in-hex: $out"
	out=$("$SG" --strings-in-hex=al -- true 2>&1) && fail "--strings-in-hex=al"
	[ "$out" = "sysgate: invalid --strings-in-hex argument: 'al'" ] ||
		fail "--strings-in-hex=al: $out"
	# timestamps: the format -t, -tt and -ttt print
	"$SG" --absolute-timestamps=precision:us -e trace=write -- "$PROG" \
		2>&1 >/dev/null | grep -qE '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6} write' ||
		fail "--absolute-timestamps=precision:us"
	"$SG" --timestamps=format:unix,precision:us -e trace=write -- "$PROG" \
		2>&1 >/dev/null | grep -qE '^[0-9]{9,}\.[0-9]{6} write' ||
		fail "--timestamps=format:unix,precision:us"
}

t_time_precisions() {
	# strace's precisions s, ms, us and ns for -t's, -r's and -T's times
	# (strace's own suite runs each), given as strace's tests give them
	local opts re
	while IFS='|' read -r opts re; do
		# shellcheck disable=SC2086 # the options are words
		"$SG" $opts -e trace=write -qq -- "$PROG" 2>&1 >/dev/null |
			grep -qE "$re" || fail "$opts: $("$SG" $opts -e trace=write \
				-qq -- "$PROG" 2>&1 >/dev/null | head -1)"
	done <<'EOT'
--timestamps=time,ms|^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} write
--absolute-timestamps=format:time --absolute-timestamps=precision:ns|^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{9} write
--timestamps=unix,s|^[0-9]{9,} write
--absolute-timestamps=precision:ms --absolute-timestamps=format:unix|^[0-9]{9,}\.[0-9]{3} write
--timestamps|^[0-9]{2}:[0-9]{2}:[0-9]{2} write
--relative-timestamps=s|^ {5}[0-9] write
--relative-timestamps=ns|^ {5}[0-9]\.[0-9]{9} write
--relative-timestamps=ms|^ {5}[0-9]\.[0-9]{3} write
--syscall-times=ns|^write\(.* <[0-9]+\.[0-9]{9}>$
--syscall-times=s|^write\(.* <[0-9]+>$
--syscall-times=ms -tt|^[0-9:]{8}\.[0-9]{6} write\(.* <[0-9]+\.[0-9]{3}>$
EOT
	# what strace refuses: one line
	for opts in "--timestamps=precision:ps" "--timestamps=format:ns" \
		"-t --timestamps=ns" "--syscall-times=us,ms"; do
		# shellcheck disable=SC2086 # the options are words
		"$SG" $opts -- "$PROG" >/dev/null 2>"$TMP/err" &&
			fail "$opts accepted"
		[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$opts: $(cat "$TMP/err")"
	done
}

t_trace_list_items() {
	# strace skips empty items and takes names of its other
	# personalities (mmap2, fcntl64: sysgate sees x86-64's calls only)
	"$SG" -e trace=write -qq -o "$TMP/want" -- "$PROG" >/dev/null ||
		fail "exit status $?"
	for set in ,write write, ,,write,,mmap2 mmap2,write,fcntl64 \
		'?nosuch,write'; do
		"$SG" -e trace="$set" -qq -o "$TMP/got" -- "$PROG" >/dev/null ||
			fail "trace=$set: exit status $?"
		same "$TMP/want" "$TMP/got"
	done
}

t_times_decoded() {
	# times()'s struct as strace prints it: clock ticks, and seconds in
	# a comment unless 0 or -X raw (the values differ from run to run)
	command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
	local t='tms_[a-z]*time=(0|[1-9][0-9]* /\* [0-9]+\.[0-9]{2} s \*/)'
	"$SG" -qq -e signal=none -e trace=times -o "$TMP/out" -- \
		python3 -c 'import os; os.times()' || fail "exit status $?"
	grep -qE "^times\(\{$t, $t, $t, $t\}\) = [0-9]+$" "$TMP/out" ||
		fail "$(cat "$TMP/out")"
	"$SG" -qq -X raw -e signal=none -e trace=times -o "$TMP/out" -- \
		python3 -c 'import os; os.times()' || fail "exit status $?"
	grep -qE '^times\(\{(tms_[a-z]*time=[0-9]+(, |\})){4}\) = [0-9]+$' \
		"$TMP/out" || fail "-X raw: $(cat "$TMP/out")"
}

t_bad_input() {
	marker=$TMP/started
	while IFS= read -r args; do
		rm -f "$marker"
		eval "set -- $args"
		"$SG" "$@" touch "$marker" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		[ $rc -ne 0 ] || fail "'$args': exit status 0"
		[ ! -e "$marker" ] || fail "'$args': the program was started"
		[ "$(wc -l <"$TMP/err")" = 1 ] || fail "'$args': $(cat "$TMP/err")"
		grep -q '^sysgate: ' "$TMP/err" || fail "'$args': $(cat "$TMP/err")"
		[ ! -s "$TMP/out" ] || fail "'$args' wrote to stdout"
	done <<'EOT'
-e trace=nosuch --
-e trace=/[ --
-e trace=, --
-e trace=!,, --
-e inject=openat:error=EBOGUS --
-e inject=openat --
-e inject=openat:error=ENOENT:when=0 --
-e bogus=1 --
-o /nonexistent/dir/x --
-m nosuch --
-s abc --
--bogus --
--hook=/nonexistent.so --
--hook=/lib/x86_64-linux-gnu/libm.so.6 --
-E --
-S nosuch --
-U nosuch -c --
--loader --hook=build/hooks/null.so --
--decode-pids=bogus --
-m ptrace --decode-pids=pidns --
--json -Y --
-b chdir --
--detach-on=chdir --
-b execve --preload --
EOT
	for prog in /nonexistent /etc/passwd /; do
		"$SG" -- $prog >"$TMP/out" 2>"$TMP/err" && fail "$prog: exit 0"
		[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$prog: $(cat "$TMP/err")"
	done
	"$SG" >/dev/null 2>&1 && fail "no program: exit 0"
	# strace's words for -b: the first syscall it cannot detach on
	[ "$("$SG" -b execve --detach-on=chdir true 2>&1)" = \
	  "sysgate: Syscall 'chdir' for -b isn't supported" ] ||
		fail "-b chdir: $("$SG" -b execve --detach-on=chdir true 2>&1)"
	return 0
}

t_stats() {
	"$SG" --stats -e trace=write -o "$TMP/out" -- "$PROG" basic >/dev/null
	grep -q 'mechanism patch: [0-9]* syscall sites' "$TMP/out" || { cat "$TMP/out"; fail "no stats"; }
	grep -q 'libc.so' "$TMP/out" || fail "libc not listed"
}

# the per-object lines of --stats (what was patched how)
site_lines() { grep 'sysgate:   /' "$1" | sort; }

t_writes_nothing() {
	# Nothing appears where the program looks: HOME and the working
	# directory are a scratch tree, byte-identical after the run.
	local sg prog
	sg=$(realpath "$SG") prog=$(realpath "$PROG")
	mkdir -p "$TMP/home/sub"
	echo x >"$TMP/home/sub/f"
	(cd "$TMP/home" && find . -printf '%p %s %m\n' | sort) >"$TMP/before"
	(cd "$TMP/home" && HOME=$TMP/home "$sg" -f -c -o "$TMP/out" \
		-- "$prog" basic >/dev/null) || fail "exit status $?"
	(cd "$TMP/home" && HOME=$TMP/home "$sg" -f -e trace=none -- "$prog" basic \
		>/dev/null) || fail "exit status $?"
	(cd "$TMP/home" && find . -printf '%p %s %m\n' | sort) >"$TMP/after"
	same "$TMP/before" "$TMP/after"
}

t_tree_shares_plans() {
	# With --eager, the processes of one tree plan libc once: the later ones take the
	# first one's plan from the shared state (memory only) and patch the
	# same sites the same way.
	"$SG" --eager -f --stats -c -o "$TMP/out" -- sh -c "$PROG basic; $PROG basic" \
		>"$TMP/stdout" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = "$(printf 'hello\nhello')" ] ||
		fail "output: $(cat "$TMP/stdout")"
	grep -q ' [1-9] planned by another process' "$TMP/out" ||
		fail "not shared: $(grep 'syscall sites' "$TMP/out")"
	grep 'sysgate:   /.*libc.so' "$TMP/out" | sort -u >"$TMP/libc"
	[ "$(wc -l <"$TMP/libc")" = 1 ] || fail "libc patched differently: $(cat "$TMP/libc")"
}

# The getppid calls of `sh -c` itself (dash asks for $PPID).
shell_getppid() {
	"$SG" -f -c -o "$TMP/sh" -- sh -c ":; :" || fail "sh: exit status $?"
	echo $(($(calls_of "$TMP/sh" getppid) + 0))
}

t_tree_shares_first_traps() {
	# A site one process of a tree patched at its third trap is patched
	# in the tree's later processes when they map its object, before it
	# runs (a shell script's children trapped some hundred times each
	# at sites their parents had planned); every call still counted.
	need_sud
	local shell
	shell=$(shell_getppid)
	"$SG" -f --stats -c -o "$TMP/out" -- sh -c \
		"$PROG getppid 5; $PROG getppid 5" >"$TMP/stdout" ||
		fail "exit status $?"
	[ "$(wc -l <"$TMP/stdout")" = 2 ] || fail "output: $(cat "$TMP/stdout")"
	grep -Eq '^sysgate: patched before they ran, as the tree.s earlier processes planned them: [1-9][0-9]* sites$' \
		"$TMP/out" || fail "none taken: $(grep sysgate "$TMP/out")"
	[ "$(calls_of "$TMP/out" getppid)" = $((shell + 10)) ] ||
		fail "getppid: $(cat "$TMP/out")"
	# Alone, a process has no tree to take them from.
	"$SG" --stats -c -o "$TMP/out1" -- "$PROG" getppid 5 >/dev/null ||
		fail "alone: exit status $?"
	grep -q 'patched before they ran' "$TMP/out1" &&
		fail "alone: $(grep sysgate "$TMP/out1")"
	return 0
}

t_caught_window_counts_the_call() {
	# tests/behave/branch-to-syscall's site takes a jump window without
	# its object's read (a breakpoint on its syscall, --stats says so),
	# and the call a jump from another function makes there is counted:
	# getppid twice, the program's own and the one through that syscall.
	need_sud
	"$SG" --stats -c -o "$TMP/out" -- "$BUILD/tests/behave/branch-to-syscall" \
		>"$TMP/stdout" || fail "exit status $?"
	grep -q EXIT-SUCCESS "$TMP/stdout" || fail "output: $(cat "$TMP/stdout")"
	grep -q '^sysgate:   jump windows taken without their object.s read, a breakpoint on their syscall: 1$' \
		"$TMP/out" || fail "no such window: $(grep sysgate "$TMP/out")"
	[ "$(calls_of "$TMP/out" getppid)" = 2 ] || fail "getppid: $(cat "$TMP/out")"
}

t_first_trap_planned() {
	# Where SUD exists no object is read at start: each site is hooked
	# by its traps and planned at the third (one that runs once or
	# twice costs less left to them: an object none of whose sites
	# runs three times is not even looked at), patched as a planned
	# site would be, and counted as strace counts (-c equal to strace's
	# is count-same-as-strace; here: what --stats says was planned).
	need_sud
	"$SG" --stats -c -o "$TMP/out" -- "$PROG" getppid 5 >"$TMP/stdout" ||
		fail "exit status $?"
	[ "$(cat "$TMP/stdout")" -gt 1 ] || fail "output: $(cat "$TMP/stdout")"
	grep -q 'libc.so.6: not read, its sites patched at their third trap' \
		"$TMP/out" || fail "libc read at start: $(grep sysgate "$TMP/out")"
	grep -q '^sysgate: planned at their third trap: [1-9][0-9]* sites' \
		"$TMP/out" || fail "nothing planned: $(grep sysgate "$TMP/out")"
	grep -Eq '^sysgate:   /.*libc.so.6:( (jump|padding-jump)=[1-9][0-9]*)+$' \
		"$TMP/out" || fail "libc: $(grep sysgate "$TMP/out")"
	[ "$(calls_of "$TMP/out" getppid)" = 5 ] || fail "getppid: $(cat "$TMP/out")"
	# A program whose libc sites run once each: libc is never read.
	"$SG" --stats -c -o "$TMP/out1" -- "$PROG" basic >"$TMP/stdout" ||
		fail "basic: exit status $?"
	[ "$(cat "$TMP/stdout")" = hello ] || fail "output: $(cat "$TMP/stdout")"
	grep -q 'libc.so.6: mapped later, not looked at' "$TMP/out1" ||
		fail "basic: libc looked at: $(grep sysgate "$TMP/out1")"
	grep -qx 'write *1 *' "$TMP/out1" 2>/dev/null ||
		grep -Eq '^ .* 1 +write$' "$TMP/out1" || fail "write not counted"
	# --eager plans libc at start instead, none at a first trap.
	"$SG" --eager --stats -c -o "$TMP/out2" -- "$PROG" basic >/dev/null ||
		fail "--eager: exit status $?"
	grep -q 'planned at their third trap' "$TMP/out2" &&
		fail "--eager planned at a trap: $(grep sysgate "$TMP/out2")"
	grep -Eq '^sysgate:   /.*libc.so.6: jump=' "$TMP/out2" ||
		fail "--eager: $(grep sysgate "$TMP/out2")"
}

t_first_thread_patches_live() {
	# Once threads run, a site is patched at its first trap while other
	# threads may run it (a jump over one instruction before the
	# syscall, written breakpoint first): no object is read whole when
	# the first thread starts, and every call of every thread counts.
	need_sud
	"$SG" --stats -f -c -o "$TMP/out" -- "$PROG" threads 4 100 >"$TMP/stdout" ||
		fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = "400 calls" ] || fail "program: $(cat "$TMP/stdout")"
	[ "$(calls_of "$TMP/out" getppid)" = 400 ] || fail "getppid: $(cat "$TMP/out")"
	grep -q '^sysgate: patch: planned at the first thread' "$TMP/out" &&
		fail "planned whole: $(grep sysgate "$TMP/out")"
	grep -A3 '^sysgate: planned at their third trap' "$TMP/out" |
		grep -Eq '/libc.so.6: .*live jump=[1-9]' ||
		fail "libc not patched live: $(grep sysgate "$TMP/out")"
	grep -q 'left to their trap' "$TMP/out" &&
		fail "sites left to trap: $(grep sysgate "$TMP/out")"
	return 0
}

t_live_patch_stress() {
	# Sixteen threads, released together, loop on five libc wrappers and
	# sched_yield, so that each site is patched live while the others
	# run it (and threads still starting, with every signal blocked by
	# pthread_create, meet the breakpoints of start_thread's sites);
	# thirty processes: each prints what it does natively, and sysgate
	# counts every call.
	need_sud
	local prog=$BUILD/tests/cli/live-prog i c
	"$prog" 16 1000 >"$TMP/native" || fail "native: exit status $?"
	for i in $(seq 30); do
		"$SG" --stats -f -c -o "$TMP/out" -- "$prog" 16 1000 \
			>"$TMP/stdout" || fail "run $i: exit status $?"
		same "$TMP/native" "$TMP/stdout"
		for c in getppid getuid getgid geteuid getegid sched_yield; do
			[ "$(calls_of "$TMP/out" $c)" = 16000 ] ||
				fail "run $i: $c: $(cat "$TMP/out")"
		done
		grep -A3 '^sysgate: planned at their third trap' "$TMP/out" |
			grep -Eq '/libc.so.6: .*live jump=[1-9]' ||
			fail "run $i: nothing patched live: $(grep sysgate "$TMP/out")"
	done
}

t_hook_threads_not_patched_over() {
	# A hook's own thread (as libcephfs's under --fs) blocks every signal
	# from code sysgate does not see and keeps running the libc sites
	# that live-prog's threads make sysgate patch: a patch's breakpoint
	# met there with SIGTRAP blocked killed the process (half the runs
	# before).  Announced (sysgate_hook_threads) or seen made from a
	# callback, nothing is patched from then on.
	need_sud
	local prog=$BUILD/tests/cli/live-prog hook=$BUILD/tests/hooks/ownthreads.so i a
	"$prog" 16 1000 >"$TMP/native" || fail "native: exit status $?"
	for a in "" :unannounced; do
		for i in $(seq 10); do
			"$SG" --stats -f -qq -e trace=none --hook="$hook$a" -- \
				"$prog" 16 1000 >"$TMP/stdout" 2>"$TMP/err" ||
				fail "run $i$a: exit status $?: $(cat "$TMP/err")"
			same "$TMP/native" "$TMP/stdout"
			grep -qx 'ownthreads: 16000 getppid' "$TMP/err" ||
				fail "run $i$a: hook: $(cat "$TMP/err")"
		done
	done
	grep -q "^sysgate: none patched since a hook's library made threads" \
		"$TMP/err" || fail "--stats: $(grep sysgate "$TMP/err")"
}

t_kept_coming_plan_shared() {
	# A process that keeps making calls alone has its objects planned
	# whole (syscall user dispatch taxes each call); the second process
	# of a tree doing the same takes the plan the first one made.
	need_sud
	"$SG" --stats -f -c -o "$TMP/out" -- sh -c \
		'"$1" ppid 5000; "$1" ppid 5000' sh "$PROG" \
		>"$TMP/stdout" || fail "exit status $?"
	[ "$(sed 's/= .*//' "$TMP/stdout")" = "5000 x getppid 
5000 x getppid " ] || fail "programs: $(cat "$TMP/stdout")"
	grep '^sysgate: patch: planned whole, calls kept coming' "$TMP/out" \
		>"$TMP/lines"
	[ "$(wc -l <"$TMP/lines")" = 2 ] &&
		! sed -n 1p "$TMP/lines" | grep -q 'another process' &&
		sed -n 2p "$TMP/lines" | grep -q 'as another process planned' ||
		fail "plans: $(grep sysgate "$TMP/out")"
	grep -A3 '^sysgate: patch: planned whole, calls kept coming' "$TMP/out" |
		grep -E '/libc.so.6: jump=' | sort | uniq -c | grep -q '^ *2 ' ||
		fail "libc planned differently: $(grep sysgate "$TMP/out")"
	return 0
}

t_sigreturn_counted_under_sud() {
	# A program handler returns through sysgate's restorer wherever
	# syscall user dispatch is on (the default start, -m sud): its
	# rt_sigreturn is still counted, as strace counts it.
	need_strace
	need_sud
	local m n want
	strace -f -c -o "$TMP/st" -- "$PROG" handled 7 >/dev/null
	want=$(calls_of "$TMP/st" rt_sigreturn)
	[ "$want" = 7 ] || fail "strace saw $want rt_sigreturn"
	for m in "" --eager "-m sud"; do
		# shellcheck disable=SC2086
		"$SG" $m -f -c -o "$TMP/sg" -- "$PROG" handled 7 >"$TMP/stdout" ||
			fail "$m: exit $?"
		[ "$(cat "$TMP/stdout")" = "7 handled" ] || fail "$m: $(cat "$TMP/stdout")"
		# and traced as strace prints it, mask and result
		# shellcheck disable=SC2086
		"$SG" $m -e trace=rt_sigreturn -o "$TMP/tr" -- "$PROG" handled 2 >/dev/null
		[ "$(grep -cx 'rt_sigreturn({mask=\[\]}) *= 0' "$TMP/tr")" = 2 ] ||
			fail "${m:-default}: $(cat "$TMP/tr")"
		n=$(calls_of "$TMP/sg" rt_sigreturn)
		[ "$n" = "$want" ] || fail "${m:-default}: $n rt_sigreturn, strace $want"
	done
}

t_big_object_trapped() {
	# An object with more text than is read at start-up (a libLLVM):
	# its site is caught by its first trap, hooked from its first call,
	# then patched.
	need_sud
	"$SG" --stats -e trace=lseek -o "$TMP/out" -- "$PROG" dlopen \
		"$BUILD/tests/cli/biglib.so" >"$TMP/stdout" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = -9 ] || fail "result $(cat "$TMP/stdout")"
	grep -qx 'lseek(-42, 7, SEEK_SET) *= -1 EBADF (Bad file descriptor)' "$TMP/out" ||
		fail "not traced: $(cat "$TMP/out")"
	grep -q 'biglib.so: not read, its sites patched at their third trap' "$TMP/out" ||
		fail "read: $(cat "$TMP/out")"
	grep -q 'patched after their third trap: [1-9][0-9]* sites' "$TMP/out" ||
		fail "not patched: $(cat "$TMP/out")"
	out=$("$SG" -e trace=none -e inject=lseek:retval=5 -- "$PROG" dlopen \
		"$BUILD/tests/cli/biglib.so")
	[ "$out" = 5 ] || fail "inject: $out"
}

t_first_trap_waits_for_whole_read() {
	# A site whose only patch needs its library read whole (every rel32
	# branch checked, ~1 ns a byte), in 1 MiB or 64 KiB of text, stays
	# trapped until its traps have cost about that: three runs never
	# pay for the read; two thousand do, and the site is then patched.
	# Every call is counted either way.
	need_sud
	local n lib
	for lib in waitlib waitsmall; do
		for n in 3 2000; do
			"$SG" --stats -c -e trace=getppid -o "$TMP/out" -- \
				"$PROG" dlcall "$BUILD/tests/cli/$lib.so" $n \
				>"$TMP/stdout" || fail "$lib $n: exit status $?"
			[ "$(cat "$TMP/stdout")" = ppid ] ||
				fail "$lib $n: program: $(cat "$TMP/stdout")"
			# (and the program's own getppid)
			[ "$(calls_of "$TMP/out" getppid)" = $((n + 1)) ] ||
				fail "$lib $n: $(cat "$TMP/out")"
			if [ $n = 3 ]; then
				! grep -q "$lib.so: jump=" "$TMP/out" ||
					fail "$lib: read whole for 3 calls: $(grep sysgate "$TMP/out")"
			else
				grep -q "$lib.so: jump=1\$" "$TMP/out" ||
					fail "$lib: never patched: $(grep sysgate "$TMP/out")"
			fi
		done
	done
}

t_first_trap_waits_as_a_tree() {
	# The processes of a tree wait as one: two that trap 150 times each
	# at a site of waitlib (1 MiB of text, 256 traps' worth) read it
	# whole once between them, and a third takes the site from the tree
	# when it maps the library, without a read.
	need_sud
	local lib="$BUILD/tests/cli/waitlib.so" shell
	shell=$(shell_getppid)
	"$SG" -f --stats -c -e trace=getppid -o "$TMP/out" -- sh -c \
		"$PROG dlcall $lib 150; $PROG dlcall $lib 150; $PROG dlcall $lib 150" \
		>"$TMP/stdout" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = "$(printf 'ppid\nppid\nppid')" ] ||
		fail "program: $(cat "$TMP/stdout")"
	[ "$(calls_of "$TMP/out" getppid)" = $((shell + 453)) ] ||
		fail "$(cat "$TMP/out")"
	[ "$(grep -c 'waitlib.so: jump=1$' "$TMP/out")" = 1 ] ||
		fail "read whole not once: $(grep sysgate "$TMP/out")"
	grep -q 'patched before they ran, .*: [1-9][0-9]* sites$' "$TMP/out" ||
		fail "not taken: $(grep sysgate "$TMP/out")"
}

t_tree_sites_share_no_padding() {
	# Two processes each patch one of padlib's two sites, each with the
	# one padding gap between them; a third that calls both takes them
	# from the tree, and must not give both one trampoline (one of them
	# would then run the other's code).
	need_sud
	local lib="$BUILD/tests/cli/padlib.so"
	"$SG" -f --stats -c -e trace=getppid -o "$TMP/out" -- sh -c \
		"$PROG dlcall $lib 51; $PROG dlcall $lib 52; $PROG dlcall $lib 53" \
		>"$TMP/stdout" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = "$(printf 'ppid\nppid\nppid')" ] ||
		fail "program: $(cat "$TMP/stdout"); $(grep sysgate "$TMP/out")"
	grep -q 'padlib.so: padding-jump=1$' "$TMP/out" ||
		fail "not patched: $(grep sysgate "$TMP/out")"
}

t_hook_threads_tls() {
	# A user hook with __thread state and libc calls, 32 threads at once.
	"$SG" -e trace=none --hook="$BUILD/tests/hooks/counter.so" -o "$TMP/out" \
		-- "$PROG" threads 32 500 >"$TMP/stdout" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" = "16000 calls" ] || fail "program: $(cat "$TMP/stdout")"
	grep -qx 'counter: 16000 calls in 32 threads, libc ok 160' "$TMP/out" ||
		fail "hook: $(cat "$TMP/out")"
}

t_hook_exit_result() {
	# exit() of a call the stub makes: sees the kernel's results, and
	# the one it leaves is the program's.
	out=$("$SG" -e trace=none --hook="$BUILD/tests/hooks/exitret.so" \
		-- "$PROG" getppid 3) || fail "exit status $?"
	[ "$out" = 4242 ] || fail "got '$out'"
}

t_hook_lean_path() {
	# A NOFPU hook alone on a call (dispatch.c's lean path): the number
	# enter() changes reaches the kernel and exit() sees the result;
	# an answered call is answered, and exit() sees it answered.  With
	# --eager (no syscall user dispatch) the entry stub runs them
	# (core/entry.h's fast path).
	local m
	for m in "" --eager; do
		out=$("$SG" $m -e trace=none --hook="$BUILD/tests/hooks/renumber.so" \
			-- "$PROG" getppid-arg 3 0) || fail "$m: exit status $?"
		[ "$out" = 4343 ] || fail "$m: renumbered: got '$out'"
		out=$("$SG" $m -e trace=none --hook="$BUILD/tests/hooks/renumber.so" \
			-- "$PROG" getppid-arg 3 1) || fail "$m: exit status $?"
		[ "$out" = 4243 ] || fail "$m: answered: got '$out'"
	done
}

t_hook_fast_path() {
	# A NOFPU hook with enter() alone (tests/hooks/fastpath.c): the
	# entry stub runs it without C once every site is planned (--eager:
	# no syscall user dispatch), the lean path otherwise.  The record it
	# gets, an answer, a changed number and a changed argument.
	local m out
	for m in --eager ""; do
		out=$("$SG" $m -e trace=none --hook="$BUILD/tests/hooks/fastpath.so" \
			-- "$PROG" getppid-arg 3 1) || fail "$m: exit status $?"
		[ "$out" = 4242 ] || fail "$m: record: got '$out'"
		out=$("$SG" $m -e trace=none --hook="$BUILD/tests/hooks/fastpath.so" \
			-- "$PROG" getppid-arg 3 2) || fail "$m: exit status $?"
		[ "$out" = "$(id -u)" ] || fail "$m: renumbered: got '$out'"
		out=$("$SG" $m -e trace=none --hook="$BUILD/tests/hooks/fastpath.so" \
			-- "$PROG" getppid-arg-thread 3 1) || fail "$m: exit status $?"
		[ "$out" = 4242 ] || fail "$m: record in a thread: got '$out'"
		out=$("$SG" $m -e trace=none --hook="$BUILD/tests/hooks/fastpath.so" \
			-- "$PROG" getrandom 3 99) || fail "$m: exit status $?"
		[ "$out" = 4 ] || fail "$m: argument: got '$out'"
	done
}

t_hook_blocks_all_signals() {
	# A hook whose callback blocks every signal, then makes C library
	# calls and starts a thread (as libcephfs does under --fs), in the
	# process and in a vfork child: sites that trap (first-trap
	# planning, -m sud) must not meet a blocked SIGSYS.
	need_sud
	for m in "" --lazy --eager "-m sud" "-m int3"; do
		# shellcheck disable=SC2086
		out=$("$SG" $m -f -qq -e trace=none \
			--hook="$BUILD/tests/hooks/blockall.so" -- \
			"$PROG" vfork-ppid 2>"$TMP/err") || fail "$m: exit status $?"
		[ "$out" = "child exit 0, parent 1" ] || fail "$m: program: $out"
		grep -qx 'blockall: 2 callbacks' "$TMP/err" ||
			fail "$m: hook: $(cat "$TMP/err")"
	done
}

t_preload_without_cli() {
	# The library alone, as the usage text documents.
	LD_PRELOAD=$PWD/$BUILD/libsysgate.so SYSGATE_OPTIONS="-e trace=write -o $TMP/out" \
		"$PROG" basic >/dev/null || fail "exit status $?"
	grep -q '^write(1, "hello' "$TMP/out" || fail "$(cat "$TMP/out")"
}

# state_files: the files a traced sh maps besides libraries (the shared
# state), printed by the program itself, which then dies of SIGKILL
# (and with "cli", kills the sysgate CLI first).
STATE_PROG='awk '\''$6 ~ /sysgate-/ && $6 !~ /(\.so|sysgate-loader|sysgate-loader\.text)$/ { print $6 }'\'' /proc/$$/maps >"$1"
	[ "${2:-}" = cli ] && kill -KILL $PPID
	kill -KILL $$'

t_state_left_behind() {
	# The shared state is a memfd: nothing in /dev/shm (or anywhere) to
	# leave behind, however the tree ends (before, each run left a
	# 4 MiB /dev/shm/sysgate-PID).
	local lib=$PWD/$BUILD/libsysgate.so how
	LD_PRELOAD=$lib SYSGATE_OPTIONS=-c sh -c "$STATE_PROG" sh "$TMP/m1" 2>/dev/null
	SYSGATE_OPTIONS=-c "$BUILD/sysgate-loader" /bin/sh sh -c "$STATE_PROG" sh \
		"$TMP/m2" 2>/dev/null
	("$SG" -c -o /dev/null -- sh -c "$STATE_PROG" sh "$TMP/m3") 2>/dev/null
	("$SG" -c -o /dev/null -- sh -c "$STATE_PROG" sh "$TMP/m4" cli) 2>/dev/null
	for how in m1 m2 m3 m4; do
		[ -s "$TMP/$how" ] || fail "$how: no shared state mapped"
		while read -r f; do
			[ ! -e "$f" ] || { rm -f "$f"; fail "$how: $f left behind"; }
		done <"$TMP/$how"
	done
}

t_state_not_followed() {
	# No name another user could create first: a symlink at the name the
	# root process used (/dev/shm/sysgate-PID) is not followed, and a
	# state named in SYSGATE_STATE that sysgate did not make (a path,
	# or a descriptor of the wrong size or header) is not used.
	local lib=$PWD/$BUILD/libsysgate.so
	echo victim >"$TMP/victim"
	cp "$TMP/victim" "$TMP/victim.orig"
	sh -c 'ln -s "$1" /dev/shm/sysgate-$$ &&
		exec env LD_PRELOAD="$3" SYSGATE_OPTIONS=-c "$2" basic' sh \
		"$TMP/victim" "$PROG" "$lib" >"$TMP/stdout" 2>/dev/null
	find /dev/shm -maxdepth 1 -lname "$TMP/victim" -delete
	cmp -s "$TMP/victim" "$TMP/victim.orig" || fail "symlink followed"
	[ "$(cat "$TMP/stdout")" = hello ] || fail "program output"
	head -c $((4 << 20)) /dev/zero >"$TMP/zero"
	cp "$TMP/zero" "$TMP/zero.orig"
	LD_PRELOAD=$lib SYSGATE_OPTIONS=-c SYSGATE_STATE=$TMP/zero "$PROG" basic \
		>"$TMP/stdout" 2>/dev/null || fail "exit status $?"
	cmp -s "$TMP/zero" "$TMP/zero.orig" || fail "a named state file was used"
	LD_PRELOAD=$lib SYSGATE_OPTIONS=-c SYSGATE_STATE=fd:5 "$PROG" basic \
		5<>"$TMP/zero" >"$TMP/stdout" 2>/dev/null || fail "exit status $?"
	cmp -s "$TMP/zero" "$TMP/zero.orig" || fail "a state without header was used"
	[ "$(cat "$TMP/stdout")" = hello ] || fail "program output"
}


# The in-process modes, as the options before "--"; a mechanism that
# cannot run here is named on stderr and left out.
inproc_modes() {
	printf '%s\n' "-f -c" "--loader -f -c" "--patch-all -f -e trace=none"
	for m in sud seccomp int3 zeropage; do
		if "$SG" -m $m --list-mechanisms | grep -q "^$m *available"; then
			echo "-m $m -f -c"
		else
			echo "mechanism $m is not available here: not run" >&2
		fi
	done
}

# A child that shares the parent's memory (posix_spawn's clone, vfork)
# resets every handled signal before exec: the parent's handlers stay.
t_spawn_python_sigint() {
	py=$(command -v python3) || { echo "python3 not installed"; exit 77; }
	cat >"$TMP/s.py" <<'EOT'
import os, signal, subprocess
subprocess.run(["true"])
try:
    os.kill(os.getpid(), signal.SIGINT)
    print("no KeyboardInterrupt")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
EOT
	mapfile -t modes < <(inproc_modes)
	for m in "${modes[@]}"; do
		# shellcheck disable=SC2086
		out=$("$SG" $m -o /dev/null -- "$py" "$TMP/s.py" 2>&1)
		[ "$out" = KeyboardInterrupt ] || fail "under $m: $out"
	done
}

# make -j waits for SIGCHLD from the children it spawned.
t_spawn_make_j2() {
	command -v make >/dev/null || { echo "make not installed"; exit 77; }
	mkdir "$TMP/mk"
	printf 'all: %s\no%%:\n\t@sh -c "exit 0"\n' "o1 o2 o3 o4 o5 o6 o7 o8" \
		>"$TMP/mk/Makefile"
	mapfile -t modes < <(inproc_modes)
	for m in "${modes[@]}"; do
		# shellcheck disable=SC2086
		"$SG" $m -o /dev/null -- make -s -j2 -C "$TMP/mk" >"$TMP/out" 2>&1 ||
			fail "under $m: exit $?: $(cat "$TMP/out")"
	done
}

# gdb waits for SIGCHLD from the inferior it started; under sud, seccomp
# and int3 it must not see the SIGSYS or SIGTRAP of each trapped call
# (core/tracer.c), nor may its vfork child stop before its execve.
t_spawn_gdb_run() {
	local modes=("-f -c" "--loader -f -c" "--patch-all -f -e trace=none") m
	command -v gdb >/dev/null || { echo "gdb not installed"; exit 77; }
	for m in sud seccomp int3; do
		"$SG" --list-mechanisms | grep -q "^$m *available" &&
			modes+=("-m $m -f -c")
	done
	for m in "${modes[@]}"; do
		# shellcheck disable=SC2086
		"$SG" $m -o /dev/null -- gdb -nx -batch -ex run --args /bin/true \
			>"$TMP/out" 2>&1 || fail "under $m: exit $?: $(cat "$TMP/out")"
		grep -q 'exited normally' "$TMP/out" ||
			fail "under $m: $(cat "$TMP/out")"
	done
}

# Static musl programs: musl blocks every signal around its raw clone and
# the new thread sets its mask back with a raw call; calls trapped with
# SIGSYS or SIGTRAP "blocked" must still be handled, and no call may fail
# where it does not natively (a new thread's rt_sigprocmask got EFAULT).
t_musl_static_masks() {
	command -v musl-gcc >/dev/null || { echo "musl-gcc not installed"; exit 77; }
	for p in trap-masked threads; do
		musl-gcc -static -O2 -o "$TMP/$p" tests/behave/$p.c ||
			fail "musl-gcc $p"
		"$TMP/$p" >"$TMP/$p.want" || fail "$p fails natively"
	done
	for m in sud seccomp int3; do
		"$SG" -m $m --list-mechanisms | grep -q "^$m *available" ||
			{ echo "mechanism $m is not available here: not run" >&2; continue; }
		for p in trap-masked threads; do
			"$SG" -m $m -f -o "$TMP/$p.trace" -- "$TMP/$p" >"$TMP/$p.got" ||
				fail "$p under -m $m: exit $?"
			same "$TMP/$p.want" "$TMP/$p.got"
			! grep -n 'EFAULT' "$TMP/$p.trace" ||
				fail "$p under -m $m: a call failed with EFAULT"
		done
	done
}

# Nesting: sysgate under sysgate, with and without -f on the outer, the
# inner started either way; each counts what it sees, as natively: one
# runtime per process, so the inner one traces its program from outside
# (-m ptrace, said in one line), and the outer one, following it with -f,
# sees the program's calls too.
nested() {
	local want=0
	"$SG" "$@" -c -o "$TMP/outer" -- "$SG" ${SG_INNER:-} -c -e trace=getppid \
		-o "$TMP/inner" -- "$PROG" getppid 100 >"$TMP/stdout" \
		2>"$TMP/stderr" || fail "exit status $?"
	[ "$(cat "$TMP/stdout")" -gt 0 ] || fail "program output"
	[ "$(cat "$TMP/stderr")" = "sysgate: under another sysgate: tracing the program with -m ptrace (one sysgate runtime per process)" ] ||
		fail "stderr: $(cat "$TMP/stderr")"
	[ "$(calls_of "$TMP/inner" getppid)" = 100 ] ||
		{ cat "$TMP/inner"; fail "inner getppid calls"; }
	[ "$(calls_of "$TMP/outer" wait4)" -ge 1 ] ||
		{ cat "$TMP/outer"; fail "the outer does not see the inner CLI"; }
	case " $* " in *" -f "*) want=100 ;; esac
	[ "$(calls_of "$TMP/outer" getppid)" = "$([ $want = 0 ] || echo $want)" ] ||
		{ cat "$TMP/outer"; fail "the outer sees $want of the program's getppid calls"; }
}
t_nested_sysgate() { nested; }
t_nested_sysgate_follow() { nested -f; }
t_nested_sysgate_loader() { nested --loader -f; }
t_nested_sysgate_inner_loader() { SG_INNER=--loader nested; }
t_nested_sysgate_seccomp() { need_mechanism seccomp "-m seccomp is"; nested -m seccomp -f; }
t_nested_sysgate_sud() { need_mechanism sud "-m sud is"; nested -m sud -f; }

# with_strace OUTER-FIRST: strace -f over sysgate (1) or under it (0);
# both see the program's 100 getppid calls.
with_strace() {
	local sg=("$SG" -c -e trace=getppid -o "$TMP/c")
	local st=(strace -f -e trace=getppid -o "$TMP/st")

	need_strace
	if [ "$1" = 1 ]; then
		"${st[@]}" -- "${sg[@]}" -- "$PROG" getppid 100 >"$TMP/stdout"
	else
		"${sg[@]}" -f -- "${st[@]}" -- "$PROG" getppid 100 >"$TMP/stdout"
	fi || fail "exit status $?"
	[ "$(calls_of "$TMP/c" getppid)" = 100 ] || { cat "$TMP/c"; fail "getppid"; }
	[ "$(grep -c 'getppid()' "$TMP/st")" = 100 ] ||
		fail "strace sees $(grep -c 'getppid()' "$TMP/st") getppid calls"
}
t_sysgate_under_strace() { with_strace 1; }
t_strace_under_sysgate() { with_strace 0; }

# A tracer outside sysgate sees the signal of each trapped call, which
# nothing can hide from it: one line says so (and none when untraced).
t_traced_from_outside() {
	local m n=0
	need_strace
	for m in seccomp sud int3; do
		"$SG" --list-mechanisms | grep -q "^$m *available" || continue
		n=$((n + 1))
		strace -f -qq -o /dev/null "$SG" -m $m -o "$TMP/log" -- "$PROG" getppid 1 ||
			fail "-m $m under strace: exit $?"
		[ "$(grep -c 'traced from outside sysgate' "$TMP/log")" = 1 ] ||
			{ cat "$TMP/log"; fail "-m $m: no single line about the tracer"; }
		"$SG" -m $m -o "$TMP/log" -- "$PROG" getppid 1 || fail "-m $m: exit $?"
		! grep -q 'traced from outside' "$TMP/log" || fail "-m $m untraced: $(cat "$TMP/log")"
	done
	[ $n -gt 0 ] || { echo "none of seccomp, sud and int3 is available here"; exit 77; }
}

t_sysgate_under_gdb() {
	command -v gdb >/dev/null || { echo "gdb not installed"; exit 77; }
	gdb -q -batch -ex run --args "$SG" -c -e trace=getppid -o "$TMP/c" \
		-- "$PROG" getppid 100 >"$TMP/stdout" 2>&1 || fail "exit status $?"
	grep -q 'exited normally' "$TMP/stdout" || fail "$(cat "$TMP/stdout")"
	[ "$(calls_of "$TMP/c" getppid)" = 100 ] || { cat "$TMP/c"; fail "getppid"; }
}

# 32-bit system calls under -m ptrace: the i386 table's names, and
# strace's line when the process changes mode (pids differ between runs).
same_as_strace_32() { # PROGRAM TRACE-SET
	need_strace
	# (strace writes the mode line only to stderr, not to -o's file)
	"$SG" -m ptrace -e trace=$2 -- "$1" >"$TMP/sg.out" 2>"$TMP/sg" ||
		fail "exit status $?"
	strace -e trace=$2 -- "$1" >"$TMP/st.out" 2>"$TMP/st"
	same "$TMP/st.out" "$TMP/sg.out"
	# (the end of a program that leaves with exit, not exit_group, is
	# not traced yet: the "+++ exited" lines are left out)
	for f in st sg; do
		sed -E 's/PID=[0-9]+/PID=N/; s/^(getpid\(\) += )[0-9]+/\1N/' \
			"$TMP/$f" | grep -v '^+++ exited' >"$TMP/$f.n"
	done
	grep -q 'runs in 32 bit mode' "$TMP/st.n" || fail "strace saw no 32-bit call"
	same "$TMP/st.n" "$TMP/sg.n"
}
t_ptrace_32bit_program() { same_as_strace_32 "$BUILD/tests/cli/hello32" write,getpid; }
t_loader_overlap() {
	# a static program where the loader is: one line, never a crash
	"$SG" -c -o /dev/null -- "$BUILD/tests/cli/nolibc-at-loader" \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "exit status $rc"
	[ "$(wc -l <"$TMP/err")" = 1 ] &&
		grep -q "fixed addresses overlap sysgate-loader's" "$TMP/err" ||
		fail "$(cat "$TMP/err")"
}
t_follow_32bit_program() {
	# a followed exec of one: it runs, and one line says it is unhooked
	local m
	for m in patch sud seccomp; do
		"$SG" --list-mechanisms | grep -q "^$m *available" || continue
		out=$("$SG" -m $m -f -c -o "$TMP/c" -- "$PROG" run \
			"$BUILD/tests/cli/hello32") || fail "-m $m: exit status $?"
		[ "$out" = hello ] || fail "-m $m: output '$out'"
		[ "$(grep -c 'a 32-bit program (or another machine.s): its system calls are not hooked' "$TMP/c")" = 1 ] ||
			{ cat "$TMP/c"; fail "-m $m: no one line about the 32-bit program"; }
	done
}
t_in_process_32bit_program() {
	# no in-process mechanism serves it: one line, not started
	"$SG" -c -- "$BUILD/tests/cli/hello32" >"$TMP/out" 2>"$TMP/err" &&
		fail "a 32-bit program ran"
	[ ! -s "$TMP/out" ] || fail "it ran: $(cat "$TMP/out")"
	[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q 'not an ELF executable for this machine' "$TMP/err" ||
		fail "$(cat "$TMP/err")"
}
t_ptrace_int80() { same_as_strace_32 "$BUILD/tests/cli/int80" write; }
t_ptrace_int80_count() {
	"$SG" -m ptrace -c -o "$TMP/c" -- "$BUILD/tests/cli/int80" >/dev/null ||
		fail "exit status $?"
	[ "$(calls_of "$TMP/c" write)" = 2 ] || { cat "$TMP/c"; fail "writes"; }
	[ -z "$(calls_of "$TMP/c" stat)" ] || { cat "$TMP/c"; fail "counted as stat"; }
}

# int $0x80 in a 64-bit program under the in-process mechanisms: it runs
# as natively (not made as the 64-bit call of its number), and one line
# says such calls are not hooked.
t_int80_in_process() {
	local native m
	native=$("$BUILD/tests/cli/int80") || fail "native run: $?"
	for m in patch sud int3 seccomp; do
		"$SG" --list-mechanisms | grep -q "^$m *available" || continue
		out=$("$SG" -m $m -e trace=write -o "$TMP/t" -- \
			"$BUILD/tests/cli/int80" 2>"$TMP/err") ||
			fail "-m $m: exit status $?"
		[ "$out" = "$native" ] || fail "-m $m: '$out', natively '$native'"
		[ "$(grep -c 'int \$0x80.*not hooked' "$TMP/t")" = 1 ] ||
			{ cat "$TMP/t" "$TMP/err"; fail "-m $m: no one line about int \$0x80"; }
	done
}

t_coverage_programs() {
	# Plain sysgate -f -c counts what strace -f -c counts, call for call
	# and error for error, the first execve included: a program, one that
	# reads a directory, a shell pipeline, CPython's start-up.
	need_strace
	count_same_as_strace -- /bin/true
	count_same_as_strace -- ls -la /etc
	# (how many SIGCHLD the shell handles depends on when its children
	# end: 1 or 2 rt_sigreturn from one strace run to the next)
	SKIP_CALLS='^rt_sigreturn$' count_same_as_strace -- sh -c 'ls /etc | wc -l'
	# (/usr/bin/python3 itself: a "#!" shim chain such as pyenv's still
	# loses its interpreters' start-up, doc/status.md)
	if [ -x /usr/bin/python3 ]; then
		count_same_as_strace -- /usr/bin/python3 -c pass
	fi
}

t_loader_exe_outside() {
	# Other processes (gdb, ps, a child) read the kernel's record of the
	# program: its executable and command line, not sysgate-loader's.
	# Naming the executable takes CAP_CHECKPOINT_RESTORE (root).
	out=$("$SG" --loader -e trace=none -- sh -c 'readlink /proc/$$/exe; tr "\0" " " </proc/$$/cmdline' 2>/dev/null)
	want="$(readlink -f "$(command -v sh)")
sh -c readlink /proc/\$\$/exe; tr \"\\0\" \" \" </proc/\$\$/cmdline "
	if [ "$(id -u)" != 0 ] && [ "${out%%$'\n'*}" != "${want%%$'\n'*}" ]; then
		[ "${out#*$'\n'}" = "${want#*$'\n'}" ] || fail "cmdline: $out"
		echo "not root: /proc/PID/exe names sysgate-loader to others"; exit 77
	fi
	[ "$out" = "$want" ] || fail "got: $out, want: $want"
}

t_loader_text_shared() {
	# So that /proc/PID/exe can name the program, the loader's text is
	# mapped from sysgate-loader.text (by its stub, tools/loader/stub.c):
	# the page cache's pages, shared, instead of a private copy per process.
	local smaps
	[ "$(id -u)" = 0 ] || { echo "not root: the loader keeps its own name"; exit 77; }
	smaps=$("$SG" -e trace=none -qq -e signal=none -- cat /proc/self/smaps) ||
		fail "exit status $?"
	awk '/^[0-9a-f]+-[0-9a-f]+ / { x = $2 ~ /x/; name = $6 }
	     x && /^Anonymous:/ && name ~ /sysgate-loader.text$/ { n++; if ($2 != 0) bad = 1 }
	     END { exit !(n == 1 && !bad) }' <<<"$smaps" ||
		fail "loader text: $(grep -A20 '^53471000' <<<"$smaps" | grep -E '^5|Anon')"
}

t_no_zero_pages_written() {
	# A page written with nothing but zeros costs the program memory for
	# nothing (a fresh page reads as zero): the loader moved the hooks'
	# TLS block, 84 KiB of mostly .tbss, byte by byte into a fresh one.
	local native ours
	native=$("$BUILD/sysgate-bench-loop" zero-pages)
	[ "$native" -ge 0 ] || { echo "no /proc/self/pagemap"; exit 77; }
	ours=$("$SG" -c -o /dev/null -- "$BUILD/sysgate-bench-loop" zero-pages) ||
		fail "exit status $?"
	[ "$ours" -le $((native + 8)) ] ||
		fail "$ours zero pages written under -c, $native natively"
}

t_lines_in_time_order() {
	# A call that waits while other lines are written is shown as strace
	# shows it: its start "<unfinished ...>" before them, its end
	# "<... NAME resumed>" after, so that no line's time is earlier than
	# the line's before it: threads of a process, processes of a tree.
	local mode call
	for mode in threads fork; do
		"$SG" -f -ttt -o "$TMP/out" -- "$BUILD/tests/cli/order" $mode ||
			fail "$mode: exit status $?"
		if [ $mode = threads ]; then call='read(3, '; else call='wait4([0-9]+, '; fi
		grep -Eq "^[0-9]+ +[0-9.]+ ${call//(/\\(} <unfinished \.\.\.>$" "$TMP/out" ||
			fail "$mode: no unfinished ${call%%(*}: $(cat "$TMP/out")"
		grep -Eq "^[0-9]+ +[0-9.]+ <\.\.\. ${call%%(*} resumed>.*\) += [0-9]+$" "$TMP/out" ||
			fail "$mode: no resumed ${call%%(*}: $(cat "$TMP/out")"
		awk '{ t = $2 + 0; if (t < last) { print "backwards: " $0; exit 1 }
		       last = t }' "$TMP/out" || fail "$mode: $(cat "$TMP/out")"
	done
}

t_resumed_line_has_exit_args() {
	# A call shown "<unfinished ...>" prints at its end what strace
	# prints at exit: clone3's " => {parent_tid=[TID]}" and its size came
	# out of the resumed line (the new thread's lines came first when the
	# machine was busy; here the call is held 1 s while the thread's
	# gettid comes first).
	local tid
	"$SG" -f -e trace=clone3,gettid -e inject=clone3:delay_exit=1000000 \
		-o "$TMP/out" -- "$BUILD/tests/cli/order" threads ||
		fail "exit status $?"
	grep -q '^[0-9]* *clone3(' "$TMP/out" || { echo "no clone3"; exit 77; }
	grep -Eq '^[0-9]+ +clone3\(\{flags=.*\} <unfinished \.\.\.>$' "$TMP/out" ||
		fail "no unfinished clone3: $(cat "$TMP/out")"
	tid=$(sed -n 's/^\([0-9]*\) *gettid() *= \1$/\1/p' "$TMP/out")
	grep -Eq "^[0-9]+ +<\.\.\. clone3 resumed> => \{parent_tid=\[$tid\]\}, 88\) += $tid \(DELAYED\)$" "$TMP/out" ||
		fail "resumed clone3 (thread $tid): $(cat "$TMP/out")"
}

t_resumed_line_has_what_changed() {
	# A decoder that shows a structure at entry and " => " what the
	# kernel wrote at exit, and marks no place where its start ends: the
	# resumed line is what follows the start shown (it was empty).
	local st
	echo data >"$TMP/file"
	"$BUILD/tests/cli/order" fiemap-probe "$TMP/file"
	st=$?
	[ $st = 77 ] && { echo "no FIEMAP on $TMP's file system"; exit 77; }
	[ $st = 0 ] || fail "natively: exit status $st"
	"$SG" -f -e trace=ioctl,getppid -e inject=ioctl:delay_exit=1000000 \
		-o "$TMP/out" -- "$BUILD/tests/cli/order" fiemap "$TMP/file" ||
		fail "exit status $?"
	grep -Eq '^[0-9]+ +ioctl\(3, FS_IOC_FIEMAP, \{fm_start=0, .*fm_extent_count=1\} <unfinished \.\.\.>$' "$TMP/out" ||
		fail "no unfinished ioctl: $(cat "$TMP/out")"
	grep -Eq '^[0-9]+ +<\.\.\. ioctl resumed> => \{fm_flags=0, fm_mapped_extents=[0-9]+, .*\}\) += 0 \(DELAYED\)$' "$TMP/out" ||
		fail "resumed ioctl: $(cat "$TMP/out")"
}

t_exit_group_ends_threads_at_once() {
	# exit_group while three threads wait: the calling thread prints
	# their "= ?" and "+++ exited" lines holding the ordering lock, and
	# must not wait for the lock as if they held it (it waited 200 ms
	# per thread for itself).  strace sees sysgate's futex waits after
	# the exit_group line is written: none, as the other threads wait in
	# read() and print nothing (the program itself makes no such wait).
	local n
	need_strace
	strace -f -qq -e trace=futex,write -o "$TMP/st" -- "$SG" -f \
		-o "$TMP/out" -- "$BUILD/tests/cli/order" exit-group ||
		fail "exit status $?"
	[ "$(grep -c '+++ exited with 0 +++' "$TMP/out")" = 4 ] ||
		fail "$(cat "$TMP/out")"
	n=$(awk '/write\(.*exit_group\(0\)/ { on = 1 }
		 on && /FUTEX_WAIT/ { n++ } END { print n + 0 }' "$TMP/st")
	[ "$n" = 0 ] || fail "$n waits for the ordering lock after exit_group"
}

t_coverage_scripts() {
	# "#!" scripts, one started through env as pyenv's shims are: each
	# interpreter is hooked from ld.so's first instruction as the kernel
	# starts it (the script's path as its argument).
	need_strace
	printf '#!/usr/bin/env sh\nexec %s/b one "$@"\n' "$TMP" >"$TMP/a"
	printf '#!/bin/sh -e\n/bin/true "$@"\necho "$0" "$@"\n' >"$TMP/b"
	chmod +x "$TMP/a" "$TMP/b"
	count_same_as_strace -- "$TMP/a" two
	[ "$(cat "$TMP/sg.out")" = "$TMP/b one two" ] || fail "output: $(cat "$TMP/sg.out")"
}

t_nested_scripts() {
	# A script whose interpreter is a script, five deep as the kernel
	# lets (a sixth is ELOOP): the argv the kernel builds, each
	# interpreter hooked from its first instruction, started by the CLI
	# and from inside the tree; the sixth fails as natively.
	local i out
	need_strace
	printf '#!/bin/sh\necho "$0" "$@"\n' >"$TMP/s0"
	for i in 1 2 3 4 5; do
		printf '#!%s/s%d x%d\n' "$TMP" $((i - 1)) $i >"$TMP/s$i"
	done
	chmod +x "$TMP"/s?
	out="$TMP/s0 x1 $TMP/s1 x2 $TMP/s2 x3 $TMP/s3 x4 $TMP/s4 a"
	count_same_as_strace -- "$TMP/s4" a
	[ "$(cat "$TMP/sg.out")" = "$out" ] || fail "argv: $(cat "$TMP/sg.out")"
	count_same_as_strace -- sh -c "$TMP/s4 a; $TMP/s5 b; $TMP/s2 c"
	"$SG" -o /dev/null -- "$TMP/s5" 2>"$TMP/err" && fail "a sixth script ran"
	grep -q "s5: Too many levels of symbolic links" "$TMP/err" ||
		fail "$(cat "$TMP/err")"
}

t_state_not_held() {
	# The shared state is mapped, its descriptor closed: a program does
	# not find it in /proc/self/fd, and its children are still counted
	# (it is opened again for a followed execve).  Reopening it from the
	# mapping takes CAP_CHECKPOINT_RESTORE (root).
	"$SG" -f -c -o "$TMP/c" -- sh -c 'ls -l /proc/$$/fd; /bin/true' >"$TMP/out" ||
		fail "exit status $?"
	if grep -q sysgate-state "$TMP/out"; then
		[ "$(id -u)" = 0 ] && fail "held: $(cat "$TMP/out")"
		echo "not root: the state's descriptor stays in the program"; exit 77
	fi
	[ "$(calls_of "$TMP/c" execve)" = 3 ] || fail "children not counted: $(cat "$TMP/c")"
}

t_dump_long_fd_lists() {
	# -e read=/write= as strace's readv test gives them: every
	# descriptor below 1023 (longer than the option buffer and a hook's
	# arguments), repeated !, descriptors far above 1024; output as
	# strace's.  Descriptor ranges are strace's refusal too.
	need_strace
	[ -x "$BUILD/tests/strace/desc" ] ||
		{ echo "no golden corpus on $ARCH"; exit 77; }
	local l='!!!0' i
	for ((i = 1; i < 1023; i++)); do l+=",$i"; done
	bash tests/strace/run.sh desc -e "read=$l" -e "write=!$l" ||
		fail "lists of every descriptor"
	bash tests/strace/run.sh desc -e read=19998,1 -e 'write=!!19999,3' ||
		fail "descriptors above 1024"
	"$SG" -e read=1-3 true 2>/dev/null && fail "a range accepted"
	return 0
}

uret_remove() {
	local i
	[ -e /sys/kernel/tracing/events/sgtest/uret ] || return 0
	echo 0 > /sys/kernel/tracing/events/sgtest/uret/enable 2>/dev/null
	for i in 1 2 3 4 5 6 7 8 9 10; do
		echo "-:sgtest/uret" >> /sys/kernel/tracing/uprobe_events \
			2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

t_uretprobe() {
	# A uretprobe (bpftrace's and perf's uretprobe:) on a function of
	# the program: since Linux 6.11 the kernel's return trampoline ends
	# in a uretprobe call that only its own page may make; sysgate made
	# it from its own text and the program died of SIGILL.  The probe is
	# set through tracefs for the test's length and always removed.
	local ev=/sys/kernel/tracing/uprobe_events prog=$BUILD/tests/cli/uret-prog
	local off m n
	[ "$(id -u)" = 0 ] && [ -w "$ev" ] ||
		{ echo "needs root and tracefs at /sys/kernel/tracing"; exit 77; }
	# the function's file offset, as uprobes take it
	off=$(python3 - "$prog" <<'PY'
import subprocess, sys
p = sys.argv[1]
sym = [l.split() for l in subprocess.run(["nm", p], capture_output=True,
       text=True).stdout.splitlines() if l.endswith(" probed")][0]
addr = int(sym[0], 16)
for l in subprocess.run(["readelf", "-lW", p], capture_output=True,
                        text=True).stdout.splitlines():
    f = l.split()
    if f and f[0] == "LOAD":
        o, v, sz = int(f[1], 16), int(f[2], 16), int(f[5], 16)
        if v <= addr < v + sz:
            print(hex(addr - v + o))
PY
) || fail "no offset for probed()"
	# (the probe goes on every way out; its removal may be refused for
	# a moment after it is disabled: tried again)
	trap 'uret_remove; rm -rf "$TMP"' EXIT
	trap 'exit 143' TERM INT
	uret_remove
	echo "r:sgtest/uret $prog:$off" >> "$ev" || { echo "uprobes refused"; exit 77; }
	echo 1 > /sys/kernel/tracing/events/sgtest/uret/enable || fail "enable"
	"$prog" >"$TMP/native" || fail "native run: exit $?"
	for m in patch sud seccomp int3; do
		"$SG" --list-mechanisms | grep -q "^$m *available" || continue
		"$SG" -m $m -f -o "$TMP/trace" -- "$prog" >"$TMP/out" ||
			fail "-m $m: exit $? ($(tail -2 "$TMP/trace"))"
		same "$TMP/native" "$TMP/out"
		# every call seen, those after a trampoline's too
		n=$(grep -c '^[0-9]* *getppid() *= ' "$TMP/trace")
		[ "$n" = 21 ] || fail "-m $m: $n getppid lines, want 21"
	done
}

# -u USER (or UID:GID) as strace's: the program runs with that user's ids
# and groups, a set-ID program with its owner or group as its effective
# id (which the loader's execve cannot give it); the output file, made
# by root, is written all the same.
need_user_nobody() {
	[ "$(id -u)" = 0 ] || { echo "needs root"; exit 77; }
	command -v setpriv >/dev/null || { echo "no setpriv"; exit 77; }
	chmod 755 "$TMP"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		test -x "$BUILD/sysgate-loader" -a -r "$BUILD/sysgate-loader.text" ||
		{ echo "nobody cannot reach $BUILD"; exit 77; }
}

t_user() {
	local p m
	need_user_nobody
	cp /usr/bin/id "$TMP/suid" && chmod 4755 "$TMP/suid"
	cp /usr/bin/id "$TMP/sgid" && chgrp mail "$TMP/sgid" &&
		chmod 2755 "$TMP/sgid"
	for p in /usr/bin/id "$TMP/suid" "$TMP/sgid"; do
		setpriv --reuid=65534 --regid=65534 --init-groups \
			"$p" >"$TMP/want" || fail "native $p"
		for m in patch sud ptrace; do
			"$SG" -m $m -u nobody -o "$TMP/out" -- "$p" >"$TMP/got" ||
				fail "-m $m -u nobody $p: exit $?"
			same "$TMP/want" "$TMP/got"
			grep -q '^write(1, "uid=65534(nobody)' "$TMP/out" ||
				fail "-m $m: no trace of $p in $TMP/out"
		done
	done
	"$SG" -u 65534:65534 -- /usr/bin/id >"$TMP/got" || fail "UID:GID"
	echo "uid=65534(nobody) gid=65534(nogroup) groups=65534(nogroup)" >"$TMP/want"
	same "$TMP/want" "$TMP/got"
	"$SG" -f -c -u nobody -o "$TMP/out" -- sh -c 'id -u' >"$TMP/got" &&
		[ "$(cat "$TMP/got")" = 65534 ] || fail "-f -c -u nobody"
	grep -q ' total$' "$TMP/out" || fail "-c summary missing"
}

t_user_refused() {
	local out
	need_user_nobody
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SG" -u nobody -- true 2>&1) && fail "not root: exit 0"
	[ "$out" = "sysgate: You must be root to use the -u/--username option" ] ||
		fail "not root: '$out'"
	out=$("$SG" -u no-such-user-here -- true 2>&1) && fail "no user: exit 0"
	[ "$out" = "sysgate: Cannot find user 'no-such-user-here'" ] ||
		fail "no user: '$out'"
	out=$("$SG" -u 12:x -- true 2>&1) && fail "bad pair: exit 0"
	[ "$out" = "sysgate: invalid -u value (a user name or UID:GID): 12:x" ] ||
		fail "bad pair: '$out'"
	out=$("$SG" -u nobody -p 1 2>&1) && fail "-p: exit 0"
	[ "$out" = "sysgate: -u runs PROG as another user: not with -p" ] ||
		fail "-p: '$out'"
}

"t_$1"
