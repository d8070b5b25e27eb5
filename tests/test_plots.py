"""test_plots.py - scripts/hmb_plot.py and hmb_plot_node.py: the figures from the
committed real results, --label naming, and documents of failed runs (no device:
left out; incomplete: plotted and marked); several systems overlaid on the same
panels, each in its colour, on log-log scales that hold each, a document of two GPUs
as a system per GPU; legends below the panels kept whole in the file. Skipped,
saying why, without matplotlib."""
import copy
import importlib.util
import json
import math
import pathlib
import subprocess

import pytest

import hmb

PLOT = str(hmb.ROOT / "scripts" / "hmb_plot.py")
SUBJECTS = ["memcpy-bandwidth", "overlap-speedup", "managed-variants", "xnack-fault-cost",
            "pool-cost", "vmm-growth"]
REAL = sorted((hmb.ROOT / "results").glob("*/all.json"))[:2]
H100 = hmb.ROOT / "results" / "nvidia-h100-pcie" / "all.json"
H200_X2 = hmb.ROOT / "results" / "nvidia-h200-x2" / "all.json"


@pytest.fixture(autouse=True)
def matplotlib():
    if importlib.util.find_spec("matplotlib") is None:
        pytest.skip("matplotlib is not installed (Debian: python3-matplotlib)")


