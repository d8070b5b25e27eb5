"""test_cli.py - the command line without a GPU: bad input is one line on
stderr naming the problem and exit 2; help, list, --version; --dry-run plans
every module of `all` and writes a valid document without opening a GPU; where no
NVIDIA driver is loaded, it says so rather than pass on CUDA's own words."""
import ctypes
import json
import os
import re

import pytest

import hmb
import hmbdoc

USAGE_ERRORS = [
    ("unknown command", "unknown command 'frobnicate'", ["frobnicate"]),
    ("mistyped command", "unknown command 'memcyp'; nearest: memcpy (", ["memcyp"]),
    ("mistyped option", "unknown option '--sizs'; nearest: --sizes (", ["--sizs", "4K", "memcpy"]),
    ("option twice, two values", "--reps given twice, as '3' and as '4': give it once",
     ["--reps", "3", "memcpy", "-r4"]),
    ("module option twice, two values", "--streams given twice, as '2' and as '4'",
     ["overlap", "--streams", "2", "--streams=4"]),
    ("unknown option", "unknown option '--frob'", ["--frob", "memcpy"]),
    ("option without its value", "needs a value", ["memcpy", "--sizes"]),
    ("zero size", "greater than zero", ["--sizes", "0", "memcpy"]),
    ("malformed size", "invalid size '12Q'", ["--sizes", "4K,12Q", "memcpy"]),
    ("backwards range", "end is below start", ["--sizes", "1G:4K:x2", "memcpy"]),
    ("size not a multiple of 4 bytes", "multiple of 4", ["--sizes", "4097", "memcpy"]),
    ("65 sizes", "--sizes: too many sizes: at most 64",
     ["--sizes", ",".join(str(4 * k) for k in range(1, 66)), "memcpy"]),
    ("--reps 0", "--reps: '0'", ["--reps", "0", "memcpy"]),
    ("--warmup not a number", "--warmup: 'x'", ["--warmup", "x", "memcpy"]),
    ("negative device", "--device: '-1'", ["--device", "-1", "info"]),
    ("unknown format", "unknown format 'xml'", ["--format", "xml", "info"]),
    ("bad --oversubscribe", "oversubscribe", ["--oversubscribe", "-2", "all"]),
    ("bad --peak-gbps", "--peak-gbps: '0'", ["--peak-gbps", "0", "memcpy"]),
    ("bad --devices", "--devices: '0,x'", ["--devices", "0,x", "memcpy"]),
    ("--devices with info", "--devices does not go with info", ["--devices", "0", "info"]),
    ("bad --together", "--together: unknown value 'some': use all, host or none",
     ["--devices", "all", "--together", "some", "all"]),
    ("--together without --devices", "--together says which GPUs of --devices run at once",
     ["--together", "all", "all"]),
    ("--together with info", "--together does not go with info", ["--together", "all", "info"]),
    ("empty --case", "--case: empty pattern", ["--case", "", "memcpy"]),
    ("unwritable --output", "cannot write --output /nonexistent-dir/out.json",
     ["--output", "/nonexistent-dir/out.json", "memcpy"]),
    ("stray argument", "unexpected argument 'extra'", ["memcpy", "extra"]),
    ("help for an unknown command", "help: unknown command 'nope'", ["help", "nope"]),
    ("--threshold without compare", "--threshold goes with compare",
     ["--threshold", "5", "memcpy"]),
    ("--runs 0", "--runs: '0' must be a whole number from 1 to 100", ["--runs", "0", "all"]),
    ("--runs with --no-isolation", "--runs runs each module in processes of its own",
     ["--runs", "3", "--no-isolation", "all"]),
    ("--runs with compare", "--runs does not go with compare", ["--runs", "3", "compare", "a", "b"]),
    ("--runs with info", "--runs does not go with info", ["--runs", "2", "info"]),
]


def test_sixty_four_sizes_are_taken():
    """--sizes takes up to 64 sizes (a 65th is refused: USAGE_ERRORS); the dry run's
    document holds all 64."""
    sizes = [4 * k for k in range(1, 65)]
    p = hmb.run("--dry-run", "--format", "json", "--sizes", ",".join(map(str, sizes)), "memcpy")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["settings"]["sizes"] == sizes


def test_dry_run_plan_lists_every_module_option_given():
    """The dry run's plan says each module option given, in order, one line each."""
    p = hmb.run("--dry-run", "node", "--copy-size", "4M", "--chase-loads", "100")
    assert p.returncode == 0, p.stderr
    assert [line.strip() for line in p.stdout.splitlines() if "option --" in line] == \
        ["option --copy-size 4M", "option --chase-loads 100"], p.stdout


