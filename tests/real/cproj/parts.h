/* SPDX-License-Identifier: MIT */
long sum_to(long n);
void shout(char *s);
extern const int table[];
extern const int table_len;
