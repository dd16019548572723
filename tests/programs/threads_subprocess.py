# SPDX-License-Identifier: MIT
# Python with threads and subprocesses: the output is deterministic.
import concurrent.futures, hashlib, os, subprocess, sys, tempfile

def work(i):
    h = hashlib.sha256()
    for j in range(2000):
        h.update(f"{i}:{j}".encode())
    with tempfile.TemporaryFile() as f:
        f.write(h.hexdigest().encode())
        f.seek(0)
        return i, f.read()[:16].decode()

with concurrent.futures.ThreadPoolExecutor(max_workers=8) as ex:
    for i, d in sorted(ex.map(work, range(32))):
        print(i, d)
out = subprocess.run(["sh", "-c", "echo from-child; ls / | wc -l"],
                     capture_output=True, text=True, check=True)
print(out.stdout.strip().replace("\n", " "))
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(r)
    os.write(w, b"forked\n")
    os._exit(3)
os.close(w)
print(os.read(r, 100).decode().strip(), os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
sys.exit(5)
