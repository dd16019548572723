#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build tests/go/prog once per change, into $BUILD/tests/go: goprog-static
# (CGO_ENABLED=0, no libc, raw system calls from Go's own assembly) and
# goprog-cgo (linked against the C library).  Everything Go writes stays
# in $BUILD/tests/go; no network.  Exit 77 when go is not installed.
set -u
command -v go >/dev/null || { echo "go is not installed (Debian: golang-go)"; exit 77; }
case $BUILD in
/*) out=$BUILD/tests/go ;;
*) out=$TOP/$BUILD/tests/go ;;
esac
src=$TOP/tests/go/prog
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
export GOCACHE=$out/cache GOPATH=$out/gopath GOFLAGS=-mod=mod GOPROXY=off \
	GOTOOLCHAIN=local GOENV=off
for kind in static cgo; do
	bin=$out/goprog-$kind
	[ -x "$bin" ] && [ -z "$(find "$src" -newer "$bin" -type f)" ] && continue
	cgo=0
	[ $kind = cgo ] && cgo=1
	(cd "$src" && CGO_ENABLED=$cgo go build -o "$bin.tmp" .) &&
		mv "$bin.tmp" "$bin" || { echo "go build ($kind) failed"; exit 1; }
done
