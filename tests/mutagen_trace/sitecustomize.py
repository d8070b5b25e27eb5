"""sitecustomize.py - the line tracer of tests/mutagen.py --map: with
HMB_MUTAGEN_TRACE=DIR and this folder on PYTHONPATH, every Python process notes
which lines of the project's scripts (hmb_*.py) it ran, and
writes them at exit as DIR/PID.json ({"hmb_sweep.py": [lines]})."""
import atexit
import json
import os
import sys
import threading

_DIR = os.environ.get("HMB_MUTAGEN_TRACE")
_SCRIPTS = ("hmb_",)


def _install():
    seen = {}

    def local(frame, event, arg):
        if event == "line":
            seen[frame.f_code.co_filename].add(frame.f_lineno)
        return local

    def trace(frame, event, arg):
        name = frame.f_code.co_filename
        base = os.path.basename(name)
        if not (base.startswith(_SCRIPTS) and base.endswith(".py")):
            return None
        seen.setdefault(name, set()).add(frame.f_lineno)
        return local

    def first(frame, event, arg):
        # only a process that runs one of the scripts is traced: anything else
        # (pytest itself, jsonschema) runs at full speed
        main = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
        if not (main.startswith(_SCRIPTS) and main.endswith(".py")):
            sys.settrace(None)
            threading.settrace(None)
            return None
        sys.settrace(trace)
        threading.settrace(trace)
        return trace(frame, event, arg)

    def dump():
        out = {}
        for name, lines in seen.items():
            out.setdefault(os.path.basename(name), set()).update(lines)
        try:
            with open(os.path.join(_DIR, f"{os.getpid()}.json"), "w") as f:
                json.dump({k: sorted(v) for k, v in out.items()}, f)
        except OSError:
            pass

    sys.settrace(first)
    threading.settrace(trace)
    atexit.register(dump)


if _DIR:
    _install()
