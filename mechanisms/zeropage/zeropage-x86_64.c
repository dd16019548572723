/* SPDX-License-Identifier: MIT */
/*
 * The zero-page mechanism on x86-64: page 0 and the stub table.
 *
 * A site rewritten to `call *%rax` (ff d0, as long as `syscall`) calls
 * address rax, the system call number, so it lands in page 0 at offset nr.
 *
 * Page 0, mapped at address 0 only with -m zeropage, execute-only:
 *   [0, ENTRY)  a sled that every offset may enter: 3-byte groups
 *               `eb d 90` where `d 90` is itself a 2-byte nop (d is 66,
 *               a REX without B, or a segment prefix), so from any byte
 *               the sled falls or jumps forward in hops of up to 104
 *               bytes; the last stretch is plain nops.  Nothing in it
 *               writes memory or changes flags (zpoline's `eb 6a 90`
 *               sled executes `push $-0x70` at one alignment);
 *   ENTRY       movzwl (%rsp),%ecx          low 16 bits of the return
 *               movabs $table,%r11           address pick a slot
 *               mov (%r11,%rcx,8),%r11
 *               lea BAD(%r11),%r11           an empty slot (0) gives BAD
 *               jmp *%r11
 *   the rest    a second sled to a second entry in the last bytes, so
 *               that numbers no kernel has (ENTRY_LEN past ENTRY, up to
 *               PAGE - ENTRY_LEN) still reach the kernel, and fail with
 *               ENOSYS as they do natively.  Numbers outside page 0
 *               (negative, x32) fault; numbers that land inside an entry
 *               (512-539, 4068-4095) run the rest of it from the middle
 *               of an instruction: undefined, in practice a fault.
 * rcx and r11 are the only registers touched (the kernel clobbers them at
 * a syscall), and no flag: lea, mov and jmp leave RFLAGS alone.
 *
 * The table has 65536 slots, MAP_NORESERVE, each holding (stub - BAD) of
 * the last stub added for that slot.  Every stub starts by comparing the
 * full return address with its site's (patch-x86_64.c, flag-free: lea and
 * jrcxz) and on a mismatch goes to the stub added before it for the same
 * slot, and in the end to BAD, a kernel address: a call through a NULL or
 * small function pointer, or a jump into page 0, ends in SIGSEGV with the
 * pushed return address on the stack, as natively (but with the fault at
 * BAD instead of at the small address, and rcx/r11 changed).
 *
 * Stubs are only ever added: a slot is written (one aligned store) after
 * its stub and the ones it chains to are executable, and before any site
 * that returns through it is written.
 */
#include "zeropage.h"

#define PAGE 4096UL
#define ENTRY 0x200		/* above every x86-64 system call number */
#define SLOTS 65536UL
#define BAD (-0x100000L)	/* sign-extended: a kernel address */
#define PROT_R 1
#define PROT_W 2
#define PROT_X 4
#define MAP_PRIVATE_ANON 0x22
#define MAP_NORESERVE_ 0x4000
#define MAP_FIXED_NOREPLACE_ 0x100000
#define O_CLOEXEC_ 02000000

static unsigned long *table;
static int readable;

/* Stubs added but not yet reachable from the table. */
static struct pending {
	unsigned long ret, stub;
} *pending;
static unsigned long npending, pending_cap;

static char why_buf[160];

static const char *why_cat(const char *a, const char *b, const char *c)
{
	size_t n = sg_strlcpy(why_buf, a, sizeof(why_buf));

	if (n < sizeof(why_buf))
		n += sg_strlcpy(why_buf + n, b, sizeof(why_buf) - n);
	if (n < sizeof(why_buf))
		sg_strlcpy(why_buf + n, c, sizeof(why_buf) - n);
	return why_buf;
}

