"""test_case_names.py - every case a module records is one it declares: the
names `hipmembench list --cases` gives (the module's case table, the names
--case matches and the dry run plans) hold every record's case in the
documents that runs on GPUs wrote (results/*/all.json), so that --case can
select, and the tables and compare can name, all that a run records."""
import collections
import json

import pytest

import hmb

DOCUMENTS = sorted((hmb.ROOT / "results").glob("*/all.json"))


def declared_cases():
    """{module: set of its declared case names}, from `list --cases`."""
    p = hmb.run("list", "--cases")
    assert p.returncode == 0, p.stderr
    cases = collections.defaultdict(set)
    for line in p.stdout.splitlines():
        words = line.split()
        cases[words[0]].add(words[-1])
    return cases


def test_there_are_documents_from_gpus():
    assert hmb.ROOT / "results" / "nvidia-h100-pcie" / "all.json" in DOCUMENTS


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.parent.name)
def test_every_recorded_case_is_declared(document):
    cases = declared_cases()
    records = json.loads(document.read_text())["results"]
    # "all": a size at which no case of the module could run (hmb_skip_module)
    undeclared = sorted({(r["module"], r["case"]) for r in records
                         if r["case"] not in cases.get(r["module"], ())
                         and not (r["case"] == "all" and r["status"] == "skipped")})
    assert records and not undeclared, undeclared
