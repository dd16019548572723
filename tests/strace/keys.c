/* SPDX-License-Identifier: MIT */
/* Kernel keys: add_key and request_key with their strings (cut at -s),
 * the payload's bytes, keyrings by their KEY_SPEC_* names and by number;
 * keyctl's commands with each shape of arguments (strings, buffers,
 * permissions, uids, an errno, DH and public-key parameters, flags,
 * capabilities); every call but the last is refused (a key's serial
 * number differs from run to run). */
#include "corpus.h"
#include <linux/keyctl.h>
#include <sys/syscall.h>

#define BAD_KEY (-559026163L)	/* no such key */

static void keyctl_calls(void)
{
	static const char data[] = "some data\0\1";
	struct keyctl_dh_params dh = { { -3 }, 1234, BAD_KEY };
	struct keyctl_kdf_params kdf = { (char *)"hmac(aes)",
					 (char *)data, 4, { 0, 7 } };
	struct keyctl_pkey_params pk = { -2, 4, { 8 }, { 0 } };
	unsigned char caps[4];

	syscall(SYS_keyctl, 0xfacefeed, 1, 2, 3, 4);
	syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, BAD_KEY, 0);
	syscall(SYS_keyctl, KEYCTL_UPDATE, BAD_KEY, data, sizeof(data) - 1);
	syscall(SYS_keyctl, KEYCTL_REVOKE, KEY_SPEC_GROUP_KEYRING - 100);
	syscall(SYS_keyctl, KEYCTL_CHOWN, BAD_KEY, -1, 1000);
	syscall(SYS_keyctl, KEYCTL_SETPERM, BAD_KEY, 0x3f010003 | 0xc0);
	syscall(SYS_keyctl, KEYCTL_DESCRIBE, BAD_KEY, NULL, 9);
	syscall(SYS_keyctl, KEYCTL_LINK, BAD_KEY, KEY_SPEC_THREAD_KEYRING);
	syscall(SYS_keyctl, KEYCTL_SEARCH, BAD_KEY, "user", "a description",
		KEY_SPEC_USER_KEYRING);
	syscall(SYS_keyctl, KEYCTL_INSTANTIATE, BAD_KEY, data, 4, BAD_KEY);
	syscall(SYS_keyctl, KEYCTL_NEGATE, BAD_KEY, 10, BAD_KEY);
	syscall(SYS_keyctl, KEYCTL_REJECT, BAD_KEY, 10, 19, BAD_KEY);
	syscall(SYS_keyctl, KEYCTL_SET_REQKEY_KEYRING, -1159983635);
	syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, BAD_KEY, 5);
	syscall(SYS_keyctl, KEYCTL_GET_PERSISTENT, -1, BAD_KEY);
	syscall(SYS_keyctl, KEYCTL_DH_COMPUTE, &dh, caps, sizeof(caps), &kdf);
	syscall(SYS_keyctl, KEYCTL_PKEY_ENCRYPT, &pk, "enc=pkcs1", data,
		caps);
	syscall(SYS_keyctl, KEYCTL_PKEY_VERIFY, &pk, NULL, data, data);
	syscall(SYS_keyctl, KEYCTL_MOVE, BAD_KEY, KEY_SPEC_THREAD_KEYRING,
		BAD_KEY, KEYCTL_MOVE_EXCL | 0x10);
	syscall(SYS_keyctl, KEYCTL_CAPABILITIES, caps, 2);
}

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
	keyctl_calls();
	return 0;
}
