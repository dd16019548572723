/* SPDX-License-Identifier: MIT */
/* POSIX message queues: mq_open (mode and attributes only with O_CREAT),
 * mq_getsetattr's attributes in and out, a message sent and received
 * with its priority and timeout, mq_notify's sigevent of each kind. */
#include "corpus.h"
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <sys/syscall.h>

struct attr {
	long flags, maxmsg, msgsize, curmsgs, reserved[4];
};

int main(void)
{
	struct attr a = { 0, 4, 16, 0, { 0 } }, old;
	struct timespec ts = { 0, 0 };
	struct sigevent ev;
	unsigned int prio = 0;
	char name[64], buf[32];
	long q;

	snprintf(name, sizeof(name), "sysgate-corpus-%d", (int)getpid());
	begin();
	q = syscall(SYS_mq_open, name, O_RDWR | O_CREAT | O_EXCL, 0600, &a);
	syscall(SYS_mq_open, name, O_RDONLY, 0600, &a);
	a.flags = O_NONBLOCK;
	syscall(SYS_mq_getsetattr, q, &a, &old);
	syscall(SYS_mq_getsetattr, q, NULL, &old);
	syscall(SYS_mq_timedsend, q, "hello", 5, 3, &ts);
	syscall(SYS_mq_timedreceive, q, buf, sizeof(buf), &prio, &ts);
	syscall(SYS_mq_timedreceive, q, buf, sizeof(buf), &prio, &ts);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_NONE;
	syscall(SYS_mq_notify, q, &ev);
	syscall(SYS_mq_notify, q, NULL);
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGUSR1;
	ev.sigev_value.sival_int = 9;
	syscall(SYS_mq_notify, -1, &ev);
	ev.sigev_notify = SIGEV_THREAD;
	syscall(SYS_mq_notify, -1, &ev);
	close((int)q);
	syscall(SYS_mq_unlink, name);
	return 0;
}
