# SPDX-License-Identifier: MIT
#
# gen.awk - C tables for one architecture from the CSV tables.
#
#   awk -v arch=ARCH [-v compat=ARCH32] -v out=h|c -f gen.awk syscalls.csv \
#       errno.csv signals.csv
#
# compat names the column of the 32-bit calls the same kernel serves
# (x86_64: i386, for int $0x80 and 32-bit programs), for a tracer.
#
# out=h writes syscalls.h (SG_NR_* numbers, struct sg_syscall, the
# errno and signal interfaces); out=c writes syscalls.c (the tables and
# the lookup functions).  POSIX awk only (no gawk extensions); run it with
# LC_ALL=C so that string order is byte order, as in the generated C.
#
# Each input is recognised by its header line, so the order of files does
# not matter.  Lines starting with '#' are comments.  Any malformed row
# stops the build with a message naming the file and line: the tables are
# data that generic code trusts (array sizes, string lengths), so they are
# checked here once rather than at every use.
#
# The generated .c is linked into the preloaded library, so it calls no
# libc function (it has its own string compare) and holds only constant
# data.

BEGIN {
	FS = ","
	if (arch == "" || (out != "h" && out != "c"))
		die("usage: awk -v arch=ARCH -v out=h|c -f gen.awk CSV...")

	# Argument kinds: see syscalls/README.md.
	kinds = "duxhU" "pfD" "sbB" "vVo" "mPM" "Sae" "cw_"
	# Class names and the SYSGATE_CLASS_* macro each maps to.
	nclass = split("file process network signal ipc desc memory creds " \
		"stat clock pure", cname, " ")
	for (i = 1; i <= nclass; i++)
		cmacro[cname[i]] = "SYSGATE_CLASS_" toupper(cname[i])
	gpumacro["-"] = "SG_GPU_UNLISTED"
	gpumacro["yes"] = "SG_GPU_YES"
	gpumacro["limited"] = "SG_GPU_LIMITED"
	gpumacro["no"] = "SG_GPU_NO"

	nsys = 0	# rows in syscalls.csv
	maxnr = -1	# highest number on this arch
	maxcnr = -1	# highest 32-bit (compat) number
	# Compat calls with no call of their name on arch are numbered from
	# here, above every native number and below SYSGATE_NR_MAX.
	compat_base = 560
	nr_max = 1024
	nerr = 0
	maxerr = 0
	nsig = 0
	maxsig = 0
}

function die(msg) {
	print "gen.awk: " msg > "/dev/stderr"
	failed = 1
	exit 1
}

function bad(msg) {
	die(FILENAME ":" FNR ": " msg)
}

function isnum(s) {
	return s ~ /^[0-9]+$/
}

# Sort keys k[1..n] (and the parallel array v) in byte order: insertion
# sort, since POSIX awk has no sort and n is a few hundred.
function sort2(k, v, n,    i, j, tk, tv) {
	for (i = 2; i <= n; i++) {
		tk = k[i]
		tv = v[i]
		for (j = i - 1; j >= 1 && k[j] > tk; j--) {
			k[j + 1] = k[j]
			v[j + 1] = v[j]
		}
		k[j + 1] = tk
		v[j + 1] = tv
	}
}

function cstr(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return "\"" s "\""
}

# The offset of s in sg_strs, the one string pool of the tables (added
# the first time): offsets rather than pointers need no relocation, so
# the tables stay in read-only pages the processes share.  Offset 0 is
# the empty string, which stands for none.
function soff(s) {
	if (!(s in pooloff)) {
		if (npool == 0)
			poolend = 1
		pooloff[s] = poolend
		pool[++npool] = s
		poolend += length(s) + 1
		if (poolend > 65535)
			die("string pool over 64 KiB: widen its offsets")
	}
	return pooloff[s]
}

/^#/ || /^[ \t]*$/ { next }

# A header line starts each file and tells which table it is.
!(FILENAME in kind) {
	if ($1 != "name")
		bad("expected a header line starting with 'name'")
	for (i = 1; i <= NF; i++)
		hcol[FILENAME, $i] = i
	if ((FILENAME, "nargs") in hcol)
		kind[FILENAME] = "sys"
	else if ((FILENAME, "message") in hcol)
		kind[FILENAME] = "errno"
	else if ($0 == "name,number")
		kind[FILENAME] = "sig"
	else
		bad("unknown table header '" $0 "'")
	if (kind[FILENAME] == "sys") {
		if (!((FILENAME, arch) in hcol))
			bad("no column for arch '" arch "'")
		if (compat != "" && !((FILENAME, compat) in hcol))
			bad("no column for compat arch '" compat "'")
		ncols = NF
		for (i = 1; i <= NF; i++)
			if ($i != "name" && $i != "nargs" && $i != "args" &&
			    $i != "classes" && $i != "gpu")
				archcol[$i] = 1
	}
	next
}

