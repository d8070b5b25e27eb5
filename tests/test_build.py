"""test_build.py - the build's choices, without building: which GPUs mk/gpus.sh sees
(from a fake sysfs), what mk/archs.sh asks a compiler and keeps, and what the
Makefile does with them (make -n into a temporary build folder): the user's
CFLAGS/LDFLAGS add to the project's, nvcc is chosen over hipcc without a GPU,
hipcc is given its targets when linking, and a missing cJSON, libnuma, C compiler
or GPU compiler is one line naming the packages; scripts/setup.sh --check says what to install and how,
libnuma included, and --tests does so for what the tests need.
"""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent


# What a calling `make VAR=... test` passes down: these tests choose for themselves.
MAKE_VARS = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "PLATFORM", "BUILD", "CUDA_ARCH", "OFFLOAD_ARCH",
             "NVCC", "HIPCC", "CPPFLAGS", "CFLAGS", "LDFLAGS", "LDLIBS", "NVCCFLAGS", "HIPCCFLAGS")


def run(cmd, **kw):
    env = {k: v for k, v in os.environ.items() if k not in MAKE_VARS}
    env.update(kw.pop("env", {}))
    return subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, **kw)


def make_n(tmp_path, *args, **kw):
    return run(["make", "-n", "--no-print-directory", f"BUILD={tmp_path}/build", *args], **kw)


def fake_kfd(root, versions):
    (root / "dev").mkdir(parents=True)
    (root / "dev/kfd").touch()
    for i, v in enumerate(versions):
        node = root / f"sys/class/kfd/kfd/topology/nodes/{i}"
        node.mkdir(parents=True)
        (node / "properties").write_text(f"cpu_cores_count 4\ngfx_target_version {v}\n")


def test_gpus_reads_amd_agents_and_skips_cpus(tmp_path):
    fake_kfd(tmp_path, [0, 90402, 90010, 90010])
    r = run(["sh", "mk/gpus.sh"], env={"HMB_GPUS_ROOT": str(tmp_path)})
    assert (r.stdout.strip(), r.stderr) == ("amd gfx90a gfx942", "")


def test_gpus_without_a_gpu_says_nothing(tmp_path):
    r = run(["sh", "mk/gpus.sh"], env={"HMB_GPUS_ROOT": str(tmp_path)})
    assert (r.stdout, r.stderr, r.returncode) == ("", "", 0)


def fake_compiler(path, body):
    path.write_text("#!/bin/sh\necho called >>\"$0.calls\"\n" + body)
    path.chmod(0o755)
    return path


def test_archs_asks_nvcc_once(tmp_path):
    nvcc = fake_compiler(tmp_path / "nvcc", 'printf "sm_75\\nsm_80\\nsm_90\\n"\n')
    cache = tmp_path / "cache"
    for _ in range(2):
        r = run(["sh", "mk/archs.sh", "nvidia", str(nvcc), str(cache), "80", "90", "100"])
        assert r.stdout.strip() == "80 90"
    assert (tmp_path / "nvcc.calls").read_text().count("called") == 1


def test_archs_asks_hipcc_per_target(tmp_path):
    hipcc = fake_compiler(tmp_path / "hipcc", 'case "$*" in *--offload-arch=gfx90a*) exit 0;; esac\nexit 1\n')
    r = run(["sh", "mk/archs.sh", "amd", str(hipcc), str(tmp_path / "cache"), "gfx908", "gfx90a", "gfx942"])
    assert r.stdout.strip() == "gfx90a"


def lines_of(out, word):
    return [l for l in out.splitlines() if word in l.split()]


@pytest.mark.skipif(not shutil.which("hipcc"), reason="hipcc is not installed")
def test_user_flags_add_to_the_projects(tmp_path):
    r = make_n(tmp_path, "PLATFORM=amd", "OFFLOAD_ARCH=gfx90a",
               "CFLAGS=-I/opt/cjson/include", "LDFLAGS=-Wl,-z,now", "LDLIBS=-lextra")
    assert r.returncode == 0, r.stderr
    compile_main = [l for l in r.stdout.splitlines() if "-c src/cli/main.c" in l][0].split()
    for flag in ("-Isrc", "-O2", "-I/opt/cjson/include"):
        assert flag in compile_main
    # warnings are errors only where the project builds itself (WERROR=1), not for a user
    assert ("-Werror" in compile_main) == (os.environ.get("WERROR") == "1"), compile_main
    dev = make_n(tmp_path, "PLATFORM=amd", "OFFLOAD_ARCH=gfx90a", "WERROR=1")
    assert "-Werror" in [l for l in dev.stdout.splitlines() if "-c src/cli/main.c" in l][0].split()
    link = [l for l in r.stdout.splitlines() if "-o " + f"{tmp_path}/build/hipmembench " in l + " "][0]
    for flag in ("-Wl,-z,now", "-lcjson", "-lextra", "--offload-arch=gfx90a"):
        assert flag in link.split()


