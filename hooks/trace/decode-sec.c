/* SPDX-License-Identifier: MIT */
/* Security interfaces: Landlock rulesets and rules, kernel keys. */
#include <linux/landlock.h>
#include <linux/keyctl.h>
#include "trace.h"

/* A key or keyring by its serial number: KEY_SPEC_* by name */
static void p_key_serial(struct fmt *f, int id)
{
	p_xlat_as(f, (unsigned long)(long)id, &xl_key_spec, 0, 'd');
}

static void a_key_serial(struct call *c, int i)
{
	a_sep(c);
	p_key_serial(c->f, (int)c->s->args[i]);
}

/* A uid or gid, -1 as such */
static void a_keyuid(struct call *c, int i)
{
	unsigned int v = (unsigned int)c->s->args[i];

	if (v == ~0U)
		a_dec(c, -1);
	else
		a_udec(c, v);
}

/* Argument i: n bytes as a string (strace's printstrn) */
static void a_strn(struct call *c, int i, unsigned long n)
{
	a_sep(c);
	p_data(c->f, c->s, c->s->args[i], n, 0);
}

/* The bytes a call wrote to argument i: min(ret, len) of them, a final
 * NUL left out when nul; its address when the call failed */
static void a_key_out(struct call *c, int i, unsigned long len, int nul)
{
	unsigned long n = (unsigned long)c->s->ret < len ?
				  (unsigned long)c->s->ret : len;

	if (!a_out(c, c->s->args[i]))
		return;
	if (nul)
		p_data_nul(c->f, c->s, c->s->args[i], n);
	else
		p_data(c->f, c->s, c->s->args[i], n, 0);
}

/* KEYCTL_DH_COMPUTE's {private=, prime=, base=} and kdf parameters */
static void keyctl_dh(struct call *c)
{
	struct keyctl_dh_params dh;
	struct keyctl_kdf_params kdf;

	a_sep(c);
	if (!fetch(c->f, c->s, &dh, c->s->args[1], sizeof(dh))) {
		fmt_str(c->f, "{private=");
		p_key_serial(c->f, dh.priv);
		fmt_str(c->f, ", prime=");
		p_key_serial(c->f, dh.prime);
		fmt_str(c->f, ", base=");
		p_key_serial(c->f, dh.base);
		fmt_chr(c->f, '}');
	}
	a_key_out(c, 2, c->s->args[3], 0);
	a_udec(c, c->s->args[3]);
	a_sep(c);
	if (fetch(c->f, c->s, &kdf, c->s->args[4], sizeof(kdf)))
		return;
	fmt_str(c->f, "{hashname=");
	p_str_max(c->f, c->s, (unsigned long)kdf.hashname, -1UL);
	fmt_str(c->f, ", otherinfo=");
	/* (the kernel reads no otherinfo of length 0) */
	if (kdf.otherinfolen)
		p_data(c->f, c->s, (unsigned long)kdf.otherinfo,
		       kdf.otherinfolen, 0);
	else
		p_ptr(c->f, (unsigned long)kdf.otherinfo);
	f_udec(c->f, ", otherinfolen=", kdf.otherinfolen);
	p_reserved(c->f, "__spare", kdf.__spare, sizeof(kdf.__spare) / 4);
	fmt_chr(c->f, '}');
}

static void keyctl_pkey_query(struct call *c)
{
	struct keyctl_pkey_query q;

	a_key_serial(c, 1);
	a_hex(c, c->s->args[2]);
	a_string(c, c->s->args[3]);
	if (!a_out(c, c->s->args[4]) ||
	    fetch(c->f, c->s, &q, c->s->args[4], sizeof(q)))
		return;
	fmt_str(c->f, "{supported_ops=");
	p_flags_unknown(c->f, q.supported_ops, &xl_keyctl_pkey_ops,
			"KEYCTL_SUPPORTS_???");
	f_udec(c->f, ", key_size=", q.key_size);
	f_udec(c->f, ", max_data_size=", q.max_data_size);
	f_udec(c->f, ", max_sig_size=", q.max_sig_size);
	f_udec(c->f, ", max_enc_size=", q.max_enc_size);
	f_udec(c->f, ", max_dec_size=", q.max_dec_size);
	p_reserved(c->f, "__spare", q.__spare, sizeof(q.__spare) / 4);
	fmt_chr(c->f, '}');
}

/* PKEY_ENCRYPT, _DECRYPT, _SIGN (an output) and _VERIFY (a second
 * input) */
