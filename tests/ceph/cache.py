# SPDX-License-Identifier: MIT
# cache.py FILE FLAG: read FILE, let the other side (waiting for FLAG to
# appear) rewrite it, read it again through the same descriptor once the
# other removed FLAG; prints both reads.
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
print(os.pread(fd, 100, 0))
sys.stdout.flush()
open(sys.argv[2], "w").close()
while os.path.exists(sys.argv[2]):
    time.sleep(0.05)
print(os.pread(fd, 100, 0))
