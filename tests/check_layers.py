#!/usr/bin/env python3
"""Check that includes go one way through the layers of the source tree.

Each layer is a folder (src/<layer>/, kernels/, bench/) whose README.md says
what it owns and, on a line of its own, `May include: a, b, c` (or `none`).
Every project include names its file from a source root ("engine/measure.h",
"kernels/kernels.h"), so its first part is the layer it comes from. This
fails, one line a problem, on: an include of a layer that the including
layer may not include; an include that names no layer; a layer whose
allowed layers form a circle; and a circle of files that include each other.

    tests/check_layers.py [ROOT]      exit 0 clean, 1 problems, 2 bad tree
"""
import os
import re
import sys

SOURCE = re.compile(r"\.(c|h|hip|cu)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
MAY = re.compile(r"^May include:\s*(.*)$", re.M)
GENERATED = {"revision.h"}  # written into the build folder by make


def layer_folders(root):
    """{layer name: folder relative to root}"""
    found = {}
    src = os.path.join(root, "src")
    for name in sorted(os.listdir(src)):
        if os.path.isdir(os.path.join(src, name)):
            found[name] = os.path.join("src", name)
    for name in ("kernels", "bench"):
        if os.path.isdir(os.path.join(root, name)):
            found[name] = name
    return found


def allowed_of(root, folders):
    allowed, problems = {}, []
    for name, folder in folders.items():
        readme = os.path.join(root, folder, "README.md")
        try:
            with open(readme, encoding="utf-8") as f:
                m = MAY.search(f.read())
        except OSError:
            m = None
        if not m:
            problems.append(f"{folder}/README.md: no 'May include:' line (what layer {name} may include)")
            continue
        words = [w.strip() for w in m.group(1).replace(".", "").split(",")]
        allowed[name] = {w for w in words if w and w != "none"}
        for w in allowed[name] - set(folders):
            problems.append(f"{folder}/README.md: May include names '{w}', which is no layer")
    return allowed, problems


def cycle(graph):
    """A circle in {node: set(nodes)} as a list, or None."""
    state, path = {}, []

    def visit(n):
        state[n] = 1
        path.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                ring = path[path.index(m):]
                k = ring.index(min(ring))  # from its first name, so the line is always the same
                ring = ring[k:] + ring[:k]
                return ring + [ring[0]]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        state[n] = 2
        path.pop()
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def check(root):
    folders = layer_folders(root)
    allowed, problems = allowed_of(root, folders)
    c = cycle(allowed)
    if c:
        problems.append("the layers' May include lines make a circle: " + " -> ".join(c))
    files = {}  # include name ("engine/measure.h") -> includes
    for name, folder in folders.items():
        for dirpath, _, names in os.walk(os.path.join(root, folder)):
            for fn in sorted(names):
                if not SOURCE.search(fn):
                    continue
                path = os.path.join(dirpath, fn)
                rel = os.path.relpath(path, root)
                inc_name = os.path.relpath(path, os.path.join(root, "src")) if rel.startswith("src/") else rel
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                files[inc_name] = []
                for included in INCLUDE.findall(text):
                    if included in GENERATED:
                        continue
                    top = included.split("/")[0]
                    if "/" not in included or top not in folders or ".." in included.split("/"):
                        problems.append(f"{rel}: #include \"{included}\" names no layer "
                                        f"(write it from a source root: \"layer/file.h\")")
                        continue
                    files[inc_name].append(included)
                    if top != name and top not in allowed.get(name, set()):
                        may = ", ".join(sorted(allowed.get(name, ()))) or "nothing"
                        problems.append(f"{rel}: #include \"{included}\": layer {name} may include "
                                        f"{may}; not {top}")
    c = cycle({f: set(i for i in incs if i in files) for f, incs in files.items()})
    if c:
        problems.append("files include each other in a circle: " + " -> ".join(c))
    return problems


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    if not os.path.isdir(os.path.join(root, "src")):
        print(f"check_layers: {root} has no src/ folder", file=sys.stderr)
        return 2
    problems = check(root)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
