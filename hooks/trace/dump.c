/* SPDX-License-Identifier: MIT */
/*
 * -e read=SET, -e write=SET: every byte a call read from or wrote to a
 * descriptor in SET, as strace's hex dump lines after the call's line:
 *
 *  | 00000  68 65 6c 6c 6f 0a                               hello.      |
 *  (shortened here: a line has 16 bytes, and the text 16 columns)
 */
#include "trace.h"

#define DUMP_CHUNK 4096	/* program bytes read at a time */

/* The descriptors below FD_BITS selected, bit by bit; those above: high
 * ("all") or one of the few listed, unless the set is negated ("!3"). */
#define FD_BITS 1024
#define FD_FEW 16
struct fdset {
	unsigned long long bits[FD_BITS / 64];
	int high, neg;
	int nfew;
	long few[FD_FEW];
};

static struct fdset dump_read, dump_write;
/* per call: DUMP_READ or DUMP_WRITE, and how the data is passed */
#define DUMP_READ 1
#define DUMP_WRITE 2
#define DUMP_IOV 4	/* iovec array and count in args 1, 2 */
#define DUMP_MSG 8	/* msghdr in arg 1 */
#define DUMP_MMSG 16	/* mmsghdr array in arg 1, ret of them done */
static unsigned char dump_kind[SYSGATE_NR_MAX];

static const char *const read_calls[] = { "read", "pread64", "recvfrom",
					  "recv", "mq_timedreceive", 0 };
static const char *const write_calls[] = { "write", "pwrite64", "sendto",
					   "send", "mq_timedsend", 0 };
static const char *const readv_calls[] = { "readv", "preadv", "preadv2", 0 };
static const char *const writev_calls[] = { "writev", "pwritev", "pwritev2",
					    "vmsplice", 0 };
static const char *const recvmsg_calls[] = { "recvmsg", 0 };
static const char *const sendmsg_calls[] = { "sendmsg", 0 };
static const char *const recvmmsg_calls[] = { "recvmmsg", 0 };
static const char *const sendmmsg_calls[] = { "sendmmsg", 0 };

/* "3,4", "all", "none", "!3", "!!3" (each ! negates); "0-1022": a run
 * (the form the option parser gives long lists) */
static int parse_fds(struct fdset *set, const char *v, size_t n)
{
	size_t i = 0, k;
	int neg = 0;

	hk_memset(set, 0, sizeof(*set));
	for (; i < n && v[i] == '!'; i++)
		neg = !neg;
	while (i < n) {
		size_t e = i, dash = 0;
		long a, b;

		while (e < n && v[e] != ',') {
			if (v[e] == '-')
				dash = e;
			e++;
		}
		if (e - i == 3 && !hk_strncmp(v + i, "all", 3)) {
			hk_memset(set->bits, 0xff, sizeof(set->bits));
			set->high = 1;
		} else if (e - i != 4 || hk_strncmp(v + i, "none", 4)) {
			if (hk_parse_long(v + i, (dash ? dash : e) - i, &a) ||
			    (dash && hk_parse_long(v + dash + 1, e - dash - 1,
						   &b)) ||
			    a < 0 || (dash ? b : (b = a)) < a)
				return -1;
			for (; a <= b && a < FD_BITS; a++)
				set->bits[a / 64] |= 1ULL << (a % 64);
			for (; a <= b; a++) {
				if (set->nfew == FD_FEW)
					return -1;
				set->few[set->nfew++] = a;
			}
		}
		i = e + 1;
	}
	if (neg) {
		for (k = 0; k < FD_BITS / 64; k++)
			set->bits[k] = ~set->bits[k];
		set->neg = 1;
	}
	return 0;
}

static void mark(const char *const *names, int kind)
{
	long nr;

	for (; *names; names++) {
		nr = sysgate_syscall_number(*names);
		if (nr >= 0 && nr < SYSGATE_NR_MAX)
			dump_kind[nr] = (unsigned char)kind;
	}
}

int trace_dump_arg(int writes, const char *v, size_t n)
{
	if (parse_fds(writes ? &dump_write : &dump_read, v, n))
		return -1;
	if (writes) {
		mark(write_calls, DUMP_WRITE);
		mark(writev_calls, DUMP_WRITE | DUMP_IOV);
		mark(sendmsg_calls, DUMP_WRITE | DUMP_MSG);
		mark(sendmmsg_calls, DUMP_WRITE | DUMP_MMSG);
	} else {
		mark(read_calls, DUMP_READ);
		mark(readv_calls, DUMP_READ | DUMP_IOV);
		mark(recvmsg_calls, DUMP_READ | DUMP_MSG);
		mark(recvmmsg_calls, DUMP_READ | DUMP_MMSG);
	}
	return 0;
}

static int selected(const struct fdset *set, int fd)
{
	if (fd < 0)
		return 0;
	int i;

	if (fd < FD_BITS)
		return (int)(set->bits[fd / 64] >> (fd % 64) & 1);
	for (i = 0; i < set->nfew && set->few[i] != fd; i++)
		;
	return (set->high || i < set->nfew) != set->neg;
}

/* strace reads what it dumps 64 KiB at a time: a chunk it cannot read
 * whole ends the dump, with this line unless it is the first. */
#define FETCH_CHUNK 65536

/* The lines for n bytes at p, offsets from 0; emitted a chunk at a
 * time through out(). */
