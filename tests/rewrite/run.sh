#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh: plan tests/rewrite/$ARCH/cases.S, disassemble every stub, and
# compare with tests/rewrite/$ARCH/cases.out (REGEN=1 rewrites that file
# instead: review the diff before committing it).
set -e -o pipefail
case $ARCH in
x86_64) od=objdump m=i386:x86-64 ;;
riscv64) od=riscv64-linux-gnu-objdump m=riscv:rv64 ;;
aarch64) od=aarch64-linux-gnu-objdump m=aarch64 ;;
esac
command -v "$od" >/dev/null || { echo "$od not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
$RUN "$BUILD/tests/rewrite/cases" >"$tmp/plan"
while IFS= read -r line; do
	case $line in
	"  stub:"*)
		echo "  stub:"
		printf '%s' "${line#  stub:}" | xxd -r -p >"$tmp/stub.bin"
		"$od" -D -b binary -m "$m" "$tmp/stub.bin" |
			sed -n 's/^ *\([0-9a-f]*\):\t[0-9a-f ]*\t/    \1: /p' ;;
	*) echo "$line" ;;
	esac
done <"$tmp/plan" >"$tmp/out"
want=tests/rewrite/$ARCH/cases.out
if [ -n "${REGEN:-}" ]; then
	cp "$tmp/out" "$want"
	echo "wrote $want"
	exit 0
fi
diff -u "$want" "$tmp/out"
echo "$(grep -c '^[a-z_0-9]*+' "$want") sites as planned and emitted before"
