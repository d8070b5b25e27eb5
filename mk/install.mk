# install.mk - the man page (help2man, from the binary's --help), install and
# uninstall (PREFIX, DESTDIR and the usual *DIR variables), and dist: a versioned
# source tarball of HEAD, with its git revision in REVISION.

PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
DATADIR     ?= $(PREFIX)/share
MANDIR      ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
PKGDATADIR  ?= $(DATADIR)/hipmembench
# The AMD build's shared object for the __managed__ array: the binary looks
# for it in ../lib/hipmembench beside its own folder (bench/managed/managed_static.c).
PKGLIBDIR   := $(BINDIR)/../lib/hipmembench
DOCDIR      ?= $(DATADIR)/doc/hipmembench
HELP2MAN    ?= help2man

# Where bash-completion looks: its user folder and bash-completion/completions in
# each XDG_DATA_DIRS folder. Elsewhere the completion has to be sourced: install says so.
COMPLETION_DIRS := $(or $(BASH_COMPLETION_USER_DIR),$(or $(XDG_DATA_HOME),$(HOME)/.local/share)/bash-completion) \
  $(addsuffix /bash-completion,$(patsubst %/,%,$(subst :, ,$(or $(XDG_DATA_DIRS),/usr/local/share:/usr/share))))
COMPLETION_NOTE := note: bash-completion does not look in $(BASHCOMPDIR): for completion \
  of hipmembench, add to ~/.bashrc: source $(BASHCOMPDIR)/hipmembench

MAN     := $(BUILD)/hipmembench.1
SCRIPTS := sweep gather fleet
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

# The scripts are installed as hipmembench-NAME, pointing at the installed binary
# and at PKGDATADIR/python, where the module they share (hmb_files.py) goes.
install: $(BIN) $(MANAGED_STATIC) $(MAN)
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(BASHCOMPDIR)' \
		'$(DESTDIR)$(PKGDATADIR)/slurm' '$(DESTDIR)$(PKGDATADIR)/python' '$(DESTDIR)$(DOCDIR)'
	install -m 755 $(BIN) '$(DESTDIR)$(BINDIR)/hipmembench'
	$(if $(MANAGED_STATIC),install -d '$(DESTDIR)$(PKGLIBDIR)' && \
		install -m 755 $(MANAGED_STATIC) '$(DESTDIR)$(PKGLIBDIR)/')
	install -m 644 scripts/hmb_files.py '$(DESTDIR)$(PKGDATADIR)/python/'
	for s in $(SCRIPTS); do \
		sed -e 's|"build/hipmembench"|"$(BINDIR)/hipmembench"|' \
		    -e 's|^LIBDIR = .*|LIBDIR = "$(PKGDATADIR)/python"|' scripts/hmb_$$s.py >$(BUILD)/hipmembench-$$s && \
		install -m 755 $(BUILD)/hipmembench-$$s '$(DESTDIR)$(BINDIR)/hipmembench-'$$s || exit 1; \
	done
	install -m 644 $(MAN) '$(DESTDIR)$(MANDIR)/man1/hipmembench.1'
	install -m 644 completion/hipmembench.bash '$(DESTDIR)$(BASHCOMPDIR)/hipmembench'
	install -m 644 scripts/slurm/*.sbatch '$(DESTDIR)$(PKGDATADIR)/slurm/'
	install -m 644 $(DOCS) '$(DESTDIR)$(DOCDIR)/'
	$(if $(filter $(BASHCOMPDIR),$(addsuffix /completions,$(COMPLETION_DIRS))),,@echo "$(COMPLETION_NOTE)")

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/hipmembench' $(foreach s,$(SCRIPTS),'$(DESTDIR)$(BINDIR)/hipmembench-$(s)') \
		'$(DESTDIR)$(MANDIR)/man1/hipmembench.1' '$(DESTDIR)$(BASHCOMPDIR)/hipmembench'
	rm -rf '$(DESTDIR)$(PKGDATADIR)' '$(DESTDIR)$(DOCDIR)' '$(DESTDIR)$(PKGLIBDIR)'

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
