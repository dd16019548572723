# SPDX-License-Identifier: MIT
# tar + xz round trip: a tree of files packed with xz (threads), listed,
# unpacked elsewhere and compared.
set -e
mkdir -p src/a/b src/c
seq 1 200000 >src/a/b/numbers
for i in $(seq 1 40); do echo "small $i" >"src/c/f$i"; done
ln -s ../a/b/numbers src/c/link
tar -C src -cf - . | xz -T2 -6 >pack.tar.xz
xz -t pack.tar.xz
tar -tJf pack.tar.xz | LC_ALL=C sort | sha256sum
mkdir dst
tar -C dst -xJf pack.tar.xz
diff -r src dst && echo same tree
xz -dc pack.tar.xz | tar -tvf - >/dev/null
