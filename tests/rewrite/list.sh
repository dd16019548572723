#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The rewriter's plans and emitted bytes against golden files, for the
# arch being checked (see tests/rewrite/driver.c).
[ -e "tests/rewrite/$ARCH/cases.S" ] || exit 0
printf 'golden\tbash tests/rewrite/run.sh\n'