kind[FILENAME] == "sys" {
	if (NF != ncols)
		bad(NF " fields, expected " ncols)
	name = $1
	nr = $hcol[FILENAME, arch]
	nargs = $hcol[FILENAME, "nargs"]
	args = $hcol[FILENAME, "args"]
	classes = $hcol[FILENAME, "classes"]
	gpu = $hcol[FILENAME, "gpu"]

	if (name !~ /^[a-z_][a-z0-9_]*$/)
		bad("bad name '" name "'")
	if (name in sysrow)
		bad("duplicate name " name)
	for (c in archcol) {
		v = $hcol[FILENAME, c]
		if (v != "-" && !isnum(v))
			bad(name ": bad " c " number '" v "'")
	}
	if (!isnum(nargs) || nargs > 6)
		bad(name ": bad nargs '" nargs "'")
	if (length(args) != nargs)
		bad(name ": nargs " nargs " but args '" args "'")
	for (i = 1; i <= length(args); i++) {
		k = substr(args, i, 1)
		if (index(kinds, k) == 0)
			bad(name ": unknown argument kind '" k "'")
		# Input buffers and iovecs are printed using the next
		# argument as their length or count.
		if (index("bvV", k) && i == length(args))
			bad(name ": kind '" k "' needs a length argument after it")
	}
	cm = ""
	if (classes != "-") {
		n = split(classes, cl, "|")
		for (i = 1; i <= n; i++) {
			if (!(cl[i] in cmacro))
				bad(name ": unknown class '" cl[i] "'")
			if ((nsys, cl[i]) in clseen)
				bad(name ": class " cl[i] " twice")
			clseen[nsys, cl[i]] = 1
			cm = cm (cm == "" ? "" : " | ") cmacro[cl[i]]
		}
	}
	if (cm == "")
		cm = "0"
	if (!(gpu in gpumacro))
		bad(name ": unknown gpu value '" gpu "'")

	sysrow[name] = nsys
	sysname[nsys] = name
	if (nr != "-") {
		nr += 0
		if (nr in bynr)
			bad(name ": number " nr " already used by " \
				sysname[bynr[nr]])
		bynr[nr] = nsys
		sysnr[nsys] = nr
		if (nr > maxnr)
			maxnr = nr
	} else {
		# Unique, negative, and far from -1 (the "unknown" result), so
		# `case SG_NR_open:` compiles on every arch and never matches.
		sysnr[nsys] = "(" (-1000 - nsys) ")"
	}
	if (compat != "" && $hcol[FILENAME, compat] != "-") {
		cnr = $hcol[FILENAME, compat] + 0
		if (cnr in bycnr)
			bad(name ": " compat " number " cnr " already used by " \
				sysname[bycnr[cnr]])
		bycnr[cnr] = nsys
		if (cnr > maxcnr)
			maxcnr = cnr
	}
	sysnargs[nsys] = nargs
	sysargs[nsys] = args
	syscls[nsys] = cm
	sysgpu[nsys] = gpumacro[gpu]
	nsys++
	next
}

kind[FILENAME] == "errno" {
	# The message is everything after the second comma.
	name = $1
	num = $2
	msg = $0
	sub(/^[^,]*,[^,]*,/, "", msg)
	if (name !~ /^E[A-Z0-9_]+$/ || !isnum(num))
		bad("bad errno row")
	if (name in errnum)
		bad("duplicate errno name " name)
	errnum[name] = num + 0
	errorder[++nerr] = name
	# The first name of a number is the one printed; later ones are
	# aliases for lookup only.
	if (!((num + 0) in errname)) {
		errname[num + 0] = name
		errmsg[num + 0] = msg
	}
	if (num + 0 > maxerr)
		maxerr = num + 0
	next
}

kind[FILENAME] == "sig" {
	name = $1
	num = $2
	if (NF != 2 || name !~ /^SIG[A-Z0-9_]+$/ || !isnum(num) || num == 0)
		bad("bad signal row")
	if (name in signum)
		bad("duplicate signal name " name)
	signum[name] = num + 0
	sigorder[++nsig] = name
	if (!((num + 0) in signame))
		signame[num + 0] = name
	if (num + 0 > maxsig)
		maxsig = num + 0
	next
}

