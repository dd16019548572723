#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""compare.py STRACE-LOG SYSGATE-LOG [--quiet] [--from-first] [--whole]:
the share of strace's lines that sysgate printed identically, for one
corpus program.

Both logs come from `-f -o LOG`.  Lines are compared from the program's
first own call (its begin() marker: the loader's calls before it are
another issue's), process by process (pids numbered in order of
appearance), after normalising only what differs between two runs: pids,
addresses (hex of 8 or more digits), times (-t, -r, -T, rusage, -v's file
times), what the kernel picks (ports, pipe and socket inodes, inode
numbers), the fields of sysinfo and statfs that move, and how the two
tools lay lines out: strace's `PID ` prefix against sysgate's `[pid N] `,
the result column, and a call strace splits into `<unfinished ...>` and
`<... resumed>` when another process prints in between (sysgate prints a
call whole).

--whole compares whole logs when the marker is filtered out (-P).
--from-first compares any program's logs from the first call sysgate
saw (its name), for measuring everyday programs.

Prints `identical M/N (P%)` and, unless --quiet, the differing lines;
exits 0 only when every line is identical.
"""
import difflib
import re
import sys

# The corpus programs' begin(): a write, then a call that fails (so that
# -z and -Z both keep one), in any -x/-y/-yy form.
MARK = re.compile(r'write\(1(<[^>]*(<[^>]*>)?>)?, "[^"]*", 14\)|close\(-1000\)')


def records(path):
    """[(pid, text)] with unfinished calls joined to their resumption."""
    out, pending, last = [], {}, "0"
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            # (-Y: the task's name after its pid, kept in the text)
            m = re.match(r"^(?:\[pid +(\d+)(<[^>]*>)?\] |(\d+)(<[^>]*>)? +)?"
                         r"(.*)$", line)
            # hex dump lines (-e read=, write=) follow their call's line
            pid = m.group(1) or m.group(3) or last
            last = pid
            # -r, -ttt; -t, -tt (and -r after them)
            text = re.sub(r"^ *\d+\.\d{6} ", "T ", m.group(5))
            comm = m.group(2) + " " if m.group(2) else \
                m.group(4) + " " if m.group(4) else ""
            text = re.sub(r"^\d\d:\d\d:\d\d(\.\d{6})? (\(\+ *\d+\.\d{6}\) )?",
                          "T ", text)
            # -i: where the call returns to (the program's own address)
            text = re.sub(r"^(T )?\[[0-9a-f]{16}\] ", r"\1[IP] ", text)
            if text.endswith(" <unfinished ...>"):
                pending[pid] = (len(out),
                                comm + text[: -len(" <unfinished ...>")])
                out.append(None)
                continue
            r = re.match(r"^(?:T )?(?:\[IP\] )?(?:\[ *\d+\] )?<\.\.\. \w+ resumed>(.*)$",
                         text)
            if r and pid in pending:
                i, head = pending.pop(pid)
                out[i] = (pid, head + r.group(1))
                continue
            out.append((pid, comm + text))
    # (never resumed by its own task: a thread's execve, which the
    # leader's pid ends; still that thread's line)
    for p, (i, head) in pending.items():
        out[i] = (p, head)
    return [r for r in out if r is not None]


def normalise(recs, mark=MARK):
    """{P1: [lines]}, from the marker on."""
    start = next((i for i, (_, t) in enumerate(recs)
                  if re.match(r"(<[^>]*> )?(T )?(\[IP\] )?(\[ *\d+\] )?(%s)" %
                              mark.pattern, t)),
                 None)
    if start is None:
        return None
    return from_index(recs, start)


def from_index(recs, start):
    recs = recs[start:]
    names = {}
    for pid, text in recs:
        names.setdefault(pid, "P%d" % (len(names) + 1))
        # (a thread that ran execve, with no line of its own shown)
        m = re.search(r"\+\+\+ superseded by execve in pid (\d+) \+\+\+$",
                      text)
        if m:
            names.setdefault(m.group(1), "P%d" % (len(names) + 1))
    # (not a factor of strace's rlimit notation, 8192*1024: a pid can
    # have that value)
    pid_re = re.compile(r"\b(%s)\b(?!\*)" %
                        "|".join(map(re.escape, names))) if names else None
    procs = {}
    for pid, text in recs:
        text = run_free(text)
        line = Line(pid_re.sub(lambda m: names[m.group(1)], text)
                    if pid_re else text)
        line.raw, line.names = text, names
        procs.setdefault(names[pid], []).append(line)
    return procs


class Line(str):
    """A normalised line (pids named P1, P2...), with raw: the same line
    with its numbers as printed, and names: its log's pid -> name."""


def same_line(a, b):
    """Lines equal but where a number equal to a pid of one run is not a
    pid there (832 bytes read, a pid 832 in one run only): each number
    must be the same in both, or pids of the same name."""
    if a == b:
        return True
    x, y = re.split(r"(\d+)", a.raw), re.split(r"(\d+)", b.raw)
    return len(x) == len(y) and all(
        u == v or (i % 2 and u in a.names and
                   a.names[u] == b.names.get(v))
        for i, (u, v) in enumerate(zip(x, y)))


