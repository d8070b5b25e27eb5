"""test_fleet.py - scripts/hmb_fleet.py on documents made from the committed
results: 16 H100 nodes, one GPU at half link bandwidth (link trained x8), and 8
two-GPU H200 nodes, one GPU throttled; the summary names the GPU, its node and the
reason, and nothing else; bad input is one line and exit 2."""
import copy
import json
import os
import random
import signal
import subprocess

import pytest

import hmb

# One process runs the file under pytest-xdist (make test TEST_JOBS=N): its
# module-scoped fixture is made once.
pytestmark = pytest.mark.xdist_group("test_fleet")

FLEET = str(hmb.ROOT / "scripts" / "hmb_fleet.py")
H100 = hmb.ROOT / "results" / "nvidia-h100-pcie" / "all.json"
H200 = hmb.ROOT / "results" / "nvidia-h200-x2" / "all.json"


def fleet(*args):
    return subprocess.run([hmb.PY, FLEET, *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def scale(r, factor):
    """r as if its operation took factor times as long."""
    r["samples_s"] = [x * factor for x in r["samples_s"]]
    r["stats_s"] = {k: v * factor if k not in ("count",) else v for k, v in r["stats_s"].items()}
    for k in ("gbps_median", "gbps_best"):
        if r.get(k):
            r[k] /= factor
    if r.get("us_per_op_median"):
        r["us_per_op_median"] *= factor


def nodes(src, n, tmp_path, seed=2):
    """n documents of src, each from its own node, each figure within 3% of src's."""
    base = json.loads(src.read_text())
    rng = random.Random(seed)
    docs = []
    for i in range(n):
        d = copy.deepcopy(base)
        d["host"]["hostname"] = f"node{i + 1:02d}"
        for r in d["results"]:
            if r.get("samples_s"):
                scale(r, rng.uniform(0.97, 1.03))
        docs.append(d)
    return docs


def write(docs, folder):
    folder.mkdir()
    for d in docs:
        (folder / f"{d['host']['hostname']}.json").write_text(json.dumps(d))


@pytest.fixture(scope="module")
def h100_fleet(tmp_path_factory):
    folder = tmp_path_factory.mktemp("h100") / "fleet"
    docs = nodes(H100, 16, folder.parent)
    slow = docs[6]  # node07: its GPU's link trained at x8, half the bandwidth of x16
    slow["device"]["pcie_link"].update(width=8, peak_gbps_per_direction=31.5)
    for s in slow["telemetry"]["samples"]:
        s["pcie_width"] = 8
    for r in slow["results"]:
        if r["module"] == "memcpy" and r["case"].startswith(("h2d/", "d2h/")) and \
                r["params"]["size"] >= 1 << 20:  # copies long enough to be bound by the link
            scale(r, 2.0)
    write(docs, folder)
    return folder


def test_half_link_gpu_named_with_node_and_link_width(h100_fleet):
    p = fleet(h100_fleet)
    assert p.returncode == 1, p.stdout + p.stderr
    summary = json.loads((h100_fleet / "fleet-summary.json").read_text())
    assert summary["documents"] == 16 and summary["gpus"] == 16
    fig = {f["figure"]: f for f in summary["figures"]}
    h2d = fig["h2d pinned GB/s"]
    assert h2d["gpus"] == 16 and [(o["host"], o["gpu"]) for o in h2d["outliers"]] == [("node07", 0)]
    o = h2d["outliers"][0]
    assert o["pci_bus_id"] == json.loads(H100.read_text())["device"]["pci_bus_id"]
    assert 45 < o["of_median_pct"] < 55
    assert o["likely_reasons"][0] == "PCIe link width x8 of x16"
    assert h2d["lowest"] == o["value"] and h2d["spread_pct"] > 40
    # only what the slow link moves is odd; nothing else is
    odd = {(f["figure"], x["host"]) for f in summary["figures"] for x in f["outliers"]}
    assert odd == {(n, "node07") for n in ("h2d pinned GB/s", "d2h pinned GB/s",
                                           "h2d pageable GB/s", "d2h pageable GB/s")}
    assert "node07 gpu 0" in p.stdout and "PCIe link width x8 of x16" in p.stdout
    assert not hmb.temp_files(h100_fleet)


def test_throttled_gpu_of_a_two_gpu_node(tmp_path):
    docs = nodes(H200, 8, tmp_path)
    slow = docs[2]  # node03, GPU 1: throttled, its device copies at 80%
    runs = slow["module_runs"]
    samples = slow["telemetry"]["samples"]
    i = 0
    for run in runs:  # the samples of GPU 1's runs, before and after each, in order
        while samples[i]["module"] != run["module"]:
            i += 1
        for s in samples[i:i + 2]:
            if run["module"] != "node" and run["order"] % 2 == 0:
                s.update(throttled=True, throttle_reasons="hw_slowdown")
        i += 2
    for r in slow["results"]:
        if r["module"] == "memcpy" and r["case"].startswith("d2d/") and r["params"]["device"] == 1:
            scale(r, 1.25)
    write(docs, tmp_path / "fleet")
    p = fleet(tmp_path / "fleet", "--output", tmp_path / "s.json")
    assert p.returncode == 1, p.stdout + p.stderr
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["gpus"] == 16
    odd = [(f["figure"], x["host"], x["gpu"], x["pci_bus_id"], x["likely_reasons"][0])
           for f in summary["figures"] for x in f["outliers"]]
    gpu1 = next(d["pci_bus_id"] for d in slow["devices"] if d["ordinal"] == 1)
    assert gpu1 != slow["device"]["pci_bus_id"]  # GPU 1 named by its own bus id, not GPU 0's
    assert odd == [("d2d GB/s", "node03", 1, gpu1, "throttled: hw_slowdown after memcpy")], odd


def test_bad_input_one_line_exit_2(tmp_path):
    (tmp_path / "x.json").write_text('{"name": "x"}')
    for args in ([tmp_path], [tmp_path / "missing"], [tmp_path, "--threshold", "120"]):
        p = fleet(*args)
        assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
        assert "Traceback" not in p.stderr


def test_gpu_with_host_memory_on_the_far_numa_node(tmp_path):
    docs = nodes(H100, 8, tmp_path)
    for d in docs:
        d["placement"] = {"gpu_numa_node": 0, "gpu_local_cpus": "0-15", "cpus_allowed": "0-15",
                          "cpus_numa_nodes": [0], "mems_allowed": [0], "memory_policy": "bind",
                          "memory_policy_nodes": [0], "page_node": 0}
        d["host"]["numa_balancing"] = 0
    far = docs[4]  # node05: memory bound to node 1, NUMA balancing on
    far["placement"].update(mems_allowed=[1], memory_policy_nodes=[1], page_node=1)
    far["host"]["numa_balancing"] = 1
    for r in far["results"]:
        if r["case"] == "h2d/pageable/async" and r["params"]["size"] >= 1 << 20:
            scale(r, 1.3)
    write(docs, tmp_path / "fleet")
    p = fleet(tmp_path / "fleet")
    summary = json.loads((tmp_path / "fleet" / "fleet-summary.json").read_text())
    odd = [(f["figure"], x["host"], x["likely_reasons"]) for f in summary["figures"] for x in f["outliers"]]
    assert p.returncode == 1 and odd == [("h2d pageable GB/s", "node05", [
        "NUMA balancing on (kernel.numa_balancing)",
        "host memory on NUMA node 1, the GPU on node 0"])], odd


def test_each_link_reason_names_only_a_link_below_its_maximum(tmp_path):
    """Three slow GPUs among eight: node03's link trained at gen4 of gen5, node05's
    at x8 with its maximum unknown (the others have x16), node07's at its maximum
    (x16 of x16, gen5 of gen5): each named with its own reason, and node07 with no
    link reason at all, the GPUs at their maximum with none either."""
    docs = nodes(H100, 8, tmp_path)
    link = {"node03": dict(generation=4), "node05": dict(width=8, max_width=None),
            "node07": {}}
    for d in docs:
        host = d["host"]["hostname"]
        if host not in link:
            continue
        d["device"]["pcie_link"].update(link[host])
        for s in d["telemetry"]["samples"]:
            for k in ("generation", "width", "max_width"):
                s[f"pcie_{k}"] = d["device"]["pcie_link"][k]
        for r in d["results"]:
            if r["module"] == "memcpy" and r["case"].startswith(("h2d/pinned", "d2h/pinned")) and \
                    r["params"]["size"] >= 1 << 20:
                scale(r, 2.0)
    write(docs, tmp_path / "fleet")
    p = fleet(tmp_path / "fleet")
    assert p.returncode == 1, p.stdout + p.stderr
    summary = json.loads((tmp_path / "fleet" / "fleet-summary.json").read_text())
    for name in ("h2d pinned GB/s", "d2h pinned GB/s"):
        fig = next(f for f in summary["figures"] if f["figure"] == name)
        assert {o["host"]: o["likely_reasons"] for o in fig["outliers"]} == {
            "node03": ["PCIe link speed gen4 of gen5"],
            "node05": ["PCIe link width x8 where the other GPUs have x16"],
            "node07": ["nothing in the metadata: look at the figures themselves"]}, fig["outliers"]
    reasons = [r for f in summary["figures"] for o in f["outliers"] for r in o["likely_reasons"]]
    assert not [r for r in reasons if "x16 of x16" in r or "gen5 of gen5" in r], reasons


def test_a_link_that_fell_during_the_run_is_named_with_the_module_after_it(tmp_path):
    """node04's link trained at x16 of x16 when the run began, so its metadata
    reads full width; the telemetry taken after the overlap module (and only
    there) reads x8 of x16. Its slow copies are named with that: the width, the
    maximum and the module after which it was seen, once each."""
    docs = nodes(H100, 8, tmp_path)
    slow = docs[3]
    samples = slow["telemetry"]["samples"]
    assert slow["device"]["pcie_link"]["width"] == 16 and \
        {s["module"] for s in samples} >= {"overlap", "memcpy"}
    for s in samples:
        if s["module"] == "overlap":
            s["pcie_width"] = 8
    for r in slow["results"]:
        if r["module"] == "memcpy" and r["case"].startswith(("h2d/pinned", "d2h/pinned")) and \
                r["params"]["size"] >= 1 << 20:
            scale(r, 2.0)
    write(docs, tmp_path / "fleet")
    p = fleet(tmp_path / "fleet")
    assert p.returncode == 1, p.stdout + p.stderr
    summary = json.loads((tmp_path / "fleet" / "fleet-summary.json").read_text())
    for name in ("h2d pinned GB/s", "d2h pinned GB/s"):
        fig = next(f for f in summary["figures"] if f["figure"] == name)
        assert {o["host"]: o["likely_reasons"] for o in fig["outliers"]} == {
            "node04": ["PCIe link x8 of x16 after overlap"]}, fig["outliers"]
    assert "node04 gpu 0" in p.stdout and "PCIe link x8 of x16 after overlap" in p.stdout


# Bad input: never a traceback or a wait, under `python -X dev -W error`.
DEV = [hmb.PY, "-X", "dev", "-W", "error"]


def dev_fleet(*args, timeout=60):
    return subprocess.run([*DEV, FLEET, *map(str, args)], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def good_and(tmp_path, name, data):
    """A folder of one good document and name holding data."""
    folder = tmp_path / "fleet"
    folder.mkdir()
    (folder / "a-good.json").write_text(H100.read_text())
    if isinstance(data, dict):
        data = json.dumps(data).encode()
    (folder / name).write_bytes(data)
    return folder


def edited(edit):
    doc = json.loads(H100.read_text())
    edit(doc)
    return doc


BAD = [
    ("not-utf8", b'{"tool": {"name": "hipmembench"}, "host": {"hostname": "\xe9"}}', "not UTF-8"),
    ("deep-nesting", b"[" * 100000 + b"]" * 100000, "not readable JSON"),
    ("tool-string", {"tool": "hipmembench"}, "not a hipmembench document"),
    ("result-number", edited(lambda d: d["results"].insert(0, 7)), "results is not a list of objects"),
    ("params-string", edited(lambda d: d["results"][0].update(params="big")),
     "results[0].params is not an object"),
    ("device-string", edited(lambda d: d.update(device="gpu")), "device is not an object"),
    ("size-string", edited(lambda d: d["results"][0]["params"].update(size="64M")),
     "results[0].params.size is not a number"),
    ("module-list", edited(lambda d: d["results"][0].update(module=["memcpy"])),
     "results[0].module is not a string"),
    ("ordinal-string", edited(lambda d: d.update(devices=[{"ordinal": "0"}])),
     "devices[0].ordinal is not a whole number"),
    ("bus-id-number", edited(lambda d: d["device"].update(pci_bus_id=66)),
     "device.pci_bus_id is not a string"),
    ("samples-strings", edited(lambda d: d["telemetry"].update(samples=["x"])),
     "telemetry.samples is not a list of objects"),
]


@pytest.mark.parametrize("name,data,message", BAD, ids=[b[0] for b in BAD])
def test_unreadable_document_is_left_out_naming_why(tmp_path, name, data, message):
    folder = good_and(tmp_path, "b-bad.json", data)
    p = dev_fleet(folder)
    assert "Traceback" not in p.stderr and p.returncode == 1, (p.returncode, p.stderr)
    summary = json.loads((folder / "fleet-summary.json").read_text())
    assert summary["documents"] == 1
    assert summary["left_out"] == [{"file": str(folder / "b-bad.json"), "why": summary["left_out"][0]["why"]}]
    assert message in summary["left_out"][0]["why"], summary["left_out"]
    assert f"left out: {folder / 'b-bad.json'}: " in p.stdout


def test_fifo_is_refused_not_waited_on(tmp_path):
    folder = good_and(tmp_path, "b-bad.json", b"{}")
    os.unlink(folder / "b-bad.json")
    os.mkfifo(folder / "b-fifo.json")
    p = dev_fleet(folder, timeout=20)
    assert p.returncode == 1 and "b-fifo.json: not a regular file" in p.stdout, p.stderr
    p = dev_fleet(folder / "b-fifo.json", timeout=20)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert "b-fifo.json: not a regular file or a folder" in p.stderr


def test_bad_usage_is_one_line(tmp_path):
    p = dev_fleet("--frob")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "(see --help)" in p.stderr


def corpus_documents():
    import test_corpus
    return [c for c in test_corpus.load("docs.jsonl") if c.values[0].get("generate") != "huge"]


@pytest.mark.parametrize("case", corpus_documents())
def test_no_traceback_on_the_corpus(tmp_path, case):
    """Every malformed document of the corpus beside a good one: left out or
    summarized, never a traceback or a warning."""
    import test_corpus
    folder = good_and(tmp_path, "b-corpus.json", b"")
    test_corpus.write_doc(case, folder / "b-corpus.json")
    p = dev_fleet(folder)
    assert "Traceback" not in p.stderr and "Warning" not in p.stderr, p.stderr
    assert p.returncode in (0, 1), (p.returncode, p.stderr)
    assert not hmb.temp_files(folder)


@pytest.mark.parametrize("sig,status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_stopped_while_reading_leaves_nothing(tmp_path, sig, status):
    """Stopped while it reads a folder of many documents, it ends quietly and writes
    no summary."""
    folder = tmp_path / "fleet"
    folder.mkdir()
    text = H100.read_text()
    for i in range(400):
        (folder / f"n{i:03d}.json").write_text(text)
    err = tmp_path / "err"
    with open(err, "w") as f:
        rc = hmb.signal_when([*DEV, FLEET, folder], lambda: True, sig, settle=0.5, timeout=60,
                             stderr=f)
    assert rc == status and "Traceback" not in err.read_text(), err.read_text()
    assert not (folder / "fleet-summary.json").exists() and not hmb.temp_files(folder)


def test_character_device_is_refused_not_read(tmp_path):
    folder = good_and(tmp_path, "b-bad.json", b"{}")
    os.unlink(folder / "b-bad.json")
    os.symlink("/dev/zero", folder / "b-zero.json")
    p = dev_fleet(folder, timeout=20)
    assert p.returncode == 1 and "b-zero.json: not a regular file" in p.stdout, p.stderr
    p = dev_fleet("/dev/zero", timeout=20)
    assert p.returncode == 2 and "/dev/zero: not a regular file or a folder" in p.stderr


def test_closed_stdout_ends_quietly(tmp_path):
    folder = good_and(tmp_path, "b.json", H100.read_bytes())
    proc = subprocess.Popen([*DEV, FLEET, str(folder), "--output", "-"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # as `| head -0` does
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1 and "Traceback" not in err, err


def figures_doc(hostname, gpus):
    """The H100 document of one node reduced to d2d and pool figures: gpus maps a
    device number (None: a result that names no device) to (d2d GB/s, pool us)."""
    import synthetic
    results = []
    for dev, (gbps, us) in gpus.items():
        params = {"size": 1 << 20} if dev is None else {"size": 1 << 20, "device": dev}
        d2d = synthetic.record("memcpy", "d2d/device/async", params, [1e-4] * 3, nbytes=1 << 20)
        pool = synthetic.record("pool", "course/default-pool", params, [1e-4] * 3, ops=1)
        d2d["gbps_median"], pool["us_per_op_median"] = gbps, us
        results += [d2d, pool]
    return synthetic.document(H100, results, hostname=hostname)


def test_gpu_exactly_at_the_bound_is_not_an_outlier(tmp_path):
    """--threshold 50 on a lower-is-better figure: the bound is twice the median;
    a GPU exactly there (4 us, median 2 us) is not odd, one just above it is."""
    docs = [figures_doc(f"node{i}", {0: (100.0, us)}) for i, us in
            enumerate((2.0, 2.0, 2.0, 4.0, 4.5), 1)]
    write(docs, tmp_path / "fleet")
    p = fleet(tmp_path / "fleet", "--threshold", "50")
    assert p.returncode == 1, p.stdout + p.stderr
    summary = json.loads((tmp_path / "fleet" / "fleet-summary.json").read_text())
    pool = next(f for f in summary["figures"] if f["figure"] == "pool alloc+fill+free us")
    assert pool["median"] == 2.0 and pool["bound"] == 4.0
    assert [(o["host"], o["value"]) for o in pool["outliers"]] == [("node5", 4.5)], pool


def test_gpu_of_no_device_number_comes_after_the_numbered_ones(tmp_path):
    """A document whose own GPU has no ordinal and whose results name GPUs 1..5
    and none: the GPUs are taken in device order, the unnumbered one last, so
    of two outliers alike the numbered one is listed first."""
    doc = figures_doc("node1", {None: (50.0, 1.0), 1: (100.0, 1.0), 2: (100.0, 1.0),
                                3: (100.0, 1.0), 4: (100.0, 1.0), 5: (50.0, 1.0)})
    del doc["device"]["ordinal"]
    write([doc], tmp_path / "fleet")
    p = fleet(tmp_path / "fleet")
    assert p.returncode == 1, p.stdout + p.stderr
    summary = json.loads((tmp_path / "fleet" / "fleet-summary.json").read_text())
    d2d = next(f for f in summary["figures"] if f["figure"] == "d2d GB/s")
    assert summary["gpus"] == 6 and d2d["gpus"] == 6
    assert [o["gpu"] for o in d2d["outliers"]] == [5, None], d2d["outliers"]
