/* SPDX-License-Identifier: MIT */
/* Kernel keys: add_key and request_key with their strings (cut at -s),
 * the payload's bytes, keyrings by their KEY_SPEC_* names and by number;
 * every call is refused (a key's serial number differs from run to
 * run). */
#include "corpus.h"
#include <linux/keyctl.h>
#include <sys/syscall.h>

int main(void)
{
	static const char payload[] = "secret\0\x01\xff";

	begin();
	syscall(SYS_add_key, "user", "", payload,
		sizeof(payload) - 1, KEY_SPEC_THREAD_KEYRING);
	syscall(SYS_add_key, NULL, NULL, NULL, 0, KEY_SPEC_REQUESTOR_KEYRING);
	syscall(SYS_add_key, "nosuchtype", "a description longer than -s",
		payload, 3, 0xdefaced00000000UL | 123456789);
	syscall(SYS_add_key, "user", (char *)8, (char *)16, 4, -100);
	syscall(SYS_request_key, "user", "sysgate:corpus", NULL,
		KEY_SPEC_THREAD_KEYRING);
	syscall(SYS_request_key, "user", "sysgate:none", "callout info",
		KEY_SPEC_SESSION_KEYRING);
	syscall(SYS_request_key, NULL, NULL, NULL, -9);
	return 0;
}
