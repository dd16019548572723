# SPDX-License-Identifier: MIT
# CPython with threads, subprocesses and signals, in the order that
# exposes shared signal state: a subprocess (posix_spawn/vfork) before
# each signal.  Prints what it saw; the native run is the reference.
import os
import signal
import subprocess
import sys
import threading

results = []
lock = threading.Lock()


def work(n):
    s = sum(i * i for i in range(20000 + n))
    with lock:
        results.append(s)


threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("threads", sum(results))

out = subprocess.run(["sh", "-c", "echo from sh; exit 5"],
                     capture_output=True, text=True)
print("subprocess", out.stdout.strip(), out.returncode)
print("check_output", subprocess.check_output(["echo", "hi"], text=True).strip())

# SIGINT after a subprocess: KeyboardInterrupt, not death
subprocess.run(["true"])
try:
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(1000):
        pass
    print("no KeyboardInterrupt")
except KeyboardInterrupt:
    print("KeyboardInterrupt")

hits = []
signal.signal(signal.SIGUSR1, lambda s, f: hits.append(s))
for i in range(50):
    subprocess.run(["true"])
    os.kill(os.getpid(), signal.SIGUSR1)
print("SIGUSR1 handled", len(hits))

# a timer signal with a handler, delivered while threads run
ticks = []
signal.signal(signal.SIGALRM, lambda s, f: ticks.append(s))
signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
while len(ticks) < 20:
    signal.pause()
signal.setitimer(signal.ITIMER_REAL, 0, 0)
print("SIGALRM ticks", len(ticks) >= 20)

# a child killed by a signal, and one that exits with a status
p = subprocess.Popen(["sleep", "100"])
p.send_signal(signal.SIGTERM)
print("killed child", p.wait())
sys.stdout.flush()
sys.exit(4)
