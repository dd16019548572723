# SPDX-License-Identifier: MIT
# A generated source file: make runs a shell and seq for it.
echo '#include "parts.h"'
echo 'const int table[] = {'
seq -s, 1 100
echo '};'
echo 'const int table_len = sizeof(table) / sizeof(table[0]);'
