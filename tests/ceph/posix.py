# SPDX-License-Identifier: MIT
# posix.py ROOT: calls a kernel mount of CephFS serves that --fs once did
# not, as posix.sh runs them on ceph-fuse (the oracle) and under --fs;
# prints each call's result or errno name, never a figure that differs
# between mounts.  Extended attributes (path, l- and f- forms, flags,
# sizes, namespaces); sendfile, copy_file_range and splice with a CephFS
# descriptor at either end; renameat2's flags; O_TMPFILE; MAP_SHARED.
import ctypes, errno, mmap, os, sys
libc = ctypes.CDLL(None, use_errno=True)
R = sys.argv[1]
os.chdir(R)


def show(what, r, out=None):
    if r < 0:
        print(what, "=", errno.errorcode.get(ctypes.get_errno(), "?"))
    else:
        print(what, "=", r, "" if out is None else out)


def N(f):
    """What a call was given, as the same text on every mount: no
    descriptor numbers, long names shortened."""
    if isinstance(f, int):
        return "fd"
    return f if len(f) < 20 else f[:8] + "...(%d)" % len(f)


def B(s):
    return s.encode() if isinstance(s, str) else s


def getx(fn, f, name, size):
    buf = ctypes.create_string_buffer(max(size, 1))
    r = fn(B(f) if isinstance(f, str) else f, B(name), buf if size else None,
           ctypes.c_size_t(size))
    show("%s %s %s %d" % (fn.__name__, N(f), N(name), size), r,
         buf.raw[:r] if r > 0 and size else None)


def setx(fn, f, name, value, flags):
    r = fn(B(f) if isinstance(f, str) else f, B(name), B(value),
           ctypes.c_size_t(len(value)), flags)
    show("%s %s %s %s %d" % (fn.__name__, N(f), N(name), N(value), flags), r)


def listx(fn, f, size):
    buf = ctypes.create_string_buffer(max(size, 1))
    r = fn(B(f) if isinstance(f, str) else f, buf if size else None,
           ctypes.c_size_t(size))
    names = None
    if r > 0 and size:
        # the order is the file system's: compare the set
        names = sorted(n for n in buf.raw[:r].split(b"\0") if n)
    show("%s %s %d" % (fn.__name__, N(f), size), r, names)


def rmx(fn, f, name):
    r = fn(B(f) if isinstance(f, str) else f, B(name))
    show("%s %s %s" % (fn.__name__, N(f), N(name)), r)


