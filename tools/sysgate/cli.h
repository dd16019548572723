/* SPDX-License-Identifier: MIT */
#ifndef SG_CLI_H
#define SG_CLI_H

int sg_bench_main(int argc, char **argv);
int sg_cli_version(void);
int sg_cli_list_syscalls(void);
int sg_cli_list_mechanisms(void);

#endif