def plot(*args):
    return subprocess.run([hmb.PY, PLOT, *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10000


def test_six_figures_from_the_committed_real_results(tmp_path):
    assert REAL, "no results/*/all.json"
    p = plot("-o", tmp_path, *REAL)
    assert p.returncode == 0, p.stderr
    made = sorted(f.name for f in tmp_path.iterdir())
    assert made == sorted(f"{s}.png" for s in SUBJECTS), made
    assert all(is_png(tmp_path / f) for f in made)
    assert p.stdout.split() == [str(tmp_path / f"{s}.png") for s in SUBJECTS]


def test_label_names_the_files_and_failed_runs_are_marked(tmp_path):
    doc = json.loads(REAL[0].read_text())
    incomplete = copy.deepcopy(doc)
    incomplete["complete"] = False
    incomplete["results"] = [r for r in doc["results"] if r["module"] == "memcpy"]
    nodev = copy.deepcopy(doc)
    nodev["device"], nodev["results"] = None, []
    (tmp_path / "incomplete.json").write_text(json.dumps(incomplete))
    (tmp_path / "nodev.json").write_text(json.dumps(nodev))
    out = tmp_path / "out"
    p = plot("-o", out, "--label", "h100-run.2", tmp_path / "incomplete.json",
             tmp_path / "nodev.json")
    assert p.returncode == 0, p.stderr
    assert [f.name for f in out.iterdir()] == ["h100-run.2-memcpy-bandwidth.png"]
    assert "incomplete.json: failed run (did not complete)" in p.stderr
    assert "nodev.json: failed run (no device)" in p.stderr
    p = plot("-o", out, tmp_path / "nodev.json")
    assert p.returncode == 1 and "no document with results to plot" in p.stderr


def test_loop_shape_gives_a_panel_each(tmp_path):
    """A pool result that names its loop's shape (params.shape) is plotted in a
    panel of its own."""
    doc = json.loads(REAL[0].read_text())
    pool = [r for r in doc["results"] if r["module"] == "pool" and r["status"] == "ok"]
    shaped = []
    for shape in ("sync every iteration", "sync once at the end"):
        for r in pool:
            r = copy.deepcopy(r)
            r["params"]["shape"] = shape
            shaped.append(r)
    doc["results"] = shaped
    (tmp_path / "shaped.json").write_text(json.dumps(doc))
    out = tmp_path / "out"
    p = plot("-o", out, tmp_path / "shaped.json")
    assert p.returncode == 0, p.stderr
    assert is_png(out / "pool-cost.png")


@pytest.mark.parametrize("args,message", [
    (["--label", "a/b"], "--label 'a/b'"),
    (["missing.json"], "missing.json: cannot read it: No such file"),
])
def test_bad_input_is_named_exit_2(tmp_path, args, message):
    p = plot("-o", tmp_path / "out", *args, *([] if args[0].endswith(".json") else REAL))
    assert p.returncode == 2 and message in p.stderr, p.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def plot_module():
    spec = importlib.util.spec_from_file_location("hmb_plot", PLOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.need_matplotlib()
    return module


def test_several_systems_overlaid_on_one_scale_each_in_its_colour():
    """The H100 and the two-GPU H200 on the same panels (a system per GPU, named):
    the H200's device copies (2.1 TB/s) within the d2d panel's scale, sizes on log2
    and GB/s on log10 axes, each system's lines in its colour on every panel, one
    point per size on a line."""
    m = plot_module()
    docs = m.documents([str(H100), str(H200_X2)])
    assert [d["_system"] for d in docs] == ["NVIDIA H100 80GB HBM3 on vm", "NVIDIA H200 on vm, GPU 0",
                                            "NVIDIA H200 on vm, GPU 1"]
    fig = m.plot_memcpy(docs)
    axes = fig.axes
    assert [ax.get_title().split(":")[0] for ax in axes] == ["h2d", "d2h", "d2d"]
    d2d = [r["gbps_median"] for r in json.loads(H200_X2.read_text())["results"]
           if r["status"] == "ok" and r["case"] == "d2d/device/async"]
    assert axes[2].get_ylim()[1] >= max(d2d), axes[2].get_ylim()
    # the d2d panel's dashed lines: half of each system's memory peak (two transfers a
    # clock over the bus), as a device copy reads and writes each byte
    halves = set()
    for path in (H100, H200_X2):
        dev = json.loads(path.read_text())["device"]
        halves.add(round(dev["memory_clock_khz"] * 1e3 * 2 * dev["memory_bus_width_bits"] / 8
                         / 2 / 1e9, 6))
    assert {round(line.get_ydata()[0], 6) for line in axes[2].get_lines()
            if line.get_gid() == "peak"} == halves, halves
    colours = [m.system_colour(k) for k in range(len(docs))]
    for ax in axes:
        assert ax.get_xscale() == "log" and ax.get_yscale() == "log", ax.get_title()
        lines = [line for line in ax.get_lines() if line.get_gid() != "peak"]
        assert [line for line in ax.get_lines() if line.get_gid() == "peak"], ax.get_title()
        used = {line.get_color() for line in lines}
        assert used == set(colours), (ax.get_title(), used)
        for line in lines:
            xs = list(line.get_xdata())
            assert len(xs) == len(set(xs)), (ax.get_title(), xs)
            lo, hi = ax.get_ylim()
            assert all(lo <= y <= hi for y in line.get_ydata()), (ax.get_title(), lo, hi)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert all(any(d["_system"] in t for t in legend) for d in docs), legend
    m.plt.close(fig)


def drawn(tmp_path, *files):
    """hmb_plot.py run in this process, each figure kept (not written): {subject: fig}."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("hmb_plot_in_test", hmb.ROOT / "scripts" / "hmb_plot.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    figs = {}
    mod.CLI.write_png = lambda fig, path: figs.setdefault(
        pathlib.Path(path).stem, fig)
    assert mod.main(["hmb_plot.py", "-o", str(tmp_path), *map(str, files)]) == 0
    return figs


def ideal_speedups(path):
    """{load: {ideal speedup}} of a document's pipelined overlap results."""
    out = {}
    for r in json.loads(pathlib.Path(path).read_text())["results"]:
        if r.get("module") == "overlap" and r.get("status") == "ok" and \
                r["case"].startswith("pipeline/"):
            v = ((r.get("metrics") or {}).get("ideal_speedup") or {}).get("value")
            if v:
                out.setdefault(r["params"]["load"], set()).add(round(v, 6))
    return out


def test_titles_and_ticks_say_what_the_figures_show(tmp_path):
    """Each panel of the overlap figure is titled by its load and holds, as dotted
    lines named in the legend, the ideal speedups of that load and no other's; a
    log axis that holds three of 1, 2, 5 x 10^k has its ticks there and nowhere
    else (the pool, vmm and xnack figures)."""
    import math
    figs = drawn(tmp_path, H100)
    assert sorted(figs) == sorted(SUBJECTS), sorted(figs)
    ideals = ideal_speedups(H100)
    assert len(ideals) >= 2 and len(set(map(frozenset, ideals.values()))) == len(ideals), ideals
    fig = figs["overlap-speedup"]
    panels = {ax.get_title(): ax for ax in fig.axes if ax.get_title()}
    assert sorted(panels) == sorted(f"load {load}" for load in ideals), sorted(panels)
    for load, want in ideals.items():
        ax = panels[f"load {load}"]
        flat = {round(float(ln.get_ydata()[0]), 6) for ln in ax.get_lines()
                if list(ln.get_xdata()) == [0, 1] and len(set(ln.get_ydata())) == 1}
        assert flat - {1.0} == want, (load, flat, want)
    labels = [t.get_text() for lg in fig.legends for t in lg.get_texts()]
    assert "ideal speedup" in labels, labels
    for subject, axis in (("pool-cost", "yaxis"), ("vmm-growth", "yaxis"),
                          ("xnack-fault-cost", "xaxis")):
        ax = figs[subject].axes[0]
        a = getattr(ax, axis)
        lo, hi = sorted(a.get_view_interval())
        ticks = [t for t in a.get_majorticklocs() if lo <= t <= hi]
        assert len(ticks) >= 3, (subject, ticks)
        mantissas = {round(t / 10 ** math.floor(math.log10(t)), 6) for t in ticks}
        assert mantissas <= {1.0, 2.0, 5.0}, (subject, ticks)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def test_legends_below_the_panels_are_kept_whole(tmp_path):
    """The legend hangs below the panels: the file grows to hold it (bbox_inches
    'tight'), where a file of the figure's own size would cut it off."""
    m = plot_module()
    fig = m.plot_pool(m.documents([str(H100), str(H200_X2)]))
    width, height = fig.get_size_inches()
    m.CLI.write_png(fig, str(tmp_path / "pool.png"))
    w, h = png_size(tmp_path / "pool.png")
    assert h > height * 110 + 20, (w, h, height * 110)


def test_node_figures_of_several_systems(tmp_path):
    """hmb_plot_node.py of the 4xH200 and the 2xH200: a row of heatmaps per system and
    their host bandwidth side by side; a document without node results is named."""
    node = str(hmb.ROOT / "scripts" / "hmb_plot_node.py")
    doc = json.loads(H100.read_text())
    doc["results"] = [r for r in doc["results"] if r["module"] != "node"]
    (tmp_path / "nonode.json").write_text(json.dumps(doc))
    p = subprocess.run([hmb.PY, node, "-o", tmp_path / "out", hmb.ROOT / "results" /
                        "nvidia-h200-x4" / "all.json", H200_X2, tmp_path / "nonode.json"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "nonode.json: no node results" in p.stderr
    made = sorted(f.name for f in (tmp_path / "out").iterdir())
    assert made == ["node-host-aggregate.png", "node-p2p-matrix.png"]
    w, h = png_size(tmp_path / "out" / "node-p2p-matrix.png")
    assert h > w / 4, (w, h)  # two rows of heatmaps
    assert all(is_png(tmp_path / "out" / f) for f in made)


def test_node_latency_heatmap_has_each_gpus_own_latency_on_its_diagonal():
    """hmb_plot_node.py's peer latency matrix: row source, column reader, each cell the
    chase's ns per load, and the diagonal each GPU reading its own memory
    (device/latency), from the 4xH100's node document."""
    spec = importlib.util.spec_from_file_location("hmb_plot_node",
                                                  hmb.ROOT / "scripts" / "hmb_plot_node.py")
    node = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(node)
    doc = json.loads((hmb.ROOT / "results" / "nvidia-h100-x4" / "together" /
                      "node.json").read_text())
    results = node.node_ok(doc)
    n = node.gpu_count(results)
    m = node.matrix(results, "p2p/latency", "ns", n)
    own = {r["params"]["gpu"]: r["metrics"]["ns_per_load"]["value"] for r in results
           if r["case"] == "device/latency"}
    peer = {(r["params"]["src"], r["params"]["dst"]): r["metrics"]["ns_per_load"]["value"]
            for r in results if r["case"] == "p2p/latency"}
    assert n == 4 and sorted(own) == [0, 1, 2, 3] and len(peer) == 12, (n, own, peer)
    for i in range(n):
        for j in range(n):
            assert m[i][j] == (own[i] if i == j else peer[(i, j)]), (i, j, m)


def test_pool_lines_join_their_points_by_size():
    """plot_pool of a document whose pool records come in no order of size: each line
    joins its points from the smallest allocation to the largest."""
    m = plot_module()
    doc = json.loads(H100.read_text())
    doc["results"] = list(reversed(doc["results"]))
    docs = m.documents([str(H100)])
    docs[0]["results"] = doc["results"]
    fig = m.plot_pool(docs)
    lines = [line for ax in fig.axes for line in ax.get_lines() if len(line.get_xdata()) > 1]
    assert len(lines) >= 2, lines
    for line in lines:
        xs = list(line.get_xdata())
        assert xs == sorted(xs), xs


def test_node_total_marker_lies_across_its_own_bar():
    """hmb_plot_node.py's host aggregate: the black mark of the measured total
    (host/*/all) spans exactly the bar of all GPUs at once, not the bar beside it."""
    spec = importlib.util.spec_from_file_location("hmb_plot_node_marks",
                                                  hmb.ROOT / "scripts" / "hmb_plot_node.py")
    node = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(node)
    node.need_matplotlib()
    figs = []
    node.CLI.write_png = lambda fig, path: figs.append(fig)
    doc = json.loads(H200_X2.read_text())
    results = node.node_ok(doc)
    assert node.plot_aggregate([("2xH200", results)], "unused.png")
    ax = figs[0].axes[0]
    bars = {(round(p.get_x(), 9), round(p.get_x() + p.get_width(), 9))
            for p in ax.patches}
    # the stacks: each GPU's figure, alone and with all at once, drawn once
    parts = [r["gbps_median"] for r in results for d in node.DIRECTIONS
             if r["case"] in (f"host/{d}/alone", f"host/{d}/in-all") and "gpu" in r["params"]
             and r["params"].get("placement", "local") == "local"]
    assert len(parts) >= 8 and \
        math.isclose(sum(p.get_height() for p in ax.patches), sum(parts), rel_tol=1e-9)
    marks = [seg for c in ax.collections for seg in c.get_segments()]
    assert marks, "no total drawn"
    for seg in marks:
        (x0, y0), (x1, y1) = seg
        assert y0 == y1 and (round(x0, 9), round(x1, 9)) in bars, (seg, sorted(bars))
    node.plt.close(figs[0])