def xattrs():
    with open("x", "w") as f:
        f.write("x\n")
    os.mkdir("xd")
    os.symlink("x", "xl")
    g, lg, fg = libc.getxattr, libc.lgetxattr, libc.fgetxattr
    s, ls, fs = libc.setxattr, libc.lsetxattr, libc.fsetxattr
    l, ll, fl = libc.listxattr, libc.llistxattr, libc.flistxattr
    r, lr, fr = libc.removexattr, libc.lremovexattr, libc.fremovexattr
    getx(g, "x", "user.a", 64)
    listx(l, "x", 256)
    setx(s, "x", "user.a", "one", 0)
    getx(g, "x", "user.a", 64)
    getx(g, "x", "user.a", 0)
    getx(g, "x", "user.a", 2)
    setx(s, "x", "user.a", "two", 1)		# XATTR_CREATE
    setx(s, "x", "user.b", "bee", 2)		# XATTR_REPLACE
    setx(s, "x", "user.a", "three", 2)
    setx(s, "x", "user.b", "", 1)
    setx(s, "x", "user.c", "c", 3)
    getx(g, "x", "user.a", 64)
    getx(g, "x", "user.b", 64)
    listx(l, "x", 0)
    listx(l, "x", 256)
    listx(l, "x", 3)
    getx(g, "xl", "user.a", 64)			# follows
    getx(lg, "xl", "user.a", 64)		# the link's own
    setx(ls, "xl", "user.l", "v", 0)
    listx(ll, "xl", 256)
    setx(s, "xd", "user.d", "dir", 0)
    getx(g, "xd", "user.d", 64)
    listx(l, "xd", 256)
    setx(s, "x", "bogus.a", "v", 0)
    setx(s, "x", "a", "v", 0)
    setx(s, "x", "", "v", 0)
    setx(s, "x", "user." + "n" * 300, "v", 0)
    getx(g, "x", "user." + "n" * 300, 64)
    getx(g, "nothere", "user.a", 64)
    getx(g, "x/y", "user.a", 64)
    setx(s, "x", "trusted.t", "tv", 0)
    getx(g, "x", "trusted.t", 64)
    setx(s, "x", "security.s", "sv", 0)
    getx(g, "x", "security.s", 64)
    listx(l, "x", 256)
    rmx(r, "x", "trusted.t")
    rmx(r, "x", "security.s")
    setx(s, "x", "user.big", "v" * 70000, 0)
    rmx(r, "x", "user.b")
    rmx(r, "x", "user.b")
    rmx(lr, "xl", "user.l")
    rmx(lr, "xl", "user.l")
    fd = os.open("x", os.O_RDWR)
    getx(fg, fd, "user.a", 64)
    setx(fs, fd, "user.f", "eff", 0)
    listx(fl, fd, 256)
    rmx(fr, fd, "user.f")
    rmx(fr, fd, "user.f")
    os.close(fd)
    fd = os.open("x", os.O_RDONLY)
    setx(fs, fd, "user.ro", "r", 0)
    getx(fg, fd, "user.ro", 64)
    os.close(fd)
    fd = os.open("x", os.O_PATH)
    getx(fg, fd, "user.a", 64)
    os.close(fd)
    fd = os.open("xd", os.O_RDONLY | os.O_DIRECTORY)
    getx(fg, fd, "user.d", 64)
    setx(fs, fd, "user.e", "e", 0)
    listx(fl, fd, 256)
    os.close(fd)
    listx(l, "x", 256)
    os.unlink("xl")
    os.unlink("x")
    os.rmdir("xd")


def off(v):
    return None if v is None else ctypes.c_longlong(v)


def pos(fd):
    return os.lseek(fd, 0, os.SEEK_CUR)


def copied(what, r, offs, fds):
    """One copy call: its result, the offsets it was given as they are
    after it, and where each descriptor's own offset is."""
    show(what, r, "offs %s at %s" % ([o.value for o in offs if o is not None],
                                     [pos(f) for f in fds]))


def content(name):
    with open(name, "rb") as f:
        return f.read()


