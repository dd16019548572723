# SPDX-License-Identifier: MIT
# make install / make uninstall, with DESTDIR, PREFIX, BINDIR, LIBDIR,
# INCLUDEDIR, MANDIR.  The runtime (libsysgate.so, sysgate-loader, the
# preload wrappers and the example hooks) lives together in
# $(LIBDIR)/sysgate: the library finds the loader beside itself and the
# loader finds the library beside itself.  $(LIBDIR) gets the soname
# link and the development link, for hooks or programs linked with
# -lsysgate.  The CLI finds the runtime next to itself (the build tree),
# else at the path from BINDIR to $(LIBDIR)/sysgate (so a DESTDIR tree
# or a moved prefix works), else at $(LIBDIR)/sysgate.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
PKGLIBDIR ?= $(LIBDIR)/sysgate
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL ?= install

SG_SONAME := libsysgate.so.1
MAN3_PAGES := $(wildcard man/*.3)
# the names a man3 page documents: its NAME line, up to "\-"
man3_names = awk 'n { sub(/ *\\-.*/, ""); gsub(/,/, " "); print; exit } /^\.SH NAME/ { n = 1 }'

# Rewritten only when the paths change, so a plain `make` rebuilds nothing.
$(BUILD)/gen/install-paths.h: FORCE | $(BUILD)/.dir
	@{ printf '#define SG_PKGLIBDIR "%s"\n' '$(PKGLIBDIR)'; \
	   printf '#define SG_PKGLIBDIR_FROM_BIN "%s"\n' \
		"$$(realpath -m --relative-to='$(BINDIR)' '$(PKGLIBDIR)')"; \
	 } >$@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/tools/sysgate/main.o $(BUILD)/tools/sysgate/run.o: $(BUILD)/gen/install-paths.h

$(BUILD)/sysgate.pc: FORCE | $(BUILD)/.dir
	@{ echo 'prefix=$(PREFIX)'; \
	   echo 'libdir=$(LIBDIR)'; \
	   echo 'includedir=$(INCLUDEDIR)'; \
	   echo 'hookdir=$(PKGLIBDIR)/hooks'; \
	   echo; \
	   echo 'Name: sysgate'; \
	   echo 'Description: hook every system call of an unmodified program'; \
	   echo "Version: $$(sed -n 's/^#define SYSGATE_VERSION_MAJOR //p' include/sysgate.h).$$(sed -n 's/^#define SYSGATE_VERSION_MINOR //p' include/sysgate.h)"; \
	   echo 'Cflags: -I$${includedir}'; \
	   echo 'Libs: -L$${libdir} -lsysgate'; \
	 } >$@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@

install: everything $(BUILD)/sysgate.pc
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGLIBDIR)/hooks \
		$(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(MANDIR)/man7
	$(INSTALL) -m 755 $(BUILD)/sysgate $(DESTDIR)$(BINDIR)/sysgate
	$(INSTALL) -m 755 $(BUILD)/libsysgate.so $(DESTDIR)$(PKGLIBDIR)/$(SG_SONAME)
	ln -sf $(SG_SONAME) $(DESTDIR)$(PKGLIBDIR)/libsysgate.so
	$(INSTALL) -m 755 $(BUILD)/sysgate-loader $(BUILD)/sysgate-loader.text \
		$(BUILD)/libsysgate-preload.so $(BUILD)/sysgate-attach \
		$(BUILD)/sysgate-dl $(DESTDIR)$(PKGLIBDIR)/
	$(INSTALL) -m 755 $(EXAMPLE_HOOKS) $(DESTDIR)$(PKGLIBDIR)/hooks/
	ln -sf "$$(realpath -m --relative-to='$(LIBDIR)' '$(PKGLIBDIR)')/$(SG_SONAME)" \
		$(DESTDIR)$(LIBDIR)/$(SG_SONAME)
	ln -sf $(SG_SONAME) $(DESTDIR)$(LIBDIR)/libsysgate.so
	$(INSTALL) -m 644 include/sysgate.h include/sysgate_gpu.h \
		$(DESTDIR)$(INCLUDEDIR)/
	$(INSTALL) -m 644 $(BUILD)/sysgate.pc $(DESTDIR)$(PKGCONFIGDIR)/
	$(INSTALL) -m 644 man/sysgate.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 man/sysgate.7 $(DESTDIR)$(MANDIR)/man7/
	$(INSTALL) -m 644 $(MAN3_PAGES) $(DESTDIR)$(MANDIR)/man3/
	@# a link page for every other name a page's NAME line gives
	@for p in $(MAN3_PAGES); do \
		b=$$(basename $$p); \
		for f in $$($(man3_names) $$p); do \
			[ "$$f.3" = "$$b" ] || \
			echo ".so man3/$$b" >$(DESTDIR)$(MANDIR)/man3/$$f.3; \
		done; \
	done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/sysgate \
		$(DESTDIR)$(LIBDIR)/$(SG_SONAME) $(DESTDIR)$(LIBDIR)/libsysgate.so \
		$(DESTDIR)$(INCLUDEDIR)/sysgate.h $(DESTDIR)$(INCLUDEDIR)/sysgate_gpu.h \
		$(DESTDIR)$(PKGCONFIGDIR)/sysgate.pc \
		$(DESTDIR)$(MANDIR)/man1/sysgate.1 $(DESTDIR)$(MANDIR)/man7/sysgate.7
	for p in $(MAN3_PAGES); do \
		for f in $$($(man3_names) $$p); do \
			rm -f $(DESTDIR)$(MANDIR)/man3/$$f.3; \
		done; \
	done
	rm -rf $(DESTDIR)$(PKGLIBDIR)

FORCE:
.PHONY: install uninstall FORCE
