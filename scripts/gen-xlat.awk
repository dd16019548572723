# SPDX-License-Identifier: MIT
#
# gen-xlat.awk: hooks/trace/xlat.list -> C tables of named constants
# (out=h or out=c).  The list gives names and strace's printing order;
# the values come from the target's own headers when the generated .c is
# compiled for it (so aarch64's O_DIRECTORY is aarch64's), never from a
# copied table.  A name the target lacks is left out (#ifdef), unless it
# is written NAME=EXPR, which names an expression.
#
#   unit NAME                a compilation unit: its own headers (so the
#                            kernel's uapi headers need not meet libc's)
#   include HEADER           headers the unit's tables need
#   table NAME               a table; names follow, on as many lines
#   NAME NAME=EXPR ...
#
# A + in a name prints as " or " (strace names a request that two
# drivers share "SNDCTL_TMR_START or TCSETS"), a << as " << " (flags
# strace names by their bit: "1 << IDE_NICE_0").
BEGIN { nt = 0; cur = "main" }
/^#/ || NF == 0 { next }
$1 == "unit" { cur = $2; if (out == "units") print cur; next }
$1 == "include" { if (cur == unit) inc[++ninc] = $2; next }
$1 == "table" { tab[++nt] = $2; tunit[nt] = cur; n[nt] = 0; next }
{
	for (i = 1; i <= NF; i++) {
		e = $i
		k = ++n[nt]
		if (index(e, "=")) {
			nm[nt, k] = substr(e, 1, index(e, "=") - 1)
			ex[nt, k] = substr(e, index(e, "=") + 1)
		} else {
			nm[nt, k] = e
			ex[nt, k] = ""
		}
	}
}
END {
	if (out == "units")
		exit
	print "/* Generated from hooks/trace/xlat.list by scripts/gen-xlat.awk. */"
	if (out == "h") {
		print "#ifndef SG_TRACE_XLAT_H"
		print "#define SG_TRACE_XLAT_H"
		# names as offsets into a string of the table's names: no
		# relocation, so the entries stay in read-only shared pages
		print "struct xlat_ent { unsigned long value; unsigned int name; };"
		print "struct xlat { const struct xlat_ent *e; int n; const char *s; };"
		print "/* The name of t's entry i */"
		print "static inline const char *xlat_str(const struct xlat *t, int i)"
		print "{"
		print "\treturn t->s + t->e[i].name;"
		print "}"
		for (t = 1; t <= nt; t++)
			print "extern const struct xlat xl_" tab[t] ";"
		print "#endif"
		exit
	}
	print "#ifndef _GNU_SOURCE\n#define _GNU_SOURCE\n#endif"
	for (i = 1; i <= ninc; i++)
		print "#include <" inc[i] ">"
	print "#include \"xlat.h\""
	for (t = 1; t <= nt; t++) {
		if (tunit[t] != unit)
			continue
		pool = ""
		off = 0
		print "static const struct xlat_ent e_" tab[t] "[] = {"
		for (k = 1; k <= n[t]; k++) {
			shown = nm[t, k]
			if (ex[t, k] != "") {
				gsub(/\+/, " or ", shown)
				gsub(/<</, " << ", shown)
				print "\t{ (unsigned long)(" ex[t, k] "), " off " },\t/* " shown " */"
			} else {
				print "#ifdef " nm[t, k]
				print "\t{ (unsigned long)(" nm[t, k] "), " off " },\t/* " shown " */"
				print "#endif"
			}
			pool = pool "\n\t\"" shown "\\0\""
			off += length(shown) + 1
		}
		print "};"
		print "static const char s_" tab[t] "[] =" pool ";"
		print "const struct xlat xl_" tab[t] " = { e_" tab[t] \
			", sizeof(e_" tab[t] ") / sizeof(e_" tab[t] "[0]), s_" \
			tab[t] " };"
	}
}
