"""test_readme.py - every path of the repository that README.md names (files and
folders under the top-level folders, links) exists; a placeholder such as
results/slurm-<jobid> is not a path, and a pattern such as kernels/*.hip must match.
What CI runs on a bare root (.ci/bare-root.sh) is the README's two set-up commands."""
import glob
import pathlib
import re
import subprocess

REPO = pathlib.Path(__file__).resolve().parent.parent
TOP = r"(?:\.ci|bench|completion|docs|fuzz|kernels|man|mk|results|scripts|src|tests)"
PATH = re.compile(r"(?<![\w/.-])(" + TOP + r"/[\w.*<>/-]*)")
LINK = re.compile(r"\]\(([^)#:]+)\)")  # [text](target), not URLs


def readme_paths():
    text = (REPO / "README.md").read_text()
    paths = {p.rstrip(".") for p in PATH.findall(text)} | set(LINK.findall(text))
    return sorted(p for p in paths if "<" not in p)


def test_readme_names_paths():
    paths = readme_paths()
    assert "scripts/setup.sh" in paths and "docs/schema.json" in paths and "LICENSE" in paths


def test_every_path_readme_names_exists():
    missing = [p for p in readme_paths() if not glob.glob(str(REPO / p))]
    assert missing == [], "README.md names paths that do not exist"


def test_bare_root_ci_runs_the_readmes_setup_commands():
    text = (REPO / "README.md").read_text()
    setup = text.split("## Set up and run", 1)[1].split("\n### ", 1)[0]
    blocks = re.findall(r"^```sh\n(.*?)^```", setup, re.S | re.M)
    assert len(blocks) == 2, "the set-up section has its two commands"
    r = subprocess.run(["bash", ".ci/bare-root.sh", "--commands"], cwd=REPO, capture_output=True,
                       text=True)
    assert (r.returncode, r.stdout) == (0, "".join(blocks))
    assert blocks[1] == "make test\n"
