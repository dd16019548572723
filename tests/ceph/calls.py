# SPDX-License-Identifier: MIT
# calls.py ROOT: calls whose answers --fs must give as ceph-fuse does,
# printing results, never a figure that differs between mounts.
# - A forked child of a process that had a client: statfs, fstatfs,
#   stat, open and read, in the child and then in the parent.
# - fstat of a directory removed while open: success, no links.
# - O_NOFOLLOW | O_DIRECTORY on a symbolic link: ENOTDIR.
import errno, os, sys
R = sys.argv[1]
os.chdir(R)

def calls(who):
    try:
        v = os.statvfs(R)
        print(who, "statvfs", v.f_namemax > 0)
    except OSError as e:
        print(who, "statvfs", errno.errorcode[e.errno])
    fd = os.open("f", os.O_RDONLY)
    print(who, "fstatvfs", os.fstatvfs(fd).f_namemax > 0)
    print(who, "stat", os.stat("f").st_size)
    print(who, "read", os.read(fd, 100))
    os.close(fd)
    sys.stdout.flush()

with open("f", "w") as f:
    f.write("data\n")
calls("parent")
pid = os.fork()
if pid == 0:
    calls("child")
    os._exit(0)
print("child exit", os.waitpid(pid, 0)[1])
calls("parent")

os.mkdir("d")
fd = os.open("d", os.O_RDONLY | os.O_DIRECTORY)
os.rmdir("d")
try:
    print("fstat removed dir: nlink", os.fstat(fd).st_nlink)
except OSError as e:
    print("fstat removed dir:", errno.errorcode[e.errno])
os.close(fd)

os.mkdir("t")
os.symlink("t", "l")
for flags, name in ((os.O_NOFOLLOW | os.O_DIRECTORY, "NOFOLLOW|DIRECTORY"),
                    (os.O_NOFOLLOW, "NOFOLLOW"),
                    (os.O_NOFOLLOW | os.O_DIRECTORY | os.O_PATH,
                     "NOFOLLOW|DIRECTORY|PATH")):
    try:
        os.close(os.open("l", flags))
        print("open link", name, "ok")
    except OSError as e:
        print("open link", name, errno.errorcode[e.errno])
os.unlink("l")
os.rmdir("t")
os.unlink("f")