static void keyctl_pkey_op(struct call *c, int verify)
{
	struct keyctl_pkey_params pp;
	int ok;

	a_sep(c);
	ok = !fetch(c->f, c->s, &pp, c->s->args[1], sizeof(pp));
	if (ok) {
		fmt_str(c->f, "{key_id=");
		p_key_serial(c->f, pp.key_id);
		f_udec(c->f, ", in_len=", pp.in_len);
		f_udec(c->f, verify ? ", in2_len=" : ", out_len=", pp.out_len);
		p_reserved(c->f, "__spare", pp.__spare, sizeof(pp.__spare) / 4);
		fmt_chr(c->f, '}');
	}
	a_string(c, c->s->args[2]);
	if (!ok) {
		a_ptr(c, c->s->args[3]);
		a_ptr(c, c->s->args[4]);
		return;
	}
	a_strn(c, 3, pp.in_len);
	if (verify)
		a_strn(c, 4, pp.in2_len);
	else if (a_out(c, c->s->args[4]))
		p_data(c->f, c->s, c->s->args[4], pp.out_len, 0);
}

/* KEYCTL_CAPABILITIES' bytes: KEYCTL_CAPS0_*, KEYCTL_CAPS1_*, then hex */
static void p_caps_elem(struct fmt *f, const void *e, void *ctx)
{
	static const struct xlat *const caps[] = {
		&xl_keyctl_caps0, &xl_keyctl_caps1,
	};
	static const char *const unknown[] = {
		"KEYCTL_CAPS0_???", "KEYCTL_CAPS1_???",
	};
	unsigned long *i = ctx;
	unsigned char v = *(const unsigned char *)e;

	if (*i < 2)
		p_flags_unknown(f, v, caps[*i], unknown[*i]);
	else
		p_hex(f, v);
	(*i)++;
}

static void keyctl_caps(struct call *c)
{
	unsigned long i = 0, n = c->s->args[2];

	if (a_out(c, c->s->args[1]))
		p_array_ctx(c->f, c->s, c->s->args[1],
			    (unsigned long)c->s->ret < n ?
				    (unsigned long)c->s->ret : n,
			    1, 0, p_caps_elem, &i);
	a_udec(c, n);
}

/* keyctl: the command, then its arguments (strace's keyctl.c shapes) */
static void d_keyctl(struct call *c)
{
	int cmd = (int)c->s->args[0];
	const long *a = c->s->args;

	a_xlat(c, (unsigned int)cmd, &xl_keyctl_commands, "KEYCTL_???");
	switch (cmd) {
	case KEYCTL_GET_KEYRING_ID:
		a_key_serial(c, 1);
		a_dec(c, (int)a[2]);
		return;
	case KEYCTL_JOIN_SESSION_KEYRING:
		a_string(c, a[1]);
		return;
	case KEYCTL_UPDATE:
		a_key_serial(c, 1);
		a_strn(c, 2, a[3]);
		a_udec(c, a[3]);
		return;
	case KEYCTL_REVOKE:
	case KEYCTL_CLEAR:
	case KEYCTL_INVALIDATE:
	case KEYCTL_ASSUME_AUTHORITY:
		a_key_serial(c, 1);
		return;
	case KEYCTL_LINK:
	case KEYCTL_UNLINK:
		a_key_serial(c, 1);
		a_key_serial(c, 2);
		return;
	case KEYCTL_DESCRIBE:
	case KEYCTL_READ:
	case KEYCTL_GET_SECURITY:
		a_key_serial(c, 1);
		a_key_out(c, 2, a[3], cmd != KEYCTL_READ);
		a_udec(c, a[3]);
		return;
	case KEYCTL_SEARCH:
		a_key_serial(c, 1);
		a_string(c, a[2]);
		a_string(c, a[3]);
		a_key_serial(c, 4);
		return;
	case KEYCTL_RESTRICT_KEYRING:
		a_key_serial(c, 1);
		a_string(c, a[2]);
		a_string(c, a[3]);
		return;
	case KEYCTL_CHOWN:
		a_key_serial(c, 1);
		a_keyuid(c, 2);
		a_keyuid(c, 3);
		return;
	case KEYCTL_SETPERM:
		a_key_serial(c, 1);
		a_int_flags(c, (unsigned int)a[2], &xl_key_perms, "KEY_???");
		return;
	case KEYCTL_INSTANTIATE:
		a_key_serial(c, 1);
		a_strn(c, 2, a[3]);
		a_udec(c, a[3]);
		a_key_serial(c, 4);
		return;
	case KEYCTL_INSTANTIATE_IOV:
		a_key_serial(c, 1);
		a_iov(c, 2, 1);
		a_udec(c, a[3]);
		a_key_serial(c, 4);
		return;
	case KEYCTL_NEGATE:
	case KEYCTL_REJECT:
		a_key_serial(c, 1);
		a_udec(c, (unsigned int)a[2]);
		if (cmd == KEYCTL_REJECT) {
			const char *nm = sysgate_errno_name((int)a[3]);

			a_sep(c);
			if (nm && (unsigned int)a[3])
				p_named(c->f, nm, (unsigned int)a[3], 'u');
			else
				fmt_udec(c->f, (unsigned int)a[3]);
		}
		a_key_serial(c, cmd == KEYCTL_REJECT ? 4 : 3);
		return;
	case KEYCTL_SET_REQKEY_KEYRING:
		a_sep(c);
		p_xlat_as(c->f, (unsigned long)(long)(int)a[1], &xl_key_reqkeys,
			   "KEY_REQKEY_DEFL_???", 'd');
		return;
	case KEYCTL_SET_TIMEOUT:
		a_key_serial(c, 1);
		a_udec(c, (unsigned int)a[2]);
		return;
	case KEYCTL_SESSION_TO_PARENT:
		return;
	case KEYCTL_GET_PERSISTENT:
		a_keyuid(c, 1);
		a_key_serial(c, 2);
		return;
	case KEYCTL_DH_COMPUTE:
		keyctl_dh(c);
		return;
	case KEYCTL_PKEY_QUERY:
		keyctl_pkey_query(c);
		return;
	case KEYCTL_PKEY_ENCRYPT:
	case KEYCTL_PKEY_DECRYPT:
	case KEYCTL_PKEY_SIGN:
	case KEYCTL_PKEY_VERIFY:
		keyctl_pkey_op(c, cmd == KEYCTL_PKEY_VERIFY);
		return;
	case KEYCTL_MOVE:
		a_key_serial(c, 1);
		a_key_serial(c, 2);
		a_key_serial(c, 3);
		a_int_flags(c, (unsigned int)a[4], &xl_keyctl_move_flags,
			    "KEYCTL_MOVE_???");
		return;
	case KEYCTL_CAPABILITIES:
		keyctl_caps(c);
		return;
	}
	a_hex(c, a[1]);
	a_hex(c, a[2]);
	a_hex(c, a[3]);
	a_hex(c, a[4]);
}