/* Map page 0 read+write, or say why not. */
static long map_page0(const char **why)
{
	long p = sg_sc6(SG_NR_mmap, 0, PAGE, PROT_R | PROT_W,
			MAP_PRIVATE_ANON | MAP_FIXED_NOREPLACE_, -1, 0);

	if (p == 0)
		return 0;
	if (!sysgate_is_error(p)) {
		sg_sc2(SG_NR_munmap, p, PAGE);	/* a kernel before 4.17 */
		*why = "zeropage: the kernel placed the mapping elsewhere "
		       "(MAP_FIXED_NOREPLACE needs Linux >= 4.17)";
	} else if (p == -1 || p == -13) {
		*why = "zeropage: mapping address 0 is refused (EPERM/EACCES: "
		       "a security module, e.g. SELinux without mmap_zero)";
	} else if (p == -17) {
		*why = "zeropage: address 0 is already mapped in this process";
	} else {
		*why = "zeropage: mapping address 0 failed";
	}
	return -1;
}

int sg_zeropage_probe(const char **why)
{
	char buf[32];
	long fd, n;

	fd = sg_sc4(SG_NR_openat, -100, (long)"/proc/sys/vm/mmap_min_addr",
		    0, 0);
	if (fd < 0) {
		*why = "zeropage: cannot read /proc/sys/vm/mmap_min_addr";
		return -1;
	}
	n = sg_sc3(SG_NR_read, fd, (long)buf, sizeof(buf) - 1);
	sg_sc1(SG_NR_close, fd);
	if (n <= 0) {
		*why = "zeropage: cannot read /proc/sys/vm/mmap_min_addr";
		return -1;
	}
	buf[n] = 0;
	if (buf[n - 1] == '\n')
		buf[n - 1] = 0;
	if (sg_strcmp(buf, "0")) {
		*why = why_cat("zeropage: vm.mmap_min_addr is ", buf,
			       ", not 0 (as root: sysctl -w vm.mmap_min_addr=0)");
		return -1;
	}
	if (map_page0(why) < 0)
		return -1;
	sg_sc2(SG_NR_munmap, 0, PAGE);
	*why = 0;
	return 0;
}

/*
 * Does a read of address 0 succeed in this thread?  The kernel reads it:
 * a write(2) from address 0 into a pipe obeys this thread's protection
 * keys as a load would, and fails with EFAULT instead of raising SIGSEGV,
 * so no signal disposition of the program changes (a forked child that
 * loads from 0 cost 0.25 ms per start; this costs microseconds).
 * Anything but EFAULT counts as readable.
 */
static int page0_readable(void)
{
	int fd[2];
	long r;

	if (sg_sc2(SG_NR_pipe2, (long)fd, O_CLOEXEC_) < 0)
		return 1;
	r = sg_sc3(SG_NR_write, fd[1], 0, 1);
	sg_sc1(SG_NR_close, fd[0]);
	sg_sc1(SG_NR_close, fd[1]);
	return r != -14;
}

/* A sled over [a, end) of page 0 that every byte may enter. */
static void put_sled(unsigned char *p, unsigned long a, unsigned long end)
{
	/* Each `d` makes `d 90` a nop: largest jumps first. */
	static const unsigned char hops[] = { 0x66, 0x4e, 0x4c, 0x4a, 0x48,
					      0x46, 0x44, 0x42, 0x40, 0x3e,
					      0x2e };
	unsigned int i;

	for (;;) {
		for (i = 0; i < sizeof(hops); i++)
			if (a + 2 + hops[i] <= end)
				break;
		if (i == sizeof(hops))
			break;
		p[a] = 0xeb;
		p[a + 1] = hops[i];
		p[a + 2] = 0x90;
		a += 3;
	}
	memset(p + a, 0x90, end - a);
}

#define ENTRY_LEN 28

static void put_entry(unsigned char *p)
{
	static const unsigned char head[] = {
		0x0f, 0xb7, 0x0c, 0x24,		/* movzwl (%rsp),%ecx */
		0x49, 0xbb,			/* movabs $table,%r11 */
	};
	static const unsigned char load[] = {
		0x4d, 0x8b, 0x1c, 0xcb,		/* mov (%r11,%rcx,8),%r11 */
		0x4d, 0x8d, 0x9b,		/* lea BAD(%r11),%r11 */
	};
	static const unsigned char jump[] = { 0x41, 0xff, 0xe3 };
	unsigned long t = (unsigned long)table;
	int bad = (int)BAD;

	_Static_assert(sizeof(head) + 8 + sizeof(load) + 4 + sizeof(jump) ==
		       ENTRY_LEN, "entry size");

	memcpy(p, head, sizeof(head));
	p += sizeof(head);
	memcpy(p, &t, 8);
	p += 8;
	memcpy(p, load, sizeof(load));
	p += sizeof(load);
	memcpy(p, &bad, 4);
	p += 4;
	memcpy(p, jump, sizeof(jump));
}

