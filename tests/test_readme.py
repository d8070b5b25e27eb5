"""test_readme.py - every path of the repository that README.md names (files and
folders under the top-level folders, links) exists; a placeholder such as
results/slurm-<jobid> is not a path, and a pattern such as kernels/*.hip must match.
The same holds for the pages of docs/, where the details live (their links are
relative to docs/), and README.md links every one of those pages.
What CI runs on a bare root (.ci/bare-root.sh) is the README's two set-up commands."""
import glob
import pathlib
import re
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
TOP = r"(?:\.ci|bench|completion|docs|fuzz|kernels|man|mk|results|scripts|src|tests)"
PATH = re.compile(r"(?<![\w/.-])(" + TOP + r"/[\w.*<>/-]*)")
LINK = re.compile(r"\]\(([^)#:]+)\)")  # [text](target), not URLs


def readme_paths():
    text = (REPO / "README.md").read_text()
    paths = {p.rstrip(".") for p in PATH.findall(text)} | set(LINK.findall(text))
    return sorted(p for p in paths if "<" not in p)


DOCS = sorted(p.name for p in (REPO / "docs").glob("*.md"))


def page_paths(page):
    """The paths a page of docs/ names, from the repository's top: those in its text
    as they are, its links from docs/."""
    text = (REPO / "docs" / page).read_text()
    paths = {p.rstrip(".") for p in PATH.findall(text)}
    links = {(REPO / "docs" / link).resolve() for link in LINK.findall(text)}
    paths |= {str(link.relative_to(REPO)) for link in links}
    return sorted(p for p in paths if "<" not in p)


def test_readme_names_paths():
    paths = readme_paths()
    assert "scripts/setup.sh" in paths and "docs/schema.json" in paths and "LICENSE" in paths


def test_every_path_readme_names_exists():
    missing = [p for p in readme_paths() if not glob.glob(str(REPO / p))]
    assert missing == [], "README.md names paths that do not exist"


def test_readme_links_every_page_of_docs():
    assert {"modules.md", "comparing.md", "batch.md", "document.md", "amd.md",
            "development.md"} <= set(DOCS)
    linked = {p for p in readme_paths() if p.startswith("docs/")}
    assert [p for p in DOCS if "docs/" + p not in linked] == [], "pages README.md does not link"


@pytest.mark.parametrize("page", DOCS)
def test_every_path_a_docs_page_names_exists(page):
    paths = page_paths(page)
    assert paths, f"docs/{page} names no path"
    missing = [p for p in paths if not glob.glob(str(REPO / p))]
    assert missing == [], f"docs/{page} names paths that do not exist"


def test_bare_root_ci_runs_the_readmes_setup_commands():
    text = (REPO / "README.md").read_text()
    setup = text.split("## Set up and run", 1)[1].split("\n### ", 1)[0]
    blocks = re.findall(r"^```sh\n(.*?)^```", setup, re.S | re.M)
    assert len(blocks) == 2, "the set-up section has its two commands"
    r = subprocess.run(["bash", ".ci/bare-root.sh", "--commands"], cwd=REPO, capture_output=True,
                       text=True)
    assert (r.returncode, r.stdout) == (0, "".join(blocks))
    assert blocks[1] == "make test\n"