def run_free(text):
    """text without what differs from run to run (but pids)."""
    text = re.sub(r"0x[0-9a-f]{8,}", "0xADDR", text)
    text = re.sub(r" <\d+\.\d+>$", "", text)
    text = re.sub(r"left \{tv_sec=\d+, tv_(n|u)sec=\d+\}",
                  r"left {tv_sec=N, tv_\1sec=N}", text)
    # ports the kernel picks (ip_local_port_range starts at 32768)
    text = re.sub(r"(sin6?_port=htons\()(3[2-9]\d{3}|[4-6]\d{4})\)",
                  r"\1PORT)", text)
    # -X raw and verbose: the port's bytes (and htons() in a comment)
    text = re.sub(r'(sin6?_port=)"\\x([0-9a-f]{2})\\x([0-9a-f]{2})"',
                  lambda m: m.group(1) + ('"PORT"' if 32768 <= int(
                      m.group(2) + m.group(3), 16) <= 65535
                      else m.group(0)[len(m.group(1)):]), text)
    text = re.sub(r"(/\* htons\()(3[2-9]\d{3}|[4-6]\d{4})\)",
                  r"\1PORT)", text)
    text = re.sub(r"\) +=( |$)", r") =\1", text)
    text = re.sub(r"\b(ru_[us]time)=\{tv_sec=\d+, tv_usec=\d+\}",
                  r"\1=T", text)
    # the child's CPU time in the siginfo waitid fills (a 6.18 kernel
    # gave si_utime=64, si_stime=268435456 on and off, to strace too)
    if re.search(r"\bwaitid\(", text):
        text = re.sub(r"\b(si_[us]time)=\d+( /\* [^*]* \*/)?", r"\1=T",
                      text)
    # -v: file times and inode numbers of the files each run makes
    text = re.sub(r"\b(st_[amc]time|stx_[abcm]time)=(\{[^}]*\}|\d+) "
                  r"/\* [^*]* \*/", r"\1=T", text)
    text = re.sub(r"\b(st_[amc]time_nsec|stx?_ino|d_ino)=\d+", r"\1=N",
                  text)
    # a BPF object's id (the kernel's counter, new each run)
    text = re.sub(r"(info=\{type=[A-Za-z0-9_]+, id=)\d+", r"\1N", text)
    # inodes of pipes and sockets (-y)
    text = re.sub(r"<(pipe|socket|anon_inode):\[\d+\]>", r"<\1:[N]>", text)
    # -yy: socket inodes (TCP:[123], UNIX:[123->124,"path"])
    text = re.sub(r"<([A-Z][A-Za-z0-9-]*):\[\d+(->\d+)?(?=[],])",
                  lambda m: "<%s:[N%s" % (m.group(1),
                                          "->N" if m.group(2) else ""),
                  text)
    # -yy: ports the kernel picks in the endpoints
    text = re.sub(r":(3[2-9]\d{3}|[4-6]\d{4})(?=\]|->)", ":PORT", text)
    if re.match(r"(T )?(\[IP\] )?(\[ *\d+\] )?f?statfs\(", text):
        text = re.sub(r"\b(f_bfree|f_bavail|f_ffree)=\d+", r"\1=N", text)
    if re.match(r"(T )?(\[IP\] )?(\[ *\d+\] )?sysinfo\(", text):
        text = re.sub(r"\b(uptime|freeram|sharedram|bufferram|freeswap|"
                      r"procs|freehigh)=\d+", r"\1=N", text)
        text = re.sub(r"loads=\[[^]]*\]", "loads=[N]", text)
    return text


def main():
    quiet = "--quiet" in sys.argv
    mark = MARK
    if "--from-first" in sys.argv:
        # Any program: from sysgate's first line that strace has too
        # (sysgate's start-up coverage is another issue).
        first = [t for _, t in records(sys.argv[2])
                 if not t.startswith(("execve(", "+++", "---"))]
        mark = re.compile(re.escape(first[0].split("(")[0] + "(")) \
            if first else MARK
    st = normalise(records(sys.argv[1]), mark)
    sg = normalise(records(sys.argv[2]), mark)
    if st is None and "--whole" in sys.argv:
        # -P PATH: the marker is not about PATH; nothing before it is.
        st = from_index(records(sys.argv[1]), 0)
        sg = from_index(records(sys.argv[2]), 0)
    if st is None:
        print("no marker in the strace log")
        return 2
    sg = sg or {}
    same = total = 0
    diffs = []
    for p, lines in st.items():
        other = sg.get(p, [])
        sm = difflib.SequenceMatcher(None, lines, other, autojunk=False)
        # lines that differ only by a pid-valued number: sysgate's
        # taken as strace's, and matched again
        other = list(other)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op == "replace" and i2 - i1 == j2 - j1:
                for i, j in zip(range(i1, i2), range(j1, j2)):
                    if same_line(lines[i], other[j]):
                        other[j] = lines[i]
        sm = difflib.SequenceMatcher(None, lines, other, autojunk=False)
        same += sum(b.size for b in sm.get_matching_blocks())
        total += len(lines)
        if lines != other:
            diffs += ["--- %s" % p] + [
                d for d in difflib.unified_diff(lines, other, "strace",
                                                "sysgate", n=0, lineterm="")
                # (its headers; "++++ killed by" is a line)
                if d not in ("--- strace", "+++ sysgate") and
                not d.startswith("@@")]
    extra = sum(len(v) for k, v in sg.items() if k not in st)
    if not quiet:
        for d in diffs:
            print(d)
    share = 100.0 * same / total if total else 100.0
    print("identical %d/%d (%.1f%%)%s" % (same, total, share,
          ", %d extra lines" % extra if extra else ""))
    return 0 if same == total and not diffs and not extra else 1


if __name__ == "__main__":
    sys.exit(main())
