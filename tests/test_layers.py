"""test_layers.py - includes go one way through the source's layers
(tests/check_layers.py): the tree as it is passes, and each kind of wrong
include, seeded into a copy of the tree, is named in one line, as is an
include or a call from one module's folder (bench/MODULE/) into another's;
the layout table of docs/development.md says what each folder's README says it
may include."""
import pathlib
import re
import shutil
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent
CHECK = REPO / "tests" / "check_layers.py"


def check(root):
    r = subprocess.run([sys.executable, str(CHECK), str(root)], capture_output=True, text=True)
    return r.returncode, r.stdout.splitlines(), r.stderr


def tree(tmp_path):
    """A copy of the source folders, to seed wrong includes into."""
    root = tmp_path / "tree"
    for d in ("src", "bench", "kernels"):
        shutil.copytree(REPO / d, root / d)
    return root


def append(path, line):
    path.write_text(path.read_text() + line + "\n")


def test_the_tree_keeps_its_layers():
    rc, lines, err = check(REPO)
    assert (rc, lines, err) == (0, [], "")


def test_an_include_of_a_layer_above_is_named(tmp_path):
    root = tree(tmp_path)
    append(root / "src/util/text.c", '#include "cli/cli.h"')
    append(root / "src/engine/measure.c", '#include "run/checkpoint.h"')
    rc, lines, _ = check(root)
    assert rc == 1
    assert lines == [
        'src/engine/measure.c: #include "run/checkpoint.h": layer engine may include '
        "kernels, platform, stats, system, telemetry, util; not run",
        'src/util/text.c: #include "cli/cli.h": layer util may include nothing; not cli',
    ]


def test_kernels_may_not_include_the_engine(tmp_path):
    root = tree(tmp_path)
    append(root / "kernels/kernels.h", '#include "engine/measure.h"')
    rc, lines, _ = check(root)
    assert rc == 1 and len(lines) == 1
    assert lines[0].startswith('kernels/kernels.h: #include "engine/measure.h": layer kernels')


def test_an_include_that_names_no_layer_is_named(tmp_path):
    root = tree(tmp_path)
    append(root / "bench/pool/pool.c", '#include "../src/engine/measure.h"')
    append(root / "bench/vmm/vmm.c", '#include "vmm.h"')
    rc, lines, _ = check(root)
    assert rc == 1 and len(lines) == 2
    assert all("names no layer" in line for line in lines)
    assert lines[0].startswith("bench/pool/pool.c:") and lines[1].startswith("bench/vmm/vmm.c:")


def test_a_module_including_another_module_is_named(tmp_path):
    root = tree(tmp_path)
    append(root / "bench/pool/pool.c", '#include "bench/vmm/vmm.h"')
    append(root / "bench/node/node.h", '#include "bench/memcpy/memcpy.h"')
    rc, lines, _ = check(root)
    assert rc == 1
    assert lines == [
        'bench/node/node.h: #include "bench/memcpy/memcpy.h": the files of module node include '
        "only their own (bench/node/); modules never include each other",
        'bench/pool/pool.c: #include "bench/vmm/vmm.h": the files of module pool include '
        "only their own (bench/pool/); modules never include each other",
    ]


def test_a_module_calling_another_module_is_named(tmp_path):
    root = tree(tmp_path)
    append(root / "bench/pool/pool_growth.c",
           "void memcpy_pinning(struct hmb_ctx *ctx);\n"
           "void pool_seeded(struct hmb_ctx *ctx)\n{\n\tmemcpy_pinning(ctx);\n}")
    append(root / "bench/xnack/xnack.c",
           "extern const struct hmb_case_ops managed_gpu_ops;\n"
           "const void *xnack_seeded = &managed_gpu_ops;")
    rc, lines, _ = check(root)
    assert rc == 1
    assert lines == [
        "bench/pool/pool_growth.c: calls memcpy_pinning of module memcpy "
        "(bench/memcpy/memcpy_pinning.c): modules never call each other",
        "bench/xnack/xnack.c: names managed_gpu_ops of module managed "
        "(bench/managed/managed.c): modules never call each other",
    ]


def test_another_modules_name_in_a_comment_or_a_string_is_no_call(tmp_path):
    root = tree(tmp_path)
    append(root / "bench/pool/pool_growth.c",
           '/* as memcpy_pinning(ctx) does */\nstatic const char *pool_seeded = "memcpy_pinning(ctx)";')
    rc, lines, _ = check(root)
    assert (rc, lines) == (0, [])


def test_a_source_file_outside_a_modules_folder_is_named(tmp_path):
    root = tree(tmp_path)
    (root / "bench/stray.c").write_text('#include "engine/module.h"\n')
    rc, lines, _ = check(root)
    assert rc == 1
    assert lines == ["bench/stray.c: a module's files go in its own folder (bench/MODULE/)"]


def test_a_circle_of_layers_is_named(tmp_path):
    root = tree(tmp_path)
    readme = root / "src/util/README.md"
    readme.write_text(readme.read_text().replace("May include: none", "May include: cli"))
    rc, lines, _ = check(root)
    assert rc == 1
    assert any(line.startswith("the layers' May include lines make a circle: ") and "util" in line
               for line in lines)


def test_a_circle_of_files_is_named(tmp_path):
    root = tree(tmp_path)
    append(root / "src/util/util.h", '#include "util/text.h"')
    append(root / "src/util/text.h", '#include "util/util.h"')
    rc, lines, _ = check(root)
    assert rc == 1
    assert lines == ["files include each other in a circle: util/text.h -> util/util.h -> util/text.h"]


def test_a_layer_without_its_may_include_line_is_named(tmp_path):
    root = tree(tmp_path)
    (root / "src/stats/README.md").write_text("# stats\n")
    rc, lines, _ = check(root)
    assert rc == 1
    assert "src/stats/README.md: no 'May include:' line (what layer stats may include)" in lines


def test_a_tree_without_src_is_refused(tmp_path):
    rc, lines, err = check(tmp_path)
    assert (rc, lines) == (2, []) and err.startswith("check_layers: ")


def test_the_layout_table_says_what_each_layer_may_include():
    text = (REPO / "docs" / "development.md").read_text().split("## Layout", 1)[1]
    rows = re.findall(r"^\| ((?:src/)?\w+)/ \| [^|]+ \| ([^|]+) \|$", text, re.M)
    table = {folder: {w.strip() for w in may.split(",")} - {"none"} for folder, may in rows}
    folders = [p.parent for p in REPO.glob("src/*/README.md")] + [REPO / "kernels", REPO / "bench"]
    said = {}
    for f in folders:
        m = re.search(r"^May include:\s*(.*)$", (f / "README.md").read_text(), re.M)
        said[str(f.relative_to(REPO))] = {w.strip() for w in m.group(1).split(",")} - {"none"}
    assert table == said
