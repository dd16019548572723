#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make install / uninstall into a DESTDIR tree, and the installed tree at work.
[ "$ARCH" = x86_64 ] || exit 0
printf 'destdir\tbash tests/install/install.sh\n'
