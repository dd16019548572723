#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Median wall and CPU time (the tree's user + system, from wait4) of
commands run in interleaved rounds, as ratios to the first:

    scripts/interleave.py RUNS NAME=COMMAND...

Each round runs every command once, so load that comes and goes on a
shared machine lands on all of them alike; two warm-up rounds are not
counted.  doc/benchmarks.md ("First-trap planning") shows its use."""
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        sys.exit(__doc__)
    runs = int(sys.argv[1])
    cfgs = [a.split("=", 1) for a in sys.argv[2:]]
    res = {n: ([], []) for n, _ in cfgs}
    with open(os.devnull, "w") as null:
        for r in range(runs + 2):
            for name, cmd in cfgs:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                subprocess.run(shlex.split(cmd), stdout=null, stderr=null)
                wall = time.perf_counter() - t0
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime +
                       after.ru_stime - before.ru_stime)
                if r >= 2:
                    res[name][0].append(wall * 1000)
                    res[name][1].append(cpu * 1000)
    base = None
    for name, _ in cfgs:
        w, c = (statistics.median(v) for v in res[name])
        base = base or (w, c)
        print(f"{name:24s} wall {w:8.2f} ms ({w / max(base[0], 1e-9):.2f}x)"
              f"  cpu {c:8.2f} ms ({c / max(base[1], 1e-9):.2f}x)")


main()