def assert_usage_error(args, pattern):
    p = hmb.run(*args)
    assert p.returncode == 2, f"exit {p.returncode}, expected 2; stderr: {p.stderr}"
    assert re.search(re.escape(pattern), p.stderr, re.I), f"stderr does not say {pattern!r}: {p.stderr}"
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}: {p.stderr}"


@pytest.mark.parametrize("name,pattern,args", USAGE_ERRORS, ids=[u[0] for u in USAGE_ERRORS])
def test_usage_error(name, pattern, args):
    assert_usage_error(args, pattern)


@pytest.mark.parametrize("value,pattern", [
    ("op", "expected KIND:N"), ("free:1", "expected KIND:N"), ("op:", "'' is not a count"),
    ("op:-3", "'-3' is not a count"), ("alloc:1e3", "'1e3' is not a count")])
def test_bad_fault_hook_is_a_usage_error_before_any_gpu_is_opened(value, pattern):
    """HMB_FAULT (src/engine/fault.h), the test hook that fails one step on purpose."""
    p = hmb.run("memcpy", env=dict(os.environ, HMB_FAULT=value))
    assert p.returncode == 2, p.stderr
    assert f"HMB_FAULT: {pattern}" in p.stderr and p.stderr.count("\n") == 1, p.stderr


def test_no_command_prints_one_usage_line_on_stderr_and_exits_2():
    p = hmb.run()
    assert p.returncode == 2
    assert p.stderr.count("\n") == 1, p.stderr
    assert "no command given; usage: hipmembench" in p.stderr, p.stderr


@pytest.mark.parametrize("module", hmb.module_names())
def test_help_for_each_module(module):
    p = hmb.run("help", module)
    assert p.returncode == 0
    assert re.search(rf"usage: hipmembench .* {re.escape(module)}", p.stdout), p.stdout


def test_list_and_version():
    assert re.search(r"^memcpy ", hmb.run("list").stdout, re.M)
    assert hmb.run("--version").stdout.startswith("hipmembench ")
    assert len(hmb.module_names()) >= 6


# memcpy's on-request families (bench/memcpy/memcpy_variants.c, memcpy_untouched.c,
# memcpy_hugepages.c): one name of each.
MEMCPY_ON_REQUEST = ["h2d/pinned/async-default-kind", "d2d/device/async-default-kind",
                     "h2h/pinned/sync", "h2h/pageable/memcpy", "h2d/untouched-pageable/sync",
                     "d2h/untouched-pageable/async", "h2d/thp/async",
                     "d2h/hugetlb-2M-registered/async", "hugetlb-1G/unsupported"]


def test_list_cases_marks_memcpys_new_families_on_request():
    rows = [line.split() for line in hmb.run("list", "--cases").stdout.splitlines()
            if line.startswith("memcpy ")]
    marked = {r[-1]: len(r) == 3 and r[1] == "on-request" for r in rows}
    for name in MEMCPY_ON_REQUEST:
        assert marked.get(name) is True, f"{name}: {marked.get(name)}"
    for name in ("h2d/pageable/async", "d2h/pinned/sync", "d2d/device/async"):
        assert marked.get(name) is False, f"{name} is on request"


def test_dry_run_case_lists_memcpys_on_request_cases():
    p = hmb.run("--dry-run", "--case", "*/untouched-pageable/*", "--case", "hugetlb-1G/*",
                "memcpy")
    assert p.returncode == 0, p.stderr
    said = p.stdout + p.stderr
    listed = re.search(r"cases: (.*) \((\d+) of \d+\)", said)
    assert listed, said
    assert sorted(listed.group(1).split(", ")) == sorted(
        [f"{d}/untouched-pageable/{a}" for d in ("h2d", "d2h") for a in ("async", "sync")] +
        ["hugetlb-1G/unsupported", "hugetlb-1G/skipped"]), said


MANAGED_ON_REQUEST = ["advise-accessed-by-host/first-kernel", "advise-combined/first-kernel",
                      "versus/explicit", "versus/explicit-pinned", "versus/managed-on-demand",
                      "versus/managed-prefetch", "versus/managed-read-mostly",
                      "versus/managed-preferred-device", "versus/managed-accessed-by-device",
                      "on-demand/first-kernel/shape/16B-per-thread",
                      "touch/gpu-first/shape/16B-per-thread", "touch/gpu-first/shape/4B-per-thread",
                      "touch/gpu-first/shape/16B-grid-stride", "touch/gpu-first/shape/4B-grid-stride",
                      "touch/gpu-first/shape/16B-pages-first"]