static void d_add_key(struct call *c)
{
	a_string(c, c->s->args[0]);
	a_string(c, c->s->args[1]);
	a_sep(c);
	p_data(c->f, c->s, c->s->args[2], c->s->args[3], 0);
	a_udec(c, c->s->args[3]);
	a_key_serial(c, 4);
}

static void d_request_key(struct call *c)
{
	a_string(c, c->s->args[0]);
	a_string(c, c->s->args[1]);
	a_string(c, c->s->args[2]);
	a_key_serial(c, 3);
}

/* {handled_access_fs=...} when size covers it, ", ..." after it when
 * the caller's structure is larger than the one strace knows. */
static void d_landlock_create_ruleset(struct call *c)
{
	unsigned long p = c->s->args[0], size = c->s->args[1];
	unsigned long long access;

	a_sep(c);
	if (size < sizeof(access))
		p_ptr(c->f, p);
	else if (!fetch(c->f, c->s, &access, p, sizeof(access))) {
		fmt_str(c->f, "{handled_access_fs=");
		p_flags_unknown(c->f, access, &xl_landlock_access_fs,
				"LANDLOCK_ACCESS_FS_???");
		if (size > sizeof(access))
			fmt_str(c->f, ", ...");
		fmt_chr(c->f, '}');
	}
	a_udec(c, size);
	a_int_flags(c, (unsigned int)c->s->args[2],
		    &xl_landlock_ruleset_flags,
		    "LANDLOCK_CREATE_RULESET_???");
}

/* A ruleset's descriptor, or (asked with the VERSION flag) the ABI
 * version, a plain number. */
static void r_landlock_create_ruleset(struct call *c)
{
	fmt_dec(c->f, c->s->ret);
	if (!(c->s->args[2] & LANDLOCK_CREATE_RULESET_VERSION))
		p_fdpath_now(c->f, c->s, (int)c->s->ret);
}

static void d_landlock_add_rule(struct call *c)
{
	unsigned int type = (unsigned int)c->s->args[1];
	unsigned long p = c->s->args[2];
	/* (packed in the uapi: 12 bytes) */
	struct landlock_path_beneath_attr a;

	a_fd(c, 0);
	a_xlat(c, type, &xl_landlock_rule_types, "LANDLOCK_RULE_???");
	a_sep(c);
	if (type != LANDLOCK_RULE_PATH_BENEATH)
		p_ptr(c->f, p);
	else if (!fetch(c->f, c->s, &a, p, sizeof(a))) {
		fmt_str(c->f, "{allowed_access=");
		p_flags_unknown(c->f, a.allowed_access,
				&xl_landlock_access_fs,
				"LANDLOCK_ACCESS_FS_???");
		f_dec(c->f, ", parent_fd=", a.parent_fd);
		p_fdpath(c->f, c->s, a.parent_fd);
		fmt_chr(c->f, '}');
	}
	a_hex(c, (unsigned int)c->s->args[3]);
}

const struct decoder dec_sec[] = {
	{ "add_key", d_add_key, 0, 0 },
	{ "request_key", d_request_key, 0, 0 },
	{ "keyctl", d_keyctl, 0, 0 },
	{ "landlock_create_ruleset", d_landlock_create_ruleset,
	  r_landlock_create_ruleset, 0 },
	{ "landlock_add_rule", d_landlock_add_rule, 0, 0 },
	{ 0, 0, 0, 0 },
};