static void dump(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		 unsigned long n, void (*out)(struct fmt *))
{
	static const char hx[] = "0123456789abcdef";
	unsigned char b[16];
	unsigned long off, digits = 5, top;

	/* every offset as wide as the last one needs, at least five
	 * digits (strace's width over the whole dump) */
	for (top = n > 0x100000 ? (n - 1) >> 20 : 0; top; top >>= 4)
		digits++;
	for (off = 0; off < n; off += 16) {
		unsigned long len = n - off < 16 ? n - off : 16, i;
		unsigned long chunk = n - off < FETCH_CHUNK ? n - off :
							      FETCH_CHUNK;

		if (f->len + 100 > f->cap)
			out(f);
		if (!(off % FETCH_CHUNK) && !trace_readable(s, p + off, chunk)) {
			if (!off)
				return;
			f_udec(f, " | <Cannot fetch ", chunk);
			fmt_str(f, chunk == 1 ? " byte" : " bytes");
			f_dec(f, " from pid ", s->tid);
			fmt_str(f, " @");
			fmt_hex(f, p + off);
			fmt_str(f, ">\n");
			return;
		}
		if (sysgate_read_mem(s, b, (void *)(p + off), len) != (long)len)
			return;
		fmt_str(f, " | ");
		for (i = digits * 4; i; i -= 4)
			fmt_chr(f, hx[off >> (i - 4) & 15]);
		fmt_str(f, "  ");
		for (i = 0; i < 16; i++) {
			if (i < len) {
				fmt_chr(f, hx[b[i] >> 4]);
				fmt_chr(f, hx[b[i] & 15]);
				fmt_chr(f, ' ');
			} else {
				fmt_str(f, "   ");
			}
			if (i == 7)
				fmt_chr(f, ' ');
		}
		fmt_chr(f, ' ');
		for (i = 0; i < 16; i++) {
			char ch = i >= len ? ' ' : (char)b[i];

			fmt_chr(f, ch >= 0x20 && ch < 0x7f ? ch : '.');
		}
		fmt_str(f, " |\n");
	}
}

/* count iovecs at iov: " * N bytes in buffer I" and each one's bytes,
 * left of them in all */
static void dump_iov(struct fmt *f, const struct sysgate_sys *s,
		     unsigned long iov, unsigned long count, unsigned long left,
		     void (*out)(struct fmt *))
{
	unsigned long i;
	struct {
		unsigned long base, len;
	} v;

	/* (strace reads the whole array first: nothing if part of it
	 * cannot be read) */
	if (count > 1UL << 20)
		return;
	for (i = 0; i < count; i++)
		if (sysgate_read_mem(s, &v, (void *)(iov + i * sizeof(v)),
				     sizeof(v)) != sizeof(v))
			return;
	for (i = 0; i < count && left; i++) {
		unsigned long n;

		if (sysgate_read_mem(s, &v, (void *)(iov + i * sizeof(v)),
				     sizeof(v)) != sizeof(v))
			return;
		n = v.len < left ? v.len : left;
		if (f->len + 100 > f->cap)
			out(f);
		fmt_str(f, " * ");
		fmt_udec(f, n);
		fmt_str(f, " bytes in buffer ");
		fmt_udec(f, i);
		fmt_chr(f, '\n');
		dump(f, s, v.base, n, out);
		left -= n;
	}
}

/* The struct msghdr fields the dumps need: a prefix of it */
struct msg_iov {
	unsigned long name, namelen, iov, iovlen;
};

/* sendmmsg/recvmmsg: each message done, " = N buffers in vector I" and
 * its iovecs up to its msg_len */
static void dump_mmsg(struct fmt *f, const struct sysgate_sys *s,
		      void (*out)(struct fmt *))
{
	/* (struct mmsghdr: msghdr, then msg_len) */
	struct {
		struct msg_iov m;
		unsigned long rest[3];
		unsigned int len, pad;
	} mm;
	unsigned long i;

	for (i = 0; i < (unsigned long)s->ret; i++) {
		if (sysgate_read_mem(s, &mm, (void *)(s->args[1] +
						      i * sizeof(mm)),
				     sizeof(mm)) != sizeof(mm))
			return;
		if (f->len + 100 > f->cap)
			out(f);
		fmt_str(f, " = ");
		fmt_udec(f, mm.m.iovlen);
		fmt_str(f, " buffers in vector ");
		fmt_udec(f, i);
		fmt_chr(f, '\n');
		dump_iov(f, s, mm.m.iov, mm.m.iovlen, mm.len, out);
	}
}

/* After a call's line: its data, if -e read=/write= selects its fd. */
__attribute__((hot))
void trace_dump(struct fmt *f, const struct sysgate_sys *s,
		void (*out)(struct fmt *))
{
	int kind = s->nr >= 0 && s->nr < SYSGATE_NR_MAX ? dump_kind[s->nr] : 0;
	unsigned long iov = s->args[1], count = s->args[2];
	struct msg_iov msg;

	/* (as strace: what a write was given, whatever it returned; what
	 * a read returned) */
	if (!kind || ((kind & DUMP_READ) && (sysgate_is_error(s->ret) ||
					     s->ret <= 0)) ||
	    !selected(kind & DUMP_READ ? &dump_read : &dump_write,
		      (int)s->args[0]))
		return;
	if (kind & DUMP_MMSG) {
		if (!sysgate_is_error(s->ret))
			dump_mmsg(f, s, out);
		return;
	}
	if (!(kind & (DUMP_IOV | DUMP_MSG))) {
		dump(f, s, s->args[1], kind & DUMP_READ ?
				       (unsigned long)s->ret :
				       (unsigned long)s->args[2], out);
		return;
	}
	if (kind & DUMP_MSG) {
		if (sysgate_read_mem(s, &msg, (void *)s->args[1], sizeof(msg)) !=
		    sizeof(msg))
			return;
		iov = msg.iov;
		count = msg.iovlen;
	}
	dump_iov(f, s, iov, count,
		 kind & DUMP_READ ? (unsigned long)s->ret : ~0UL, out);
}