def test_managed_new_cases_listed_on_request_or_not():
    """The managed module's costly families run only when --case asks
    (list --cases marks them); the attach trio is cheap and runs in every run."""
    rows = [line.split() for line in hmb.run("list", "--cases").stdout.splitlines()]
    managed = {r[-1]: len(r) == 3 and r[1] == "on-request" for r in rows if r[0] == "managed"}
    for name in MANAGED_ON_REQUEST:
        assert managed.get(name) is True, f"{name}: {managed.get(name)}"
    for name in ("attach/stream-single", "attach/global", "attach/host",
                 "on-demand/first-kernel", "advise-accessed-by-device/first-kernel"):
        assert managed.get(name) is False, f"{name}: {managed.get(name)}"
    p = hmb.run("--dry-run", "--case", "versus/*", "managed")
    assert p.returncode == 0, p.stderr
    assert "(7 of " in p.stdout and "versus/explicit-pinned" in p.stdout, p.stdout


def test_dry_run_plans_all_and_writes_a_document_without_a_gpu(tmp_path):
    out = tmp_path / "plan.json"
    p = hmb.run("--dry-run", "--quick", "--output", out, "all")
    assert p.returncode == 0, p.stderr
    said = p.stdout + p.stderr
    assert said.count("would run") == len(hmb.module_names()), said
    doc = hmbdoc.assert_valid(out, complete=True)
    assert doc["settings"]["dry_run"] is True
    assert doc["device"] is None and doc["results"] == []
    assert len(doc["modules"]) > 1
    assert hmb.temp_files(tmp_path) == []


PLAN_DEFAULTS = ("plan (dry run, no GPU opened): device 0, sizes module defaults, "
                 "reps module defaults, warmup module defaults")


@pytest.mark.parametrize("command,runs", [("memcpy", 1), ("all", 2)])
def test_dry_run_shows_every_default(tmp_path, command, runs):
    """With no option, the plan line and the document's settings say the defaults:
    device 0, the modules' own sizes, reps and warm-up (null: no count forced on
    them, 0 included), not quick, one run a module (all: two)."""
    out = tmp_path / "plan.json"
    p = hmb.run("--dry-run", "--output", out, command)
    assert p.returncode == 0, p.stderr
    first = p.stdout.splitlines()[0]
    assert first.startswith(PLAN_DEFAULTS) and "quick" not in first, first
    assert hmbdoc.assert_valid(out, complete=True)["settings"] == {
        "device": 0, "sizes": None, "reps": None, "warmup": None, "runs": runs, "quick": False,
        "dry_run": True, "oversubscribe": None, "module_options": {}}


def test_dry_run_shows_each_option_where_it_belongs(tmp_path):
    """Each option in its own setting: --quick in quick (and nothing else), --warmup
    and --reps as counts (0 a count of its own), sizes in powers of two (K, M and G,
    with or without B or iB), each on the plan line as given."""
    out = tmp_path / "plan.json"
    p = hmb.run("--dry-run", "--quick", "--output", out, "memcpy")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == PLAN_DEFAULTS + ", quick", p.stdout
    settings = hmbdoc.assert_valid(out)["settings"]
    assert (settings["quick"], settings["dry_run"], settings["warmup"], settings["reps"],
            settings["runs"]) == (True, True, None, None, 1), settings
    p = hmb.run("--dry-run", "--warmup", "0", "--reps", "7", "--sizes", "4K,3MiB,1GB,12",
                "--device", "2", "--output", out, "memcpy")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == ("plan (dry run, no GPU opened): device 2, sizes "
                                        "4K,3M,1G,12, reps 7, warmup 0"), p.stdout
    settings = hmbdoc.assert_valid(out)["settings"]
    assert (settings["sizes"], settings["reps"], settings["warmup"], settings["quick"],
            settings["device"]) == ([4096, 3 << 20, 1 << 30, 12], 7, 0, False, 2), settings


def test_dry_run_with_runs_says_so_and_records_it(tmp_path):
    out = tmp_path / "plan.json"
    p = hmb.run("--dry-run", "--runs", "3", "--output", out, "all")
    assert p.returncode == 0, p.stderr
    assert "each module 3 times, each in a process of its own" in p.stdout.splitlines()[0]
    assert hmbdoc.assert_valid(out)["settings"]["runs"] == 3
    one = tmp_path / "one.json"
    assert hmb.run("--dry-run", "--output", one, "memcpy").returncode == 0
    assert hmbdoc.assert_valid(one)["settings"]["runs"] == 1


