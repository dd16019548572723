# SPDX-License-Identifier: MIT
# pair.py ROLE DIR SYNC: one of two clients (ROLE a or b) taking turns on
# the same files in DIR (on CephFS), each through its own mount, as two
# machines would; SYNC is a local directory with the fifos a2b and b2a
# that pass the turn.  Each prints what it saw; clients.sh compares it
# with what the same pair sees on ceph-fuse.  ROLE f is one client whose
# turns are passed by clients.sh, which stops the cluster's daemons
# between them (faults).
import errno
import fcntl
import os
import sys

role, d, sync = sys.argv[1:4]
if role == "a":
    out = open(sync + "/a2b", "w")
    inp = open(sync + "/b2a")
else:
    inp = open(sync + "/a2b")
    out = open(sync + "/b2a", "w")


def say(*a):
    print(role, *a, flush=True)


def give():
    out.write("turn\n")
    out.flush()


def wait():
    if inp.readline() != "turn\n":
        say("the other side ended")
        sys.exit(1)


def err(f, *a):
    try:
        r = f(*a)
        return "ok" if r is None else r
    except OSError as e:
        return errno.errorcode[e.errno]


def read(name):
    return err(lambda: open(d + "/" + name).read())


if role == "f":
    with open(d + "/f1", "w") as f:
        f.write("before\n")
        os.fsync(f.fileno())
    say("wrote f1")
    give()
    wait()				# the MDS is killed, then started again
    say("stat f1:", os.stat(d + "/f1").st_size, "read:", repr(read("f1")))
    with open(d + "/f2", "w") as f:
        f.write("while the MDS came back\n")
        os.fsync(f.fileno())
    say("listing:", sorted(os.listdir(d)))
    give()
    wait()				# the OSD is stopped, then continued
    with open(d + "/f3", "w") as f:
        f.write("x" * 100000)
        os.fsync(f.fileno())
    say("f3:", os.stat(d + "/f3").st_size, len(read("f3")), read("f2").strip())
    for n in ("f1", "f2", "f3"):
        os.unlink(d + "/" + n)
    say("listing:", sorted(os.listdir(d)))
elif role == "a":
    with open(d + "/f", "w") as f:		# written, closed: b reads it
        f.write("one\n")
    give()
    wait()
    say("after b's append:", repr(read("f")), os.stat(d + "/f").st_size)
    os.rename(d + "/f", d + "/g")
    give()
    wait()
    # A record lock and an flock held here, tried there.
    g = open(d + "/g", "r+")
    fcntl.lockf(g, fcntl.LOCK_EX)
    h = open(d + "/h", "w")
    fcntl.flock(h, fcntl.LOCK_EX)
    give()
    wait()				# b is about to block on g's lock
    say("unlocking")
    fcntl.lockf(g, fcntl.LOCK_UN)
    fcntl.flock(h, fcntl.LOCK_UN)
    wait()				# b got it
    g.close()
    h.close()
    with open(d + "/k", "w") as f:
        f.write("v1\n")
    give()
    wait()				# b holds k open
    with open(d + "/k", "w") as f:
        f.write("version two\n")
    give()
    wait()
    os.unlink(d + "/g")
    os.mkdir(d + "/sub")
    give()
    wait()
    say("listing:", sorted(os.listdir(d)))
    c = open(d + "/c", "w")
    fcntl.flock(c, fcntl.LOCK_EX)
    c.close()			# closed, never unlocked: the lock goes too
    give()
    wait()
else:
    wait()
    say("read f:", repr(read("f")), os.stat(d + "/f").st_size)
    with open(d + "/f", "a") as f:
        f.write("two\n")
    give()
    wait()
    say("after a's rename: f", read("f"), "g", repr(read("g")))
    give()
    wait()
    g = open(d + "/g", "r+")
    say("lockf held by a:", err(fcntl.lockf, g, fcntl.LOCK_EX | fcntl.LOCK_NB))
    h = open(d + "/h", "w")
    say("flock held by a:", err(fcntl.flock, h, fcntl.LOCK_EX | fcntl.LOCK_NB))
    give()
    fcntl.lockf(g, fcntl.LOCK_EX)	# blocks until a unlocks
    fcntl.flock(h, fcntl.LOCK_EX)
    say("locked after a unlocked")
    fcntl.lockf(g, fcntl.LOCK_UN)
    fcntl.flock(h, fcntl.LOCK_UN)
    g.close()
    h.close()
    give()
    wait()
    k = open(d + "/k")
    say("k:", repr(k.read()))
    give()
    wait()
    say("k again, same descriptor:", repr(os.pread(k.fileno(), 100, 0)),
        os.fstat(k.fileno()).st_size)
    k.close()
    give()
    wait()
    say("after a's unlink: g", read("g"), "sub", os.path.isdir(d + "/sub"))
    os.unlink(d + "/h")
    os.unlink(d + "/k")
    give()
    wait()
    c = open(d + "/c", "w")
    say("flock a closed:", err(fcntl.flock, c, fcntl.LOCK_EX | fcntl.LOCK_NB))
    c.close()
    os.unlink(d + "/c")
    give()
