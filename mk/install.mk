# install.mk - the man page (help2man, from the binary's --help), install and
# uninstall (PREFIX, DESTDIR and the usual *DIR variables), and dist: a versioned
# source tarball of HEAD, with its git revision in REVISION.

PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
DATADIR     ?= $(PREFIX)/share
MANDIR      ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
PKGDATADIR  ?= $(DATADIR)/hipmembench
DOCDIR      ?= $(DATADIR)/doc/hipmembench
HELP2MAN    ?= help2man

MAN     := $(BUILD)/hipmembench.1
SCRIPTS := plot sweep gather fleet
DOCS    := README.md LICENSE $(wildcard docs/schema.*)
DIST    := hipmembench-$(VERSION)
MISSING_HELP2MAN := help2man not found (it makes the man page from --help): install \
  help2man (Debian/Ubuntu, Fedora/RHEL) or with Spack (spack install help2man && \
  spack load help2man)

# `make` builds the man page too where help2man is present; install needs it.
ifneq ($(shell command -v $(HELP2MAN) 2>/dev/null),)
  all: $(MAN)
endif
man: $(MAN)

$(MAN): $(BIN) man/hipmembench.h2m
	@command -v $(HELP2MAN) >/dev/null 2>&1 || { echo "$(MISSING_HELP2MAN)" >&2; exit 1; }
	$(HELP2MAN) --no-info --version-string=$(VERSION) --include=man/hipmembench.h2m \
		--name="measure how memory moves between host and GPU" --output=$@.tmp $(abspath $(BIN))
	@mv $@.tmp $@

# The scripts are installed as hipmembench-NAME, pointing at the installed binary.
install: $(BIN) $(MAN)
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(BASHCOMPDIR)' \
		'$(DESTDIR)$(PKGDATADIR)/slurm' '$(DESTDIR)$(DOCDIR)'
	install -m 755 $(BIN) '$(DESTDIR)$(BINDIR)/hipmembench'
	for s in $(SCRIPTS); do \
		sed 's|"build/hipmembench"|"$(BINDIR)/hipmembench"|' scripts/hmb_$$s.py >$(BUILD)/hipmembench-$$s && \
		install -m 755 $(BUILD)/hipmembench-$$s '$(DESTDIR)$(BINDIR)/hipmembench-'$$s || exit 1; \
	done
	install -m 644 $(MAN) '$(DESTDIR)$(MANDIR)/man1/hipmembench.1'
	install -m 644 completion/hipmembench.bash '$(DESTDIR)$(BASHCOMPDIR)/hipmembench'
	install -m 644 scripts/slurm/*.sbatch '$(DESTDIR)$(PKGDATADIR)/slurm/'
	install -m 644 $(DOCS) '$(DESTDIR)$(DOCDIR)/'

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/hipmembench' $(foreach s,$(SCRIPTS),'$(DESTDIR)$(BINDIR)/hipmembench-$(s)') \
		'$(DESTDIR)$(MANDIR)/man1/hipmembench.1' '$(DESTDIR)$(BASHCOMPDIR)/hipmembench'
	rm -rf '$(DESTDIR)$(PKGDATADIR)' '$(DESTDIR)$(DOCDIR)'

dist:
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || \
		{ echo "make dist: needs the git checkout (the tarball is made from HEAD)" >&2; exit 1; }
	@git diff --quiet HEAD -- || echo "make dist: uncommitted changes are left out: the tarball is made from HEAD" >&2
	@mkdir -p $(BUILD)
	@git describe --always HEAD >$(BUILD)/REVISION
	git archive --format=tar.gz --prefix=$(DIST)/ --add-file=$(BUILD)/REVISION \
		-o $(BUILD)/$(DIST).tar.gz HEAD
	@rm -f $(BUILD)/REVISION
	@echo "$(BUILD)/$(DIST).tar.gz"
