#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The golden corpus: one small program per area that strace decodes,
# traced by strace and by sysgate; each test passes only when every line
# from the program's first own call is identical (tests/strace/run.sh).
[ "$ARCH" = x86_64 ] || exit 0
for c in tests/strace/*.c; do
	n=$(basename "$c" .c)
	# events, threxec, thrgroup, killkids and sigchld run with their
	# options below
	case $n in events|threxec|thrgroup|killkids|sigchld) continue ;; esac
	printf '%s\tbash tests/strace/run.sh %s\n' "$n" "$n"
	# -X reaches every decoder's constants: each program in both styles
	printf '%s-Xraw\tbash tests/strace/run.sh %s -X raw\n' "$n" "$n"
	printf '%s-Xverbose\tbash tests/strace/run.sh %s -X verbose\n' "$n" "$n"
	# -k: every call's stack (-qq: strace 6.1 -k garbles its "+++
	# exited" lines, running them into the last stack line or dropping
	# them)
	# (uffd among them: the unwinder once read the first bytes of every
	# mapping, the program's registered pages too, and its UFFDIO_COPY
	# then failed with EEXIST, or it hung)
	printf '%s-k\tbash tests/strace/run.sh %s -k -qq\n' "$n" "$n"
	# --json: JSON Lines, and the golden records where there are some
	printf '%s-json\tbash tests/strace/json.sh %s\n' "$n" "$n"
	# -m ptrace, which runs the same hooks in the tracer (sysgate under
	# sysgate uses it): every line as strace's too
	printf '%s-ptrace\tSG_RUN_OPTS="-m ptrace" bash tests/strace/run.sh %s\n' \
		"$n" "$n"
done
# signals and their rt_sigreturn under the mechanisms that trap them
for m in seccomp sud int3; do
	printf 'sigdeliver-%s\tSG_RUN_OPTS="-m %s" bash tests/strace/run.sh sigdeliver\n' \
		"$m" "$m"
done
printf 'killkids-json\tbash tests/strace/json.sh killkids\n'
# (clone3 as in events-ptrace)
printf 'killkids-ptrace\tSG_RUN_OPTS="-m ptrace" bash tests/strace/run.sh killkids %s\n' \
	"-e trace='!clone3'"
printf 'events-ptrace\tSG_RUN_OPTS="-m ptrace" bash tests/strace/run.sh events %s\n' \
	"-e trace='!pread64,futex,clone3,madvise'"
# (no -k: strace 6.1 prints the stack of a leader's exit, while another
# thread runs, as that thread's)
printf 'sigchld\tbash tests/strace/run.sh sigchld\n'
printf 'sigchld-Xraw\tbash tests/strace/run.sh sigchld -X raw\n'
printf 'sigchld-json\tbash tests/strace/json.sh sigchld\n'
printf 'sigchld-ptrace\tSG_RUN_OPTS="-m ptrace" bash tests/strace/run.sh sigchld %s\n' \
	"-e trace='!clone3'"
for m in seccomp sud int3; do
	printf 'sigchld-%s\tSG_RUN_OPTS="-m %s" bash tests/strace/run.sh sigchld\n' \
		"$m" "$m"
done
# strace's options, given to both: test name, program, options.
set -f	# regexes: no globbing of the options' words
while read -r t n opts; do
	# shellcheck disable=SC2086 # the options are words
	printf '%s\tbash tests/strace/run.sh %s %s\n' "$t" "$n" \
		"$(printf '%q ' $opts)"
done <<'EOF'
file-y file -y
sigchld-set sigchld -e trace=write,close,exit_group,kill
sigchld-nosig sigchld -e signal=!SIGCHLD
sigchld-i sigchld -i
sigchld-ttr sigchld -tt -r
sigdeliver-t sigdeliver -t
desc-y desc -y
net-y net -y
netlink-yy netlink -yy
poll-y poll -y
poll-s poll -s 2
poll-sv poll -s 2 -v
misc-x misc -x
net-xx net -xx
net-rw net -e read=all -e write=all
file-z file -z
file-Z file -Z
proc-r proc -r
proc-ttr proc -tt -r
proc-n proc -n
proc-y proc -y
proc-i proc -i
sigdeliver-i sigdeliver -i
file-t file -t
net-a net -a 20
misc-status misc -e status=failed,unfinished
sigdeliver-ok sigdeliver -e status=successful
sigdeliver-failed sigdeliver -e status=failed
file-v file -v
desc-v desc -v
tty-v tty -v
loop-v loop -v
loop-y loop -y
rtc-inject rtc -e inject=ioctl:retval=0
rtc-inject-v rtc -v -X verbose -e inject=ioctl:retval=0
perf-v perf -v
perf-nv perf -e verbose=none
misc-v misc -v
seccomp-v seccomp -v
sigdeliver-nosig sigdeliver -e signal=none -e trace=!rt_sigreturn
desc-dump desc -e read=all -e write=all
net-dump net -e read=3,4 -e write=!3
proc-qq proc -qq
proc-quiet proc -e quiet=attach,exit
file-stat file -e trace=%stat,write,close
file-lstat file -e trace=%lstat,write,close
file-fstat file -e trace=%fstat,write,close
file-statfs file -e trace=%statfs,%fstatfs,write,close
file-allstat file -e trace=%%stat,%%statfs,write,close
file-oldclass file -e trace=file,write,close
tamper-poke tamper -e inject=chdir:poke_enter=@arg1=2f746d7000 -e inject=getcwd:poke_exit=@arg1=2f706f6b656400:delay_exit=1 -e inject=mkdir:poke_enter=@arg1=2f00:retval=0
quota-inject quota -e inject=quotactl,quotactl_fd:retval=42
noret-fault noret -e fault=exit_group:error=ENOSYS
noret-fault-last noret -e fault=exit_group,exit:error=ENOSYS -e fault=exit:error=1:when=2+
quota-inject-v quota -v -e inject=quotactl,quotactl_fd:retval=42
quota-v quota -v
ptp-inject ptp -e inject=ioctl:retval=42
mtd-inject mtd -e inject=ioctl:retval=0
dm-v dm -v
ptrace-y ptrace -y
ptp-inject-s ptp -s 60 -e inject=ioctl:retval=42
ptp-inject-v ptp -v -e inject=ioctl:retval=42 -X verbose
kd-inject kd -e inject=ioctl:retval=42
kd-inject-s kd -s 8 -e inject=ioctl:retval=42
kd-inject-Xverbose kd -X verbose -e inject=ioctl:retval=42
kd-inject-Xraw kd -X raw -e inject=ioctl:retval=42
kd-v kd -v -e inject=ioctl:retval=42
v4l2-v v4l2 -v
v4l2-s v4l2 -s 4
v4l2ret-inject v4l2ret -e inject=ioctl:retval=0
v4l2ret-inject-Xverbose v4l2ret -X verbose -e inject=ioctl:retval=0
v4l2ret-inject-v v4l2ret -v -e inject=ioctl:retval=0
v4l2ret-inject-Xraw v4l2ret -X raw -e inject=ioctl:retval=0
mem-regex mem -e trace=/^(mmap|m(un|pro)(map|tect)|write|close)$
file-regex file -e trace=/^((new)?fstatat|write|close|statx)$
file-at64 file -e trace=write@64,close@64,openat
ipc-class ipc -e trace=ipc,write
file-P file -P f.txt
file-P-renamed file -P g.txt
events events -e trace=!pread64,futex,clone3,madvise
threxec threxec -e trace=write,close,execve,exit,pause,nanosleep
thrgroup thrgroup -e trace=write,close,exit_group,pause
killkids killkids -e trace=all
killkids-Xraw killkids -X raw
killkids-Xverbose killkids -X verbose
killkids-k killkids -k -qq -e trace=write,close,kill,wait4,waitid,pause,rt_sigsuspend,mmap
killkids-nokill killkids -e signal=!SIGKILL
threxec-qqq threxec -qqq -e trace=write,close,execve,exit,pause,nanosleep
threxec-noexec threxec -e trace=write,close,exit,pause,nanosleep
threxec-unfinished threxec -e status=failed,unfinished -e trace=write,close,execve,exit,pause,nanosleep
events-qq events -qq -e trace=!pread64,futex,clone3,madvise
events-i events -i -e trace=!pread64,futex,clone3,madvise
net-yy net -yy
desc-yy desc -yy
sched-yy sched -yy
sched-fds sched -e decode-fds=pidfd,dev
sched-fdsock sched -e decode-fds=socket
file-yy file -yy
poll-yy poll -yy
file-Xverbose-v file -X verbose -v
poll-verbose-none poll -e verbose=none
proc-verbose-none proc -e verbose=none
misc-verbose-some misc -e verbose=!%desc
sigdeliver-verbose-none sigdeliver -e verbose=none
file-abbrev-none file -e abbrev=none
desc-abbrev-some desc -e abbrev=!%desc
file-raw file -e raw=%file,read,futex
net-raw net -e raw=%network
desc-Xraw-v desc -X raw -v
iov-s iov -s 4
iov-v iov -v
iov-dump iov -e read=all -e write=all
mq-dump mq -e read=all -e write=all
mq-y mq -y
seccomp-y seccomp -y
ioctl-y ioctl -y
seccomp-inject seccomp -e inject=ioctl:retval=0
seccomp-inject-Xverbose seccomp -X verbose -e inject=ioctl:retval=0
seccomp-inject-Xraw seccomp -X raw -e inject=ioctl:retval=0
gpio-v gpio -v
gpio-inject gpio -e inject=ioctl:retval=0
gpio-inject-Xverbose gpio -X verbose -e inject=ioctl:retval=0
gpio-inject-y gpio -y -e inject=ioctl:retval=0
evdev-v evdev -v
evdev-inject evdev -e inject=ioctl:retval=8
evdev-inject-v evdev -v -e inject=ioctl:retval=16
evdev-inject-Xraw evdev -X raw -e inject=ioctl:retval=2
evdev-inject-Xverbose evdev -X verbose -e inject=ioctl:retval=16
landlock-y landlock -y
landlock-inject-y landlock -y -e inject=landlock_create_ruleset:retval=1
mount-y mount -y
keys-s keys -s 8
module-s module -s 8
mount-s mount -s 4
pathsel-P pathsel -P /dev/null
pathsel-Prel pathsel -P tests/strace/corpus.h
pathsel-Pboth-y pathsel -y -P /dev/null -P tests/strace/corpus.h
dumpbig-write dumpbig -e write=3
mmsg-v mmsg -v
bpf-v bpf -v
bpf-y bpf -y
exec-v exec -v
exec-s exec -s 5
exec-sbig exec -s 10000
EOF
# --decode-pids: in a new user and pid namespace when one can be made
userns='unshare -Urp true 2>/dev/null || { echo "no user namespaces"; exit 77; }'
printf 'pidns-%s\t%s; bash tests/strace/run.sh pidns %s\n' \
	translation "$userns" --decode-pids=pidns \
	Y "$userns" -Y \
	all "$userns" --decode-pids=all \
	translation-y "$userns" "--decode-pids=pidns -y"
# Local time (utimensat's dates in winter and summer) in time zones
# from a TZif file (north, south), a POSIX rule and a fixed offset.
for tz in file:Europe/Berlin south::Australia/Sydney \
	rule:EST5EDT,M3.2.0,M11.1.0 fixed:'<+0545>-5:45'; do
	printf 'time-tz-%s\tTZ=%q bash tests/strace/run.sh time\n' \
		"${tz%%:*}" "${tz#*:}"
done
