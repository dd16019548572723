#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --fs on CephFS (hooks/fs/ceph.c): a one-node cluster started by the test
# (cluster.sh), programs run on the prefix and, natively, on a ceph-fuse
# mount of the same cluster, which is the oracle (compare.sh); several
# clients at once, faults and cephx (clients.sh); a cluster that does
# not answer (unreachable.sh); two clients in two network namespaces
# (nodes.sh); a large file cut into objects on three OSDs (stripes.sh);
# each process ending its session at once and whole (exits.sh); calls
# that differed from ceph-fuse: statfs in a fork child and more (calls.sh);
# xattrs, copies, renameat2 flags, O_TMPFILE, MAP_SHARED (posix.sh).
[ "$ARCH" = x86_64 ] || exit 0
printf 'compare\tbash tests/ceph/compare.sh\n'
printf 'clients\tbash tests/ceph/clients.sh\n'
printf 'unreachable\tbash tests/ceph/unreachable.sh\n'
printf 'nodes\tbash tests/ceph/nodes.sh\n'
printf 'stripes\tbash tests/ceph/stripes.sh\n'
printf 'exits\tbash tests/ceph/exits.sh\n'
printf 'calls\tbash tests/ceph/calls.sh\n'
printf 'readdir\tbash tests/ceph/readdir.sh\n'
printf 'cache\tbash tests/ceph/cache.sh\n'
printf 'posix\tbash tests/ceph/posix.sh\n'