END {
	if (failed)
		exit 1
	if (nsys == 0 || nerr == 0 || nsig == 0)
		die("need syscalls.csv, errno.csv and signals.csv")
	if (maxnr >= compat_base || compat_base + maxcnr >= nr_max)
		die("compat_base " compat_base " does not fit between " maxnr \
			" and SYSGATE_NR_MAX")
	if (out == "h")
		gen_h()
	else
		gen_c()
}

function gen_h(    i) {
	print "/* SPDX-License-Identifier: MIT */"
	print "/*"
	print " * Generated by syscalls/gen.awk for " arch " from syscalls.csv, errno.csv"
	print " * and signals.csv.  Do not edit: change the CSV files instead."
	print " */"
	print "#ifndef SG_GEN_SYSCALLS_H"
	print "#define SG_GEN_SYSCALLS_H"
	print ""
	print "#define SG_ARCH_NAME \"" arch "\""
	print ""
	print "/* System calls, indexed by number; name is NULL for holes. */"
	print "#define SG_NSYSCALLS " (maxnr + 1)
	print ""
	print "/* GENESYS viability of a call for GPU code (syscalls/README.md). */"
	print "#define SG_GPU_UNLISTED 0"
	print "#define SG_GPU_YES 1"
	print "#define SG_GPU_LIMITED 2"
	print "#define SG_GPU_NO 3"
	print ""
	print "/*"
	print " * The tables' strings, one after another; the tables hold offsets"
	print " * into it (0: none), so they need no relocation."
	print " */"
	print "extern const char sg_strs[];"
	print "static inline const char *sg_str(unsigned short off)"
	print "{"
	print "\treturn off ? sg_strs + off : 0;"
	print "}"
	print ""
	print "struct sg_syscall {"
	print "\tunsigned short name;\t/* in sg_strs; 0 for holes */"
	print "\tsigned char nargs;\t/* -1 for holes */"
	print "\tchar args[7];\t\t/* one kind letter per argument */"
	print "\tunsigned short classes;\t/* SYSGATE_CLASS_* bits */"
	print "\tunsigned char gpu;\t/* SG_GPU_* */"
	print "};"
	print ""
	print "extern const struct sg_syscall sg_syscall_table[SG_NSYSCALLS];"
	print "/* Number of a system call on this arch, or -1. */"
	print "long sg_syscall_lookup(const char *name);"
	print ""
	print "/*"
	print " * Every name of syscalls.csv.  Calls this arch lacks get distinct"
	print " * numbers <= -1000, so generic code can use them in a switch without"
	print " * #ifdef; they never match a real system call."
	print " */"
	for (i = 0; i < nsys; i++)
		print "#define SG_NR_" sysname[i] " " sysnr[i]
	print ""
	print "/*"
	print " * The 32-bit calls the kernel also serves (" (compat == "" ? "none" : compat) \
		"), by their number:"
	print " * sg_compat_nr gives the number of the call of the same name in"
	print " * sg_syscall_table, or SG_COMPAT_BASE + the 32-bit number for calls"
	print " * only the 32-bit ABI has (their entry is in sg_compat_table); -1 for"
	print " * holes."
	print " */"
	print "#define SG_COMPAT_NAME \"" compat "\""
	print "#define SG_NCOMPAT " (maxcnr + 1)
	print "#define SG_COMPAT_BASE " compat_base
	print "extern const struct sg_syscall sg_compat_table[SG_NCOMPAT + 1];"
	print "extern const short sg_compat_nr[SG_NCOMPAT + 1];"
	print ""
	print "/* errno names and strerror() wording, indexed by number, in sg_strs"
	print " * (0 if none). */"
	print "#define SG_NERRNO " (maxerr + 1)
	print "extern const unsigned short sg_errno_name[SG_NERRNO];"
	print "extern const unsigned short sg_errno_msg[SG_NERRNO];"
	print "/* Number of an errno name (aliases such as EWOULDBLOCK too), or -1. */"
	print "int sg_errno_lookup(const char *name);"
	print ""
	print "/* Signal names as strace prints them: SIGSEGV, SIGRTMIN, SIGRT_1... */"
	print "#define SG_NSIG " (maxsig + 1)
	print "/* Name of a signal, or NULL (0 and out-of-range numbers). */"
	print "const char *sg_signal_name(int sig);"
	print "/*"
	print " * Number of a signal given as \"SIGUSR1\", \"USR1\" (any case) or"
	print " * \"10\"; -1 if unknown."
	print " */"
	print "int sg_signal_lookup(const char *name);"
	print ""
	print "#endif /* SG_GEN_SYSCALLS_H */"
}

