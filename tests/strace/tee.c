/* SPDX-License-Identifier: MIT */
/* TEE devices' ioctls on no device: sessions' buffers whose length
 * matches their parameters (values, memory references, a flag) and one
 * whose does not, the logins that carry a group id or bytes, shared
 * memory, cancel and close. */
#include "corpus.h"
#include <sys/ioctl.h>
#include <linux/tee.h>

int main(void)
{
	static struct {
		struct tee_ioctl_open_session_arg a;
		struct tee_ioctl_param p[3];
	} open;
	static struct {
		struct tee_ioctl_invoke_arg a;
		struct tee_ioctl_param p[2];
	} inv;
	struct tee_ioctl_buf_data b = { (unsigned long)&open, sizeof(open) };
	struct tee_ioctl_cancel_arg cancel = { 7, 0x99 };
	struct tee_ioctl_close_session_arg close_s = { 0x42 };
	struct tee_ioctl_shm_alloc_data alloc = { 4096, 1, 0 };
	struct tee_ioctl_shm_register_data reg = { 0x10000, 8192, 0x40, 0 };
	int i;

	for (i = 0; i < 16; i++)
		open.a.uuid[i] = i * 17;
	open.a.clnt_login = TEE_IOCTL_LOGIN_GROUP;
	open.a.clnt_uuid[0] = 100;
	open.a.cancel_id = 3;
	open.a.num_params = 3;
	open.p[0].attr = TEE_IOCTL_PARAM_ATTR_TYPE_VALUE_INPUT;
	open.p[0].a = 1;
	open.p[1].attr = TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INOUT |
			 TEE_IOCTL_PARAM_ATTR_META;
	open.p[1].a = 0x20;
	open.p[1].b = 0x30;
	open.p[1].c = 5;
	inv.a.func = 9;
	inv.a.session = 0x1234;
	inv.a.num_params = 2;
	inv.p[1].attr = TEE_IOCTL_PARAM_ATTR_TYPE_VALUE_OUTPUT;
	begin();
	ioctl(-1, TEE_IOC_OPEN_SESSION, &b);
	open.a.clnt_login = 0x77;
	ioctl(-1, TEE_IOC_OPEN_SESSION, &b);
	open.a.clnt_login = TEE_IOCTL_LOGIN_USER;
	open.a.num_params = 2;
	ioctl(-1, TEE_IOC_OPEN_SESSION, &b);
	b.buf_ptr = (unsigned long)&inv;
	b.buf_len = sizeof(inv);
	ioctl(-1, TEE_IOC_INVOKE, &b);
	ioctl(-1, TEE_IOC_CANCEL, &cancel);
	ioctl(-1, TEE_IOC_CLOSE_SESSION, &close_s);
	ioctl(-1, TEE_IOC_SHM_ALLOC, &alloc);
	ioctl(-1, TEE_IOC_SHM_REGISTER, &reg);
	ioctl(-1, TEE_IOC_VERSION, NULL);
	return 0;
}