def test_nvcc_is_preferred_without_a_gpu(tmp_path):
    if run(["sh", "mk/gpus.sh"]).stdout.strip():
        pytest.skip("a GPU is present: its vendor decides")
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if not (nvcc and shutil.which("hipcc")):
        pytest.skip("needs both nvcc and hipcc")
    r = make_n(tmp_path, "-p")
    assert r.returncode == 0, r.stderr
    assert "PLATFORM := nvidia" in r.stdout.splitlines()


def one_line_error(r):
    assert r.returncode == 2
    errors = [l for l in r.stderr.splitlines() if "***" in l]
    assert len(errors) == 1, r.stderr
    return errors[0]


def test_missing_cjson_names_its_packages(tmp_path):
    # A compiler that fails stands for one that cannot find cJSON.
    line = one_line_error(make_n(tmp_path, "CC=false"))
    for word in ("cJSON", "libcjson-dev", "cjson-devel", "spack install cjson"):
        assert word in line


def test_missing_libnuma_names_its_packages(tmp_path):
    # A compiler that cannot link -lnuma stands for a machine without libnuma-dev.
    cc = fake_compiler(tmp_path / "cc", 'for a in "$@"; do [ "$a" = -lnuma ] && exit 1; done\n'
                       f'exec {shutil.which("cc")} "$@"\n')
    line = one_line_error(make_n(tmp_path, f"CC={cc}"))
    for word in ("libnuma", "libnuma-dev", "numactl-devel", "spack install numactl"):
        assert word in line


def test_missing_c_compiler_names_its_packages(tmp_path):
    line = one_line_error(make_n(tmp_path, "CC=/nonexistent/cc"))
    for word in ("C or C++ compiler not found", "gcc g++", "gcc gcc-c++", "spack install gcc"):
        assert word in line


def test_missing_compiler_names_its_packages(tmp_path):
    if run(["sh", "mk/gpus.sh"]).stdout.strip():
        pytest.skip("a GPU is present")
    line = one_line_error(make_n(tmp_path, "CUDA_HOME=/nonexistent", "NVCC=/nonexistent/nvcc",
                                 "HIP_PATH=/nonexistent", "HIPCC=/nonexistent/hipcc"))
    for word in ("nvidia-cuda-toolkit", "cuda-toolkit", "Spack: cuda", "hipcc libamdhip64-dev",
                 "rocm-hip-devel", "Spack: hip"):
        assert word in line


def test_setup_check_says_what_to_install_and_how(tmp_path):
    # A PATH with the build's tools but not help2man; --check installs nothing.
    tools = ["bash", "cat", "cut", "dirname", "id", "paste", "sed", "sort", "tr", "make",
             "cc", "c++", "pkg-config"]
    for t in tools:
        if shutil.which(t) is None:
            pytest.skip(f"{t} is not installed")
        (tmp_path / t).symlink_to(shutil.which(t))
    r = run(["bash", "scripts/setup.sh", "--check"], env={"PATH": str(tmp_path)})
    assert r.returncode == 1
    assert "setup: missing help2man" in r.stderr
    assert "spack install help2man && spack load help2man" in r.stderr
    assert "module load help2man" in r.stderr
    if "debian" in pathlib.Path("/etc/os-release").read_text():
        assert "apt-get install help2man" in r.stderr


def test_setup_check_names_libnuma(tmp_path):
    # -nostdinc: the compiler finds no header, as where libnuma-dev is not installed.
    r = run(["bash", "scripts/setup.sh", "--check"], env={"CPPFLAGS": "-nostdinc"})
    if r.returncode and "C compiler" in r.stderr:
        pytest.skip("no C compiler here")
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert "libnuma" in lines[0].split("missing ", 1)[1].split(". ")[0].split(", ")
    for tool, words in (("apt-get install", "libnuma-dev"), ("dnf install", "numactl-devel"),
                        ("spack install", "numactl")):
        assert any(tool in l and words in l.split() for l in lines), (tool, r.stderr)


def test_setup_tests_names_pytest_xdist_and_jsonschema():
    # The Python that `make test` would run lacks everything.
    r = run(["bash", "scripts/setup.sh", "--check", "--tests"], env={"PYTHON": "/nonexistent/python3"})
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert lines[0] == "setup: missing python3, pytest, pytest-xdist, jsonschema. Install, then run " \
        "make test again:"
    assert "apt-get install python3 python3-jsonschema python3-pytest python3-pytest-xdist" in r.stderr
    assert "dnf install python3 python3-jsonschema python3-pytest python3-pytest-xdist" in r.stderr
    assert "spack install py-jsonschema py-pytest py-pytest-xdist python && spack load" in r.stderr


def test_setup_tests_passes_where_the_tests_run():
    r = run(["bash", "scripts/setup.sh", "--check", "--tests"], env={"PYTHON": sys.executable})
    assert (r.returncode, r.stdout.strip()) == (0, "setup: everything the tests need is here")


def test_setup_check_passes_where_everything_is_here():
    r = run(["bash", "scripts/setup.sh", "--check"])
    if r.returncode:
        pytest.skip("this machine lacks part of the build: " + r.stderr.splitlines()[0])
    assert r.stdout.strip() == "setup: everything the build needs is here"
