"""test_mutagen.py - tests/mutagen.py, the mutants made by rule: each operator
where it belongs and nowhere else (not in comments, strings or preprocessor
lines; not an array's size), ids that stay put while other code moves, one
seeded order, and the list of known survivors naming mutants that exist. The
mutants themselves run in `make mutagen` (CI) and for the committed report."""
import subprocess

import pytest

import hmb
import mutagen

C = """#include <stdio.h>
#define LIMIT (a < b)
/* a < b in a comment */
static int f(int a, int b, int *p)
{
\tchar buf[64];
\tconst char *s = "a < b && c";
\tif (a < b && b != 3)
\t\treturn a + b;
\twhile (a)
\t\ta--;
\tp->x[2] = a * b;
\tputs(buf);
\treturn 0;
}
"""


def changed(sites, src, op):
    return sorted(src[:a] + new + src[b:] for o, a, b, new in sites if o == op)


def test_c_operators_where_they_belong():
    sites = mutagen.c_sites(C)
    ops = {}
    for op, a, b, new in sites:
        ops.setdefault(op, []).append((C[a:b], new))
    assert sorted(ops["cmp"]) == [("!=", "=="), ("<", "<=")]
    assert ops["logic"] == [("&&", "||")]
    assert sorted(ops["arith"]) == [("*", "/"), ("+", "-")]
    assert sorted(ops["const"]) == [("0", "1"), ("2", "3"), ("3", "4")]  # not buf's 64
    assert sorted(n for _, n in ops["negate"]) == ["(!(a < b && b != 3))", "(!(a))"]
    assert sorted(ops["return"]) == [("0", "1"), ("a + b", "0")]
    assert sorted(o for o, _ in ops["drop"]) == ["p->x[2] = a * b;", "puts(buf);"]
    for text in changed(sites, C, "cmp") + changed(sites, C, "drop"):
        assert '"a < b && c"' in text and "/* a < b in a comment */" in text
        assert "#define LIMIT (a < b)" in text


PY = '''"""doc < string"""
def f(a, b):
    """another < doc"""
    if a < b and b in (1, 2):
        x = a + b
        print(x)
        return x * 2
    return None


if __name__ == "__main__":
    f(1, 2)
'''


def test_python_operators_on_the_syntax_tree():
    sites = mutagen.py_sites(PY)
    got = sorted((op, PY[a:b], new) for op, a, b, new in sites)
    assert ("cmp", "<", "<=") in got and ("cmp", "in", "not in") in got
    assert ("logic", "and", "or") in got
    assert ("arith", "+", "-") in got and ("arith", "*", "/") in got
    assert ("const", "2", "3") in got and ("const", "1", "2") in got
    assert ("negate", "a < b and b in (1, 2)", "not (a < b and b in (1, 2))") in got
    assert ("drop", "x = a + b", "pass") in got and ("drop", "print(x)", "pass") in got
    assert ("return", "x * 2", "None") in got
    # not the docstrings, not the entry point's test, not `return None`
    assert not [g for g in got if "doc" in g[1] or "__name__" in g[1] or g[1] == "None"], got
    for op, a, b, new in sites:  # every mutant still parses
        compile(mutagen.apply(PY, {"start": a, "end": b, "new": new}), "x.py", "exec")


def test_ids_stay_while_other_code_moves(tmp_path, monkeypatch):
    (tmp_path / "src" / "x").mkdir(parents=True)
    (tmp_path / "src" / "x" / "a.c").write_text(C)
    monkeypatch.setattr(mutagen, "ROOT", tmp_path)
    before = {m["id"]: (m["old"], m["new"]) for m in mutagen.mutants_of("src/x/a.c")}
    (tmp_path / "src" / "x" / "a.c").write_text("static int g;\n\n" + C)
    after = {m["id"]: (m["old"], m["new"]) for m in mutagen.mutants_of("src/x/a.c")}
    assert before == after and len(before) == len(mutagen.c_sites(C))


def test_one_seeded_order_across_the_tree():
    order = [m["id"] for m in mutagen.seeded(mutagen.all_mutants(), 36)]
    assert len(order) == len(set(order)) > 3000
    assert order == [m["id"] for m in mutagen.seeded(mutagen.all_mutants(), 36)]
    assert order[:50] != [m["id"] for m in mutagen.seeded(mutagen.all_mutants(), 37)][:50]
    first = {mutagen.folder_of(m["file"]) for m in mutagen.seeded(mutagen.all_mutants(), 36)[:300]}
    assert {"scripts", "src/engine", "src/doc", "src/cli"} <= first, first
    assert any(f.startswith("bench/") for f in first), first  # bench/<module>, a folder each
    assert all(f.count("/") == 1 for f in first if f != "scripts"), first


def test_a_sample_keeps_its_mutants_when_others_come_or_go():
    """A change elsewhere in the tree adds and removes mutants: the others keep their
    order, so a sample of the first N loses only those gone and gains only those new."""
    every = mutagen.all_mutants()
    gone = every[::7]
    rest = [m for m in every if m not in gone]
    new = [dict(m, id=m["id"] + "-new") for m in gone[:40]]
    before = [m["id"] for m in mutagen.seeded(every, 36)]
    after = [m["id"] for m in mutagen.seeded(rest + new, 36)]
    kept = {m["id"] for m in rest}
    assert [i for i in before if i in kept] == [i for i in after if i in kept]
    grown = [m["id"] for m in mutagen.seeded(every + new, 36)]  # only added
    assert set(before[:300]) <= set(grown[:300 + len(new)])


def test_list_prints_the_sample_and_runs_nothing():
    p = subprocess.run([hmb.PY, str(hmb.ROOT / "tests" / "mutagen.py"), "--list", "--sample", "5"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and len(p.stdout.splitlines()) == 5, p.stdout + p.stderr
    p = subprocess.run([hmb.PY, str(hmb.ROOT / "tests" / "mutagen.py"), "--only", "no-such"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "no mutant named no-such" in p.stderr


def test_known_survivors_are_mutants_of_the_tree_with_a_class_and_a_reason():
    known = mutagen.known_survivors()
    ids = {m["id"] for m in mutagen.all_mutants()}
    assert not set(known) - ids, f"listed but no longer made: {sorted(set(known) - ids)}"
    for id, (cls, why) in known.items():
        assert cls in ("equivalent", "gpu", "sanitize", "open"), (id, cls)
        assert len(why) > 10, (id, why)


@pytest.mark.parametrize("path", ["src/util/sizes.c", "src/compare/compare.c",
                                  "scripts/hmb_gather.py", "scripts/hmb_sweep.py"])
def test_every_mutant_of_a_file_applies_where_it_was_found(path):
    src = (hmb.ROOT / path).read_text()
    for m in mutagen.mutants_of(path):
        out = mutagen.apply(src, m)
        assert out.count("\n") == src.count("\n"), m  # line numbers kept
        assert out != src