/* Page 0, mapped, becomes PROT_EXEC alone: execute-only where the CPU
 * has protection keys (the kernel gives the mapping its execute-only
 * key).  Refused if it stays readable, unless readable_ok. */
static int exec_only(int readable_ok, const char **why)
{
	sg_sc3(SG_NR_mprotect, 0, PAGE, PROT_X);
	readable = page0_readable();
	if (readable && !readable_ok) {
		*why = "zeropage: page 0 cannot be made execute-only here (no "
		       "protection keys), so NULL reads would not fault; "
		       "--zeropage-readable-null accepts that";
		return -1;
	}
	return 0;
}

int sg_zeropage_check(int readable_ok, const char **why)
{
	int r;

	*why = 0;
	if (table)
		return 0;	/* set up already */
	if (map_page0(why) < 0)
		return -1;
	r = exec_only(readable_ok, why);
	sg_sc2(SG_NR_munmap, 0, PAGE);
	return r;
}

int sg_zeropage_setup(int readable_ok, const char **why)
{
	unsigned char *page;
	long t;

	*why = 0;
	if (table)
		return 0;
	t = sg_sc6(SG_NR_mmap, 0, SLOTS * 8, PROT_R | PROT_W,
		   MAP_PRIVATE_ANON | MAP_NORESERVE_, -1, 0);
	if (sysgate_is_error(t)) {
		*why = "zeropage: no memory for the stub table";
		return -1;
	}
	if (map_page0(why) < 0) {
		sg_sc2(SG_NR_munmap, t, SLOTS * 8);
		return -1;
	}
	table = (unsigned long *)t;
	/* Address 0 through a register the compiler cannot see as NULL. */
	__asm__("" : "=r"(page) : "0"(0UL));
	put_sled(page, 0, ENTRY);
	put_entry(page + ENTRY);
	put_sled(page, ENTRY + ENTRY_LEN, PAGE - ENTRY_LEN);
	put_entry(page + PAGE - ENTRY_LEN);
	if (exec_only(readable_ok, why) < 0) {
		sg_sc2(SG_NR_munmap, 0, PAGE);
		sg_sc2(SG_NR_munmap, t, SLOTS * 8);
		table = 0;
		return -1;
	}
	return 0;
}

int sg_zeropage_readable(void)
{
	return readable;
}

static unsigned long head(unsigned long ret)
{
	unsigned long i = npending, slot = ret & (SLOTS - 1);

	while (i--)
		if ((pending[i].ret & (SLOTS - 1)) == slot)
			return pending[i].stub;
	return __atomic_load_n(&table[slot], __ATOMIC_RELAXED) + BAD;
}

unsigned long sg_zeropage_add(unsigned long ret, unsigned long stub)
{
	unsigned long prev = head(ret);

	if (npending == pending_cap) {
		unsigned long cap = pending_cap ? 2 * pending_cap : 1024;
		struct pending *n = sg_mmap(cap * sizeof(*n));

		if (!n)
			sg_die("zeropage: out of memory");
		if (pending) {
			memcpy(n, pending, npending * sizeof(*n));
			sg_munmap(pending, pending_cap * sizeof(*n));
		}
		pending = n;
		pending_cap = cap;
	}
	pending[npending].ret = ret;
	pending[npending].stub = stub;
	npending++;
	return prev;
}

void sg_zeropage_commit(void)
{
	unsigned long i;

	for (i = 0; i < npending; i++)
		__atomic_store_n(&table[pending[i].ret & (SLOTS - 1)],
				 pending[i].stub - BAD, __ATOMIC_RELEASE);
	npending = 0;
}
