/* SPDX-License-Identifier: MIT */
#include <stdio.h>
int main(void) { puts("compiled and ran"); return 0; }
