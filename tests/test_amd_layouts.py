"""test_amd_layouts.py - tests/check_amd_layouts.sh: the AMD telemetry's layout
table against the real rocm_smi.h / amdsmi.h under each include root of
HMB_AMD_INCLUDE_ROOTS (colon-separated; default /usr/include, skipped where no
header is installed), and that the check fails where a header's layout drifts
from the table or its version is not in it (a copy of the installed rocm_smi.h
that claims another version)."""
import os
import pathlib
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = REPO / "tests" / "check_amd_layouts.sh"


def has_headers(root):
    root = pathlib.Path(root)
    return (root / "rocm_smi/rocm_smi.h").is_file() or (root / "amd_smi/amdsmi.h").is_file()


ROOTS = [r for r in os.environ.get("HMB_AMD_INCLUDE_ROOTS", "/usr/include").split(":") if r]


def check(*roots):
    return subprocess.run(["sh", str(SCRIPT), *map(str, roots)], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("root", ROOTS)
def test_layout_table_matches_headers(root):
    if not has_headers(root):
        pytest.skip(f"no rocm_smi.h or amdsmi.h under {root}")
    p = check(root)
    assert p.returncode == 0 and "layout check: ok" in p.stdout, p.stdout + p.stderr
    assert "MISMATCH" not in p.stdout


def fake_root(tmp_path, version):
    """The installed rocm_smi headers, with rocm_smi64Config.h saying `version`."""
    src = pathlib.Path("/usr/include/rocm_smi")
    if not (src / "rocm_smi.h").is_file() or not (src / "rocm_smi64Config.h").is_file():
        pytest.skip("no rocm_smi.h installed (librocm-smi-dev)")
    root = tmp_path / "include"
    shutil.copytree(src, root / "rocm_smi")
    if (pathlib.Path("/usr/include/libdrm")).is_dir():
        shutil.copytree("/usr/include/libdrm", root / "libdrm")
    major, minor, patch = version.split(".")
    cfg = root / "rocm_smi/rocm_smi64Config.h"
    lines = []
    for line in cfg.read_text().splitlines():
        for name, value in (("MAJOR", major), ("MINOR", minor), ("PATCH", patch)):
            if line.startswith(f"#define rocm_smi_VERSION_{name} "):
                line = f"#define rocm_smi_VERSION_{name} {value}"
        lines.append(line)
    cfg.write_text("\n".join(lines) + "\n")
    return root, (src / "rocm_smi.h").read_text()


def test_layout_check_fails_on_drift(tmp_path):
    root, header = fake_root(tmp_path, "7.6.0")
    if "has_deep_sleep" in header:
        pytest.skip("the installed rocm_smi.h already has the 6.x layout")
    # a 5.x header whose version selects the 6.x layout: the table does not match it
    p = check(root)
    assert p.returncode == 1 and "layout check: FAILED" in p.stdout, p.stdout + p.stderr
    assert "sizeof(rsmi_frequencies_t)" in p.stdout and "MISMATCH" in p.stdout


def test_layout_check_fails_on_unknown_version(tmp_path):
    root, _ = fake_root(tmp_path, "9.0.0")
    p = check(root)
    assert p.returncode == 1 and "no layout for this version" in p.stdout, p.stdout + p.stderr
    assert "9.0.0" in p.stdout


def test_layout_check_usage(tmp_path):
    assert check().returncode == 2
    p = check(tmp_path)
    assert p.returncode == 2 and "no rocm_smi/rocm_smi.h" in p.stderr
