/* SPDX-License-Identifier: MIT */
/* System V IPC: get flags and modes, ctl commands and their structures
 * (keys that exist nowhere and id -1 fail alike on any machine; the
 * IPC_INFO limits are the machine's, the same for both runs). */
#include "corpus.h"
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

int main(void)
{
	const key_t key = (key_t)0x5ca1ab1e;
	struct shmid_ds shm;
	struct semid_ds sem;
	struct msqid_ds msq;
	struct shminfo shmi;
	struct seminfo semi;
	struct msginfo msgi;
	struct {
		long type;
		char text[16];
	} m = { 7, "STRACE_STRING" };
	struct sembuf ops[2] = { { 0, 1, SEM_UNDO },
				 { 1, -1, IPC_NOWAIT | 0x10 } };

	memset(&shm, 0, sizeof(shm));
	memset(&sem, 0, sizeof(sem));
	memset(&msq, 0, sizeof(msq));
	shm.shm_perm.uid = sem.sem_perm.uid = msq.msg_perm.uid = 1000;
	shm.shm_perm.mode = sem.sem_perm.mode = msq.msg_perm.mode = 0640;
	msq.msg_qbytes = 4096;
	begin();
	shmget(key, 4096, 0);
	shmget(key, 4096, 21 << 26 | 0600);
	shmget(key, 1, IPC_EXCL | SHM_NORESERVE | 0x100000 | 0640);
	semget(key, 1, IPC_NOWAIT | 0600);
	msgget(key, IPC_EXCL | 0x200000);
	shmctl(-1, IPC_STAT, &shm);
	shmctl(-1, IPC_SET, &shm);
	shmctl(0, IPC_INFO, (struct shmid_ds *)&shmi);
	shmctl(-1, IPC_RMID, NULL);
	semctl(-1, 0, IPC_SET, &sem);
	semctl(0, 0, IPC_INFO, &semi);
	semctl(-1, 0, GETVAL);
	msgctl(-1, IPC_SET, &msq);
	msgctl(-1, MSG_STAT, &msq);
	msgctl(0, IPC_INFO, (struct msqid_ds *)&msgi);
	msgsnd(-1, &m, 14, IPC_NOWAIT);
	msgrcv(-1, &m, 14, -7, MSG_NOERROR);
	semop(-1, ops, 2);
	semop(-1, NULL, 3);
	semop(-1, ops, 0);
	shmat(-1, NULL, SHM_RDONLY | SHM_EXEC);
	shmdt(NULL);
	return 0;
}
