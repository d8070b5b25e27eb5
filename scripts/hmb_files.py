"""hmb_files.py - what every hipmembench script does at its edges, declared once:
read a JSON file whole or say in one line why not, write a file whole or not at
all, take a command line whose mistakes are one line and exit 2, and end on an
interrupt or a closed pipe with the usual status and no traceback.

The scripts find this file beside them (scripts/) or where `make install` put it
(PKGDATADIR/python, written into each installed script)."""
import argparse
import json
import os
import signal
import stat
import sys
import tempfile


class BadFile(Exception):
    """A file that is not what it should be: the message names why."""


def read_all(fd):
    """Every byte of fd, by os.read: no file object that an interrupt could leave
    unclosed (a ResourceWarning, with a traceback, on the way out)."""
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def read_json(path):
    """The JSON at path; BadFile naming why not: a FIFO or a device (never waited on),
    bytes that are not UTF-8, nesting too deep for Python, NaN or Infinity."""
    def constant(name):
        raise ValueError(f"{name} is not a JSON number")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO: no wait for a writer
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise BadFile("not a regular file")
            os.set_blocking(fd, True)
            data = read_all(fd)
        finally:
            os.close(fd)
    except OSError as e:
        raise BadFile(f"cannot read it: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadFile(f"not UTF-8 (byte {e.start})") from None
    try:
        return json.loads(text, parse_constant=constant)
    except (ValueError, RecursionError) as e:
        raise BadFile(f"not readable JSON: {str(e) or type(e).__name__}") from None


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def temporary_beside(path, binary=False, suffix=""):
    """A new temporary file beside path (mkstemp: never through a link planted
    there), with the permissions a new file of this umask gets: its file object
    and name. The caller renames it over path, or removes it."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".",
                               prefix=os.path.basename(path) + ".tmp.", suffix=suffix)
    os.chmod(tmp, 0o666 & ~current_umask())
    return os.fdopen(fd, "wb" if binary else "w"), tmp


def write_whole(path, write, binary=False, suffix=""):
    """write(f) into a temporary file beside path, synced and renamed over it: path
    holds all of it or what it held before; the temporary goes whatever stops it."""
    f, tmp = temporary_beside(path, binary, suffix)
    try:
        with f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_json_whole(path, data):
    write_whole(path, lambda f: json.dump(data, f, indent=1))


class Cli:
    """One script's command line: its name begins every line it writes to stderr."""

    def __init__(self, name):
        self.name = name

    def say(self, msg):
        print(f"{self.name}: {msg}", file=sys.stderr)

    def fail(self, msg, status=2):
        self.say(msg)
        sys.exit(status)

    def read_json(self, path):
        """The JSON at path, or one line naming why not (exit 2)."""
        try:
            return read_json(path)
        except BadFile as e:
            self.fail(f"{path}: {e}")

    def parser(self, **kw):
        """An argparse parser whose usage errors are one line and exit 2."""
        cli = self

        class Parser(argparse.ArgumentParser):
            def error(self, message):
                cli.fail(f"{message} (see --help)")

        return Parser(**kw)

    def run(self, main):
        """sys.exit(main(sys.argv)): SIGTERM ends it as Ctrl-C does (128 + the
        signal, so that temporaries go and nothing half-written stays) unless the
        script handles SIGTERM itself; Ctrl-C exits 130, a closed stdout (| head) 1,
        a file that cannot be read or written (a full disk) one line naming it, 1."""
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, lambda sig, _frame: sys.exit(128 + sig))
        try:
            try:
                rc = main(sys.argv)
            finally:  # what stdout holds goes now, while a closed pipe can be caught
                sys.stdout.flush()
            sys.exit(rc)
        except KeyboardInterrupt:
            sys.exit(130)
        except BrokenPipeError:  # stdout closed early: nothing more to say there
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except OSError as e:
            self.say(f"{e.filename or 'a file'}: {e.strerror or e}")
            sys.exit(1)
