#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make install DESTDIR=...` with a distribution's layout, then: the CLI
# runs from the DESTDIR tree (it finds its runtime relative to itself),
# in every start mode; the library has its soname and one symbol version
# node per API minor version; a hook builds against the installed header
# (through pkg-config where it is installed) and runs; man pages for every
# public function; `make uninstall` takes everything back.
set -u
TMP=$(mktemp -d /tmp/sysgate-install.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
D=$TMP/dest
LIB=/usr/lib/x86_64-linux-gnu
# a build of its own: install rebuilds the CLI with these paths
B=$TMP/build
cp -a "$BUILD" "$B" 2>/dev/null || fail "cannot copy $BUILD"
M=(make -s BUILD="$B" DESTDIR="$D" PREFIX=/usr LIBDIR=$LIB)

"${M[@]}" install >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "make install"; }
for f in /usr/bin/sysgate $LIB/libsysgate.so.1 $LIB/libsysgate.so \
	$LIB/sysgate/libsysgate.so $LIB/sysgate/sysgate-loader \
	$LIB/sysgate/sysgate-loader.text \
	$LIB/sysgate/libsysgate-preload.so $LIB/sysgate/hooks/null.so \
	$LIB/sysgate/sysgate-attach $LIB/sysgate/sysgate-dl \
	/usr/include/sysgate.h /usr/include/sysgate_gpu.h \
	$LIB/pkgconfig/sysgate.pc /usr/share/man/man1/sysgate.1 \
	/usr/share/man/man7/sysgate.7 /usr/share/man/man3/sysgate_hook.3; do
	[ -e "$D$f" ] || fail "not installed: $f"
done
[ -e LICENSE ] || fail "no LICENSE file"

# every exported function has a man page
for f in $(nm -D --defined-only "$D$LIB/libsysgate.so.1" | awk '$3 ~ /^sysgate_/ { sub(/@.*/, "", $3); print $3 }'); do
	[ -e "$D/usr/share/man/man3/$f.3" ] || fail "no man page for $f"
done
readelf -d "$D$LIB/libsysgate.so.1" | grep -q 'SONAME.*\[libsysgate.so.1\]' ||
	fail "soname"
vers=$(nm -D --defined-only "$D$LIB/libsysgate.so.1" | awk '$2 == "A" { print $3 }' | sort | tr '\n' ' ')
[ "$vers" = "SYSGATE_1.0 SYSGATE_1.1 SYSGATE_1.2 SYSGATE_1.3 SYSGATE_1.4 SYSGATE_1.5 SYSGATE_1.6 SYSGATE_1.7 SYSGATE_1.8 " ] || fail "version nodes: $vers"
nm -D "$D$LIB/libsysgate.so.1" | grep -q 'sysgate_locate@@SYSGATE_1.1' ||
	fail "sysgate_locate is not in SYSGATE_1.1"

# the installed CLI, moved away from the build tree, in each start mode
cd "$TMP"
for m in "" --loader "-m sud" "-m seccomp"; do
	if [ "${m#-m }" != "$m" ] && ! "$D/usr/bin/sysgate" --list-mechanisms |
		grep -q "^${m#-m } *available"; then
		continue	# not available on this machine
	fi
	out=$("$D/usr/bin/sysgate" $m -o /dev/null -e trace=none \
		-e inject=getppid:retval=4242 -- \
		python3 -c 'import os; print(os.getppid())')
	[ "$out" = 4242 ] || fail "installed sysgate $m: $out"
done

# found through a symbolic link in another directory, beside files of the
# same names that are not its own (they must not be used), and by a
# relative path
mkdir "$TMP/elsewhere"
ln -s "$D/usr/bin/sysgate" "$TMP/elsewhere/sysgate"
for f in sysgate-loader sysgate-loader.text libsysgate.so sysgate-dl; do
	printf '#!/bin/sh\necho not-ours\n' >"$TMP/elsewhere/$f"
	chmod +x "$TMP/elsewhere/$f"
done
out=$("$TMP/elsewhere/sysgate" -o /dev/null -e trace=none \
	-e inject=getppid:retval=4242 -- python3 -c 'import os; print(os.getppid())')
[ "$out" = 4242 ] || fail "sysgate through a symlink: $out"
out=$(cd "$D/usr" && bin/sysgate -o /dev/null -e trace=none \
	-e inject=getppid:retval=4242 -- python3 -c 'import os; print(os.getppid())')
[ "$out" = 4242 ] || fail "sysgate by a relative path: $out"

# a hook built against what was installed
cat >"$TMP/h.c" <<'EOT'
#include <sysgate.h>
static int init(struct sysgate_ctx *ctx, const char *args)
{ (void)args; return sysgate_select_name(ctx, "getppid"); }
static enum sysgate_verdict enter(struct sysgate_sys *s, void *data)
{ (void)data; s->ret = 77; return SYSGATE_SKIP; }
static const struct sysgate_hook hook = { .abi = SYSGATE_HOOK_ABI,
	.name = "h", .init = init, .enter = enter };
SYSGATE_HOOK_DEFINE(hook);
EOT
if command -v pkg-config >/dev/null; then
	cflags=$(PKG_CONFIG_SYSROOT_DIR=$D PKG_CONFIG_LIBDIR=$D$LIB/pkgconfig \
		pkg-config --cflags sysgate) || fail "pkg-config"
else
	cflags=-I$D/usr/include
fi
cc -shared -fPIC $cflags -o "$TMP/h.so" "$TMP/h.c" || fail "hook build"
out=$("$D/usr/bin/sysgate" --hook="$TMP/h.so" -o /dev/null -e trace=none -- \
	python3 -c 'import os; print(os.getppid())')
[ "$out" = 77 ] || fail "installed hook: $out"

cd - >/dev/null
"${M[@]}" uninstall >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "make uninstall"; }
left=$(find "$D" -type f -o -type l)
[ -z "$left" ] || fail "left after uninstall: $left"
echo ok
