"""test_plot_inputs.py - scripts/hmb_plot.py and scripts/hmb_plot_node.py on bad
input: one line on stderr and exit 2, never a traceback, under `python -X dev -W
error` (warnings are errors); every document of the corpus (tests/corpus/docs.jsonl)
likewise; without matplotlib, --help still works and a run names the package."""
import json
import os
import subprocess
import sys

import pytest

import hmb
import test_corpus

SCRIPTS = {"plot": hmb.ROOT / "scripts" / "hmb_plot.py",
           "node": hmb.ROOT / "scripts" / "hmb_plot_node.py"}
REAL = sorted((hmb.ROOT / "results").glob("*/all.json"))[0]
DEV = [sys.executable, "-X", "dev", "-W", "error"]


def script(name, *args, cwd=None, timeout=60):
    return subprocess.run([*DEV, str(SCRIPTS[name]), *map(str, args)], cwd=cwd,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout)


def one_line(p, status=2):
    assert "Traceback" not in p.stderr, p.stderr
    assert p.returncode == status, (p.returncode, p.stderr)
    assert p.stderr.endswith("\n") and p.stderr.count("\n") == 1, p.stderr
    return p.stderr


def node_doc(**result):
    r = {"module": "node", "case": "host/h2d/alone", "status": "ok", "gbps_median": 50,
         "params": {"gpu": 0, "placement": "local"}}
    r.update(result)
    return {"tool": {"name": "hipmembench"}, "schema_version": 1, "complete": True,
            "device": {"name": "gpu"}, "host": {"hostname": "h"}, "results": [r]}


def real_doc(edit):
    doc = json.loads(REAL.read_text())
    edit(doc)
    return doc


def first_ok(doc, module):
    return next(r for r in doc["results"] if r["module"] == module and r["status"] == "ok")


# (name, document or raw text, which scripts, fragment of the message)
BAD_DOCUMENTS = [
    ("deep-nesting", "[" * 100000 + "]" * 100000, "plot node", "not readable JSON"),
    ("deep-object", '{"a":' * 100000 + "1" + "}" * 100000, "plot node",
     "not readable JSON"),
    ("nan", '{"tool": {"name": "hipmembench"}, "results": [], "x": NaN}', "plot node",
     "NaN is not a JSON number"),
    ("node-params-string", node_doc(params="gpu0"), "node", "results[0].params is not an object"),
    ("node-gpu-negative", node_doc(params={"gpu": -1}), "node",
     "results[0].params.gpu is not a GPU ordinal from 0 to 1023"),
    ("node-gpu-huge", node_doc(case="p2p/ce/write", params={"src": 0, "dst": 10 ** 9}), "node",
     "results[0].params.dst is not a GPU ordinal"),
    ("node-gbps-string", node_doc(gbps_median="fast"), "node", "results[0].gbps_median"),
    ("node-metrics-list", node_doc(metrics=[1]), "node", "results[0].metrics is not an object"),
    ("node-host-string", dict(node_doc(), host="h"), "node", "host is not an object"),
    ("result-not-object", {"tool": {"name": "hipmembench"}, "device": {"name": "g"},
                           "complete": True, "results": [7]}, "plot node",
     "results[0] is not an object"),
    ("device-string", real_doc(lambda d: d.update(device="gpu")), "plot",
     "device is not an object"),
    ("size-string", real_doc(lambda d: first_ok(d, "memcpy")["params"].update(size="64M")),
     "plot", ".params.size is not a number"),
    ("samples-strings", real_doc(lambda d: first_ok(d, "vmm").update(samples_s=["1"])), "plot",
     ".samples_s is not a list of numbers"),
    ("streams-huge", real_doc(lambda d: first_ok(d, "overlap")["params"].update(streams=1e300)),
     "plot", ".params.streams is not a number"),
    ("chunks-just-over", real_doc(lambda d: first_ok(d, "overlap")["params"].update(
        chunks=10 ** 6 + 1)), "plot", ".params.chunks is not a number from 0 to 1000000"),
    ("streams-just-over", real_doc(lambda d: first_ok(d, "overlap")["params"].update(
        streams=10 ** 6 + 1)), "plot", ".params.streams is not a number from 0 to 1000000"),
    ("size-just-over", real_doc(lambda d: first_ok(d, "memcpy")["params"].update(
        size=2 ** 46 + 1)), "plot", ".params.size is not a number from 0 to 70368744177664"),
    ("module-number", real_doc(lambda d: d["results"][0].update(module=1)), "plot",
     "results[0].module is not a string"),
]


@pytest.mark.parametrize("name,doc,which,message", BAD_DOCUMENTS, ids=[b[0] for b in BAD_DOCUMENTS])
def test_bad_document_is_one_line_exit_2(tmp_path, name, doc, which, message):
    path = tmp_path / "doc.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    for s in which.split():
        err = one_line(script(s, "-o", tmp_path / "out", path))
        assert f"{path}: " in err and message in err, err
        assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("which", ["plot", "node"])
def test_fifo_input_is_refused_not_waited_on(tmp_path, which):
    os.mkfifo(tmp_path / "fifo")
    err = one_line(script(which, "-o", tmp_path / "out", tmp_path / "fifo", timeout=20))
    assert "fifo: not a regular file" in err


@pytest.mark.parametrize("which", ["plot", "node"])
def test_output_that_is_a_file_is_refused(tmp_path, which):
    (tmp_path / "taken").write_text("mine")
    err = one_line(script(which, "-o", tmp_path / "taken", REAL))
    assert f"-o {tmp_path / 'taken'}: not a folder" in err
    assert (tmp_path / "taken").read_text() == "mine"


@pytest.mark.parametrize("which", ["plot", "node"])
@pytest.mark.parametrize("args", [["--frob"], []])
def test_bad_usage_is_one_line(tmp_path, which, args):
    err = one_line(script(which, *args))
    assert "(see --help)" in err


def without_matplotlib(name, *args, cwd=None):
    """The script run with `import matplotlib` failing, as where it is not installed."""
    code = ("import runpy, sys; sys.modules['matplotlib'] = None; "
            f"sys.argv = {[str(SCRIPTS[name]), *map(str, args)]!r}; "
            f"runpy.run_path({str(SCRIPTS[name])!r}, run_name='__main__')")
    return subprocess.run([*DEV, "-c", code], cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("which", ["plot", "node"])
def test_missing_matplotlib_is_named(tmp_path, which):
    p = without_matplotlib(which, "--help")
    assert p.returncode == 0 and "usage:" in p.stdout and not p.stderr, p.stderr
    err = one_line(without_matplotlib(which, "-o", tmp_path / "out", REAL))
    assert "needs matplotlib" in err and "python3-matplotlib" in err and "pip install" in err


def corpus_documents():
    return [c for c in test_corpus.load("docs.jsonl") if c.values[0].get("generate") != "huge"]


@pytest.mark.parametrize("case", corpus_documents())
def test_no_traceback_on_the_corpus(tmp_path, case):
    """Every malformed document of the corpus: exit 2 with one line (or 0/1 where it
    holds something to plot or nothing), never a traceback or a warning."""
    doc = tmp_path / "doc.json"
    test_corpus.write_doc(case, doc)
    for which in ("plot", "node"):
        p = script(which, "-o", tmp_path / "out", doc)
        assert "Traceback" not in p.stderr and "Warning" not in p.stderr, p.stderr
        assert p.returncode in (0, 1, 2), (p.returncode, p.stderr)
        if p.returncode == 2:
            one_line(p)