def copies():
    # The host's side: a file where neither mount is.
    host = os.open(HOST, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(host, b"host data 0123456789\n")
    with open("c", "wb") as f:
        f.write(b"ceph data abcdefghijklmnopqrstuvwxyz\n")
    c = os.open("c", os.O_RDWR)
    d = os.open("d", os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    ro = os.open("c", os.O_RDONLY)
    wo = os.open("d", os.O_WRONLY)
    ap = os.open("d", os.O_WRONLY | os.O_APPEND)
    sf, cfr, spl = libc.sendfile, libc.copy_file_range, libc.splice
    for args, name in (((host, c, None, 5), "host<-ceph"),
                       ((host, c, 4, 6), "host<-ceph @4"),
                       ((d, host, None, 8), "ceph<-host at its end"),
                       ((d, host, 0, 8), "ceph<-host @0"),
                       ((d, c, 10, 7), "ceph<-ceph @10"),
                       ((d, c, None, 100), "ceph<-ceph to end"),
                       ((d, c, None, 0), "count 0"),
                       ((host, wo, None, 4), "from write-only"),
                       ((ro, c, None, 4), "to read-only"),
                       ((ap, c, 0, 4), "to O_APPEND"),
                       ((host, c, -1, 4), "offset -1")):
        o = off(args[2])
        r = sf(args[0], args[1], ctypes.byref(o) if o is not None else None,
               ctypes.c_size_t(args[3]))
        copied("sendfile " + name, r, [o], [c, d, host])
    print("d", content("d"))
    os.lseek(c, 0, os.SEEK_SET)
    os.ftruncate(d, 0)
    os.lseek(d, 0, os.SEEK_SET)
    for a, b, oi, oo, n, fl, name in ((c, d, None, None, 6, 0, "ceph->ceph"),
                                      (c, d, 2, 20, 5, 0, "ceph->ceph @"),
                                      (c, d, 30, None, 100, 0, "to end"),
                                      (c, d, 1000, None, 10, 0, "past end"),
                                      (c, d, None, None, 4, 1, "flags 1"),
                                      (c, host, None, None, 4, 0, "ceph->host"),
                                      (host, d, None, None, 4, 0, "host->ceph"),
                                      (c, c, 0, 4, 8, 0, "overlap"),
                                      (c, c, 0, 40, 4, 0, "same file"),
                                      (wo, d, None, None, 4, 0, "from write-only"),
                                      (c, ro, None, None, 4, 0, "to read-only"),
                                      (c, ap, None, None, 4, 0, "to O_APPEND"),
                                      (c, d, -1, None, 4, 0, "offset -1")):
        i, o = off(oi), off(oo)
        r = cfr(a, ctypes.byref(i) if i is not None else None, b,
                ctypes.byref(o) if o is not None else None,
                ctypes.c_size_t(n), fl)
        copied("copy_file_range " + name, r, [i, o], [c, d, host])
    print("d", content("d"))
    print("c", content("c"))
    rp, wp = os.pipe()
    os.lseek(c, 0, os.SEEK_SET)
    for a, b, oi, oo, n, name in ((c, wp, None, None, 5, "ceph->pipe"),
                                  (c, wp, 12, None, 3, "ceph@12->pipe"),
                                  (rp, d, None, None, 4, "pipe->ceph"),
                                  (rp, d, None, 1, 4, "pipe->ceph@1"),
                                  (c, d, None, None, 4, "ceph->ceph"),
                                  (c, wp, -1, None, 4, "offset -1"),
                                  (wp, d, None, None, 4, "from the pipe's write end"),
                                  (wo, wp, None, None, 4, "from write-only"),
                                  (rp, ap, None, None, 4, "to O_APPEND"),
                                  (rp, ro, None, None, 4, "to read-only"),
                                  (rp, d, None, None, 0, "count 0")):
        i, o = off(oi), off(oo)
        r = spl(a, ctypes.byref(i) if i is not None else None, b,
                ctypes.byref(o) if o is not None else None,
                ctypes.c_size_t(n), 0)
        copied("splice " + name, r, [i, o], [c, d, host])
    print("d", content("d"))
    show("tee ceph", libc.tee(c, wp, ctypes.c_size_t(4), 0))
    for f in (c, d, ro, wo, ap, host, rp, wp):
        os.close(f)
    os.unlink(HOST)
    os.unlink("c")
    os.unlink("d")


def rename2(a, b, flags):
    r = libc.renameat2(-100, B(a), -100, B(b), flags)
    show("renameat2 %s %s %d" % (a, b, flags), r,
         sorted(n for n in os.listdir(".") if n.startswith("r")))


def renames():
    # CephFS, as the kernel's client and ceph-fuse, takes no flags: the
    # kernel's own checks answer first (a missing name, EEXIST), then
    # EINVAL.
    for n in ("ra", "rb"):
        with open(n, "w") as f:
            f.write(n)
    os.mkdir("rd")
    rename2("ra", "rc", 1)			# RENAME_NOREPLACE
    rename2("ra", "rb", 1)
    rename2("rd", "re", 1)
    rename2("nothere", "rg", 1)
    rename2("ra", "rb", 2)			# RENAME_EXCHANGE
    rename2("ra", "rg", 2)
    rename2("ra", "rb", 3)
    rename2("ra", "rg", 4)			# RENAME_WHITEOUT
    rename2("ra", "rg", 8)
    rename2("ra", "ra", 1)
    rename2("ra", "rc", 0)
    for n in sorted(os.listdir(".")):
        if n.startswith("r"):
            print(n, content(n) if os.path.isfile(n) else "dir")
            (os.rmdir if os.path.isdir(n) else os.unlink)(n)


def tmpfiles():
    os.mkdir("td")
    open("tf", "w").close()
    for d, flags, name in (("td", os.O_RDWR, "RDWR"),
                           ("td", os.O_WRONLY, "WRONLY"),
                           ("td", os.O_RDONLY, "RDONLY"),
                           ("nothere", os.O_RDWR, "missing dir"),
                           ("tf", os.O_RDWR, "a file")):
        try:
            fd = os.open(d, os.O_TMPFILE | flags, 0o600)
            print("O_TMPFILE", name, "ok", os.listdir("td"))
            os.close(fd)
        except OSError as e:
            print("O_TMPFILE", name, errno.errorcode[e.errno])
    os.rmdir("td")
    os.unlink("tf")


def maps():
    with open("m", "wb") as f:
        f.write(b"mapped bytes\n" * 400)
    for flags, prot, mode, name in (
            (mmap.MAP_SHARED, mmap.PROT_READ, os.O_RDONLY, "shared read"),
            (mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE, os.O_RDONLY,
             "shared write, read-only file"),
            (mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE, os.O_WRONLY,
             "shared write, write-only file"),
            (mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE,
             os.O_RDWR | os.O_APPEND, "shared write, O_APPEND"),
            (mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE, os.O_RDWR,
             "shared write"),
            (mmap.MAP_PRIVATE, mmap.PROT_READ | mmap.PROT_WRITE, os.O_RDONLY,
             "private write")):
        fd = os.open("m", mode)
        try:
            m = mmap.mmap(fd, 4096, flags, prot)
            print("mmap", name, "ok", m[:12])
            if prot & mmap.PROT_WRITE:
                m[0:6] = b"MAPPED"
                m.flush()
            m.close()
        except OSError as e:
            print("mmap", name, errno.errorcode[e.errno])
        os.close(fd)
        print("file", content("m")[:12])
    os.unlink("m")


def shared():
    """Writes through a MAP_SHARED mapping: seen by the process's own
    read(2) at once, its write(2) seen in the mapping, in the file after
    msync, munmap or the process's end (another process reads it then),
    shared with a fork child, two mappings of one file one page."""
    with open("s", "wb") as f:
        f.write(b"0123456789abcdef" * 1024)     # 4 pages
    fd = os.open("s", os.O_RDWR)
    m = mmap.mmap(fd, 16384, mmap.MAP_SHARED,
                  mmap.PROT_READ | mmap.PROT_WRITE)
    m[5:10] = b"HELLO"
    print("read(2) sees the mapping", os.pread(fd, 12, 0))
    os.pwrite(fd, b"written", 4096)
    print("mapping sees write(2)", m[4096:4110])
    m[8192:8197] = b"SYNC!"
    m.flush()
    print("other process after msync", other("s", 8192, 8))
    m[8200:8205] = b"FSYNC"
    os.fsync(fd)
    print("other process after fsync", other("s", 8200, 8))
    m2 = mmap.mmap(fd, 4096, mmap.MAP_SHARED,
                   mmap.PROT_READ | mmap.PROT_WRITE, offset=12288)
    m2[0:4] = b"TWO!"
    print("two mappings, one page", m[12288:12296])
    pid = os.fork()
    if pid == 0:
        m[100:105] = b"CHILD"
        os._exit(0)
    os.waitpid(pid, 0)
    print("fork child's write in the parent's mapping", m[98:108])
    m2.close()
    print("other process after munmap", other("s", 12288, 8))
    m[200:204] = b"LAST"
    m.resize(20480)     # (ftruncate, then mremap)
    m[16384:16389] = b"GROWN"
    print("grown mapping", m[16380:16392], m[196:204])
    m.close()
    print("after the grown mapping", content("s")[16380:16392])
    print("other process after close", other("s", 196, 12))
    # past the end of the file: zeros in the page, nothing written
    os.ftruncate(fd, 100)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                          ctypes.c_int, ctypes.c_int, ctypes.c_long)
    a = libc.mmap(None, 4096, mmap.PROT_READ | mmap.PROT_WRITE,
                  mmap.MAP_SHARED, fd, 0)
    print("page past the end", ctypes.string_at(a + 96, 8))
    ctypes.memmove(a + 98, b"TAIL", 4)
    libc.munmap(ctypes.c_void_p(a), ctypes.c_size_t(4096))
    print("size after a write past the end", os.fstat(fd).st_size,
          content("s")[96:])
    os.close(fd)
    # a process that ends without msync or munmap
    pid = os.fork()
    if pid == 0:
        fd = os.open("s", os.O_RDWR)
        m = mmap.mmap(fd, 100, mmap.MAP_SHARED,
                      mmap.PROT_READ | mmap.PROT_WRITE)
        m[0:4] = b"EXIT"
        os._exit(0)
    os.waitpid(pid, 0)
    print("after a process's exit", content("s")[:12])
    os.unlink("s")


def claim():
    """Another process's writable MAP_SHARED of a file this one maps so:
    at once on a kernel mount (one page cache), EAGAIN under --fs until
    this one has unmapped it (one copy of the pages per machine)."""
    import subprocess
    with open("c", "wb") as f:
        f.write(b"." * 4096)
    fd = os.open("c", os.O_RDWR)
    m = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    m[0:5] = b"first"
    try_map = ("import mmap, os, errno\n"
               "fd = os.open('c', os.O_RDWR)\n"
               "try:\n"
               "    m = mmap.mmap(fd, 4096)\n"
               "    print('other process maps it:', m[0:5]); m[5:10] = b'other'\n"
               "except OSError as e:\n"
               "    print('other process maps it:', errno.errorcode[e.errno])\n")
    print(subprocess.run([sys.executable, "-c", try_map],
                         capture_output=True, text=True).stdout.strip())
    m.close()
    os.close(fd)
    print(subprocess.run([sys.executable, "-c", try_map],
                         capture_output=True, text=True).stdout.strip())
    print("file", content("c")[:10])
    os.unlink("c")


def threads():
    """Four threads opening, mapping (shared and private), writing and
    closing four files at once: each sees its own writes, the files end
    with all of them (a closing thread once closed another's new file,
    which then failed with EBADF)."""
    import threading
    for n in range(4):
        with open("t%d" % n, "wb") as f:
            f.write(b"." * 65536)
    errors = []

    def work(k):
        try:
            for it in range(40):
                fd = os.open("t%d" % ((k + it) % 4), os.O_RDWR)
                m = mmap.mmap(fd, 65536, mmap.MAP_SHARED if it % 2 else
                              mmap.MAP_PRIVATE)
                if it % 2:
                    m[k * 4096 + it:k * 4096 + it + 1] = b"%d" % k
                if it % 3 == 0:
                    m.flush()
                os.pwrite(fd, b"w", 60000 + k)
                if m[60000 + k:60001 + k] != b"w" and it % 2:
                    errors.append("mapping missed a write(2)")
                m.close()
                os.close(fd)
        except OSError as e:
            errors.append(errno.errorcode[e.errno])
    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    print("thread errors", sorted(set(errors)))
    for n in range(4):
        d = content("t%d" % n)
        print("t%d" % n, [d[k * 4096:k * 4096 + 40].count(b"%d" % k)
                          for k in range(4)], d[60000:60004])
        os.unlink("t%d" % n)


def other(name, off, n):
    """What a new process reads (another client, under --fs)."""
    import subprocess
    return subprocess.run([sys.executable, "-c",
                           "import os,sys; f=os.open(sys.argv[1], os.O_RDONLY);"
                           "sys.stdout.buffer.write(os.pread(f, %d, %d))"
                           % (n, off), name], capture_output=True).stdout


HOST = "/tmp/sysgate-posix-%d" % os.getpid()
for part in sys.argv[2:] or ["xattrs", "copies", "renames", "tmpfiles",
                             "maps", "shared", "threads"]:
    print("--", part)
    globals()[part]()
    sys.stdout.flush()