@pytest.mark.parametrize("args,runs", [([], 2), (["--quick"], 1), (["--runs", "1"], 1),
                                       (["--no-isolation"], 1), (["--runs", "4"], 4)])
def test_all_runs_each_module_twice_unless_told(tmp_path, args, runs):
    """all without --runs: two processes a module, three for the modules that ask for
    more (xnack, pool, vmm, node: short runs whose figures move by process); one with
    --quick or --no-isolation; --runs N: N for every module; a module alone: one."""
    out = tmp_path / "plan.json"
    p = hmb.run("--dry-run", *args, "--output", out, "all")
    assert p.returncode == 0, p.stderr
    said = p.stdout.splitlines()[0]
    assert (f"each module {runs} times" in said) == (runs > 1), said
    assert ("or more (below)" in said) == (args == []), said
    more = {line.split()[2] for line in p.stdout.splitlines()
            if line.startswith("  would run") and " 3 times: " in line}
    assert more == ({"xnack", "pool", "vmm", "node"} if args == [] else set()), p.stdout
    assert hmbdoc.assert_valid(out)["settings"]["runs"] == runs


def test_dry_run_all_shows_the_runs_of_each_module_with_their_environment():
    """all on AMD runs xnack and managed once per XNACK mode where the GPU selects it
    (known here only from the KFD topology: no module has run), once with the user's
    HSA_XNACK, and memcpy once (HIP_HOST_COHERENT changes no kind it measures); the
    dry run shows each run with its environment. On NVIDIA nothing changes."""
    amd = hmb.run("--version").stdout.rstrip().endswith(", amd)")
    plain = hmb.run("--dry-run", "all")
    mine = hmb.run("--dry-run", "all", env={**os.environ, "HSA_XNACK": "1"})
    shared = hmb.run("--dry-run", "--no-isolation", "all")
    assert plain.returncode == mine.returncode == shared.returncode == 0, plain.stderr
    assert "    note:" not in shared.stdout and "    run " not in shared.stdout
    if not amd:
        assert "    note:" not in plain.stdout and "    run " not in plain.stdout, plain.stdout
        assert "    note:" not in mine.stdout and "    run " not in mine.stdout, mine.stdout
        return
    assert "HIP_HOST_COHERENT changes none of the kinds memcpy measures" in plain.stdout
    for module in ("managed", "xnack"):
        block = plain.stdout.split(f"would run {module} ")[1].split("would run")[0]
        both = "run 1 of 2: HSA_XNACK=1" in block and "run 2 of 2: HSA_XNACK=0" in block
        assert both or "note:" in block or "    run " not in block, block
        block = mine.stdout.split(f"would run {module} ")[1].split("would run")[0]
        assert "run 2 of 2" not in block, block


def nvidia_driver_lacks():
    """What of the NVIDIA driver is missing here: its device node, its library."""
    lacks = [] if os.path.exists("/dev/nvidiactl") else ["no /dev/nvidiactl"]
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        lacks.append("no libcuda.so.1")
    return lacks


def test_no_nvidia_driver_is_named():
    if not hmb.run("--version").stdout.rstrip().endswith(", nvidia)"):
        pytest.skip("not an NVIDIA build")
    lacks = nvidia_driver_lacks()
    if not lacks:
        pytest.skip("an NVIDIA driver is loaded")
    r = hmb.run("info")
    assert r.returncode == 3
    assert r.stderr == ("hipmembench: no GPU found: no NVIDIA driver is loaded on this machine "
                        f"({', '.join(lacks)})\n")


@pytest.mark.parametrize("args,together", [(["--devices", "all"], "all"),
                                           (["--devices", "0,1", "--together", "host"], "host"),
                                           (["--devices", "1", "--together", "none"], "none")])
def test_dry_run_says_which_gpus_run_together(tmp_path, args, together):
    """--together (with --devices): the plan line and settings.together say it; without
    --devices neither says anything of it."""
    out = tmp_path / "plan.json"
    p = hmb.run("--dry-run", *args, "--output", out, "all")
    assert p.returncode == 0, p.stderr
    assert f"GPUs {args[1]} (--together {together})" in p.stdout.splitlines()[0], p.stdout
    settings = hmbdoc.assert_valid(out)["settings"]
    assert (settings["devices"], settings["together"]) == (args[1], together), settings
    p = hmb.run("--dry-run", "--output", out, "all")
    assert "--together" not in p.stdout and "together" not in hmbdoc.assert_valid(out)["settings"]
