/* SPDX-License-Identifier: MIT */
#ifndef SG_SECCOMP_H
#define SG_SECCOMP_H

/* 0 if -m seccomp can run in this process, else -1 and a reason. */
int sg_seccomp_available(const char **why) SG_HIDDEN;
/* Install the filter that traps calls from outside sysgate's text
 * (unless inherited says this process got it through execve). */
int sg_seccomp_install(int inherited) SG_HIDDEN;

#endif
