#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# -m zeropage end to end.  One test: it needs vm.mmap_min_addr=0, a
# machine-wide setting, so the whole window stays inside one script.
[ "$ARCH" = x86_64 ] || exit 0
printf 'all\tbash tests/zeropage/zeropage.sh\n'
