# SPDX-License-Identifier: MIT
# dents.py DIR: getdents64 with buffers too small for the directory, as
# readdir.sh runs it on ceph-fuse and under --fs: whatever a call did not
# return comes in the next, an offset taken in the middle (telldir) seeks
# back to the same entries, a rewind lists them all again, and a buffer
# too small for one entry is EINVAL.  Prints what holds, never offsets
# (a FUSE mount numbers "." and ".." its own way).
import ctypes, errno, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)


def dents(fd, n):
    buf = ctypes.create_string_buffer(n)
    r = libc.syscall(217, fd, buf, n)	# getdents64
    if r < 0:
        return errno.errorcode[ctypes.get_errno()]
    names, i = [], 0
    while i < r:
        reclen = struct.unpack_from("H", buf, i + 16)[0]
        names.append(buf.raw[i + 19:i + reclen].split(b"\0")[0].decode())
        i += reclen
    return names


def rest(fd, n):
    out = []
    while True:
        got = dents(fd, n)
        if not got:
            return out
        out += got


fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
first = dents(fd, 200) + dents(fd, 200)
at = os.lseek(fd, 0, os.SEEK_CUR)
tail = rest(fd, 200)
everything = first + tail
print("entries", len(everything), sorted(everything) ==
      sorted(os.listdir(sys.argv[1]) + [".", ".."]))
os.lseek(fd, at, os.SEEK_SET)
print("from the middle again", rest(fd, 120) == tail)
os.lseek(fd, 0, os.SEEK_SET)
print("rewound", rest(fd, 32768) == everything)
os.lseek(fd, 0, os.SEEK_SET)
print("too small", dents(fd, 10))