# The entries 0..max of a table whose row of each number is row[nr].
function table_rows(row, max,    nr, i) {
	for (nr = 0; nr <= max; nr++) {
		if (nr in row) {
			i = row[nr]
			print "\t[" nr "] = { " soff(sysname[i]) ", " \
				sysnargs[i] ", " cstr(sysargs[i]) ", " \
				syscls[i] ", " sysgpu[i] " },\t/* " \
				sysname[i] " */"
		} else {
			print "\t[" nr "] = { 0, -1, \"\", 0, SG_GPU_UNLISTED },"
		}
	}
}

function gen_c(    i, n, k, v, nr, e, s, cv) {
	print "/* SPDX-License-Identifier: MIT */"
	print "/*"
	print " * Generated by syscalls/gen.awk for " arch ".  Do not edit."
	print " *"
	print " * Linked into the preloaded library: constant data and plain loops"
	print " * only, no libc calls."
	print " */"
	print "#include \"sysgate.h\""
	print "#include \"syscalls.h\""
	print ""
	print "static int sg_strcmp(const char *a, const char *b)"
	print "{"
	print "\twhile (*a && *a == *b) {"
	print "\t\ta++;"
	print "\t\tb++;"
	print "\t}"
	print "\treturn (unsigned char)*a - (unsigned char)*b;"
	print "}"
	print ""
	print "const struct sg_syscall sg_syscall_table[SG_NSYSCALLS] = {"
	table_rows(bynr, maxnr)
	print "};"
	print ""

	print "const struct sg_syscall sg_compat_table[SG_NCOMPAT + 1] = {"
	table_rows(bycnr, maxcnr)
	print "\t[SG_NCOMPAT] = { 0, -1, \"\", 0, SG_GPU_UNLISTED },"
	print "};"
	print ""
	print "const short sg_compat_nr[SG_NCOMPAT + 1] = {"
	for (nr = 0; nr <= maxcnr; nr++) {
		if (!(nr in bycnr))
			cv = -1
		else if (sysnr[bycnr[nr]] ~ /^\(/)
			cv = compat_base + nr
		else
			cv = sysnr[bycnr[nr]]
		print "\t[" nr "] = " cv ","
	}
	print "\t[SG_NCOMPAT] = -1,"
	print "};"
	print ""

	# Binary search index: numbers of this arch's calls in name order.
	n = 0
	for (nr in bynr) {
		n++
		k[n] = sysname[bynr[nr]]
		v[n] = nr
	}
	sort2(k, v, n)
	print "/* This arch's system call numbers, sorted by name. */"
	print "static const unsigned short sg_syscall_index[" n "] = {"
	for (i = 1; i <= n; i++)
		print "\t" v[i] ",\t/* " k[i] " */"
	print "};"
	print ""
	print "long sg_syscall_lookup(const char *name)"
	print "{"
	print "\tunsigned int lo = 0, hi = sizeof(sg_syscall_index) /"
	print "\t\t\t\t  sizeof(sg_syscall_index[0]);"
	print ""
	print "\tif (!name)"
	print "\t\treturn -1;"
	print "\twhile (lo < hi) {"
	print "\t\tunsigned int mid = lo + (hi - lo) / 2;"
	print "\t\tunsigned short nr = sg_syscall_index[mid];"
	print "\t\tint c = sg_strcmp(name, sg_strs + sg_syscall_table[nr].name);"
	print ""
	print "\t\tif (c == 0)"
	print "\t\t\treturn nr;"
	print "\t\tif (c < 0)"
	print "\t\t\thi = mid;"
	print "\t\telse"
	print "\t\t\tlo = mid + 1;"
	print "\t}"
	print "\treturn -1;"
	print "}"
	print ""

	print "const unsigned short sg_errno_name[SG_NERRNO] = {"
	for (e = 0; e <= maxerr; e++)
		if (e in errname)
			print "\t[" e "] = " soff(errname[e]) ",\t/* " errname[e] " */"
	print "};"
	print ""
	print "const unsigned short sg_errno_msg[SG_NERRNO] = {"
	for (e = 0; e <= maxerr; e++)
		if (e in errname)
			print "\t[" e "] = " soff(errmsg[e]) ","
	print "};"
	print ""
	for (i in k)
		delete k[i]
	for (i in v)
		delete v[i]
	for (i = 1; i <= nerr; i++) {
		k[i] = errorder[i]
		v[i] = errnum[errorder[i]]
	}
	sort2(k, v, nerr)
	print "/* Every errno name, aliases included, sorted. */"
	print "static const struct {"
	print "\tunsigned short name;"
	print "\tunsigned short num;"
	print "} sg_errno_index[" nerr "] = {"
	for (i = 1; i <= nerr; i++)
		print "\t{ " soff(k[i]) ", " v[i] " },\t/* " k[i] " */"
	print "};"
	print ""
	print "int sg_errno_lookup(const char *name)"
	print "{"
	print "\tunsigned int lo = 0, hi = sizeof(sg_errno_index) /"
	print "\t\t\t\t  sizeof(sg_errno_index[0]);"
	print ""
	print "\tif (!name)"
	print "\t\treturn -1;"
	print "\twhile (lo < hi) {"
	print "\t\tunsigned int mid = lo + (hi - lo) / 2;"
	print "\t\tint c = sg_strcmp(name, sg_strs + sg_errno_index[mid].name);"
	print ""
	print "\t\tif (c == 0)"
	print "\t\t\treturn sg_errno_index[mid].num;"
	print "\t\tif (c < 0)"
	print "\t\t\thi = mid;"
	print "\t\telse"
	print "\t\t\tlo = mid + 1;"
	print "\t}"
	print "\treturn -1;"
	print "}"
	print ""

	print "static const unsigned short sg_signal_names[SG_NSIG] = {"
	for (s = 1; s <= maxsig; s++)
		if (s in signame)
			print "\t[" s "] = " soff(signame[s]) ",\t/* " signame[s] " */"
	print "};"
	print ""
	print "/* Every signal name, aliases included, for lookup. */"
	print "static const struct {"
	print "\tunsigned short name;"
	print "\tunsigned char num;"
	print "} sg_signal_index[" nsig "] = {"
	for (i = 1; i <= nsig; i++)
		print "\t{ " soff(sigorder[i]) ", " signum[sigorder[i]] " },\t/* " \
			sigorder[i] " */"
	print "};"
	print ""
	print "const char *sg_signal_name(int sig)"
	print "{"
	print "\tif (sig <= 0 || sig >= SG_NSIG)"
	print "\t\treturn 0;"
	print "\treturn sg_str(sg_signal_names[sig]);"
	print "}"
	print ""
	print "static int sg_upper(int c)"
	print "{"
	print "\treturn c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;"
	print "}"
	print ""
	print "/* Compare ignoring ASCII case; 0 when equal. */"
	print "static int sg_strcasecmp(const char *a, const char *b)"
	print "{"
	print "\twhile (*a && sg_upper(*a) == sg_upper(*b)) {"
	print "\t\ta++;"
	print "\t\tb++;"
	print "\t}"
	print "\treturn sg_upper((unsigned char)*a) - sg_upper((unsigned char)*b);"
	print "}"
	print ""
	print "int sg_signal_lookup(const char *name)"
	print "{"
	print "\tunsigned int i;"
	print "\tint n = 0;"
	print ""
	print "\tif (!name || !*name)"
	print "\t\treturn -1;"
	print "\tif (*name >= '0' && *name <= '9') {"
	print "\t\tfor (; *name; name++) {"
	print "\t\t\tif (*name < '0' || *name > '9' || n >= SG_NSIG)"
	print "\t\t\t\treturn -1;"
	print "\t\t\tn = n * 10 + (*name - '0');"
	print "\t\t}"
	print "\t\treturn n > 0 && n < SG_NSIG ? n : -1;"
	print "\t}"
	print "\tif (sg_upper(name[0]) == 'S' && sg_upper(name[1]) == 'I' &&"
	print "\t    sg_upper(name[2]) == 'G')"
	print "\t\tname += 3;"
	print "\tfor (i = 0; i < sizeof(sg_signal_index) / sizeof(sg_signal_index[0]);"
	print "\t     i++)"
	print "\t\tif (sg_strcasecmp(name,"
	print "\t\t\t\t  sg_strs + sg_signal_index[i].name + 3) == 0)"
	print "\t\t\treturn sg_signal_index[i].num;"
	print "\treturn -1;"
	print "}"
	print ""
	print "const char sg_strs[] ="
	print "\t\"\\0\""
	for (i = 1; i <= npool; i++)
		print "\t" cstr(pool[i]) " \"\\0\""
	print "\t;"
}
