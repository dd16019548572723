# SPDX-License-Identifier: MIT
# gcc driven by make -j2: a multi-file C project with a generated source.
set -e
cp -r "$T/cproj" proj
make -s -j2 -C proj
proj/prog
make -s -j2 -C proj
