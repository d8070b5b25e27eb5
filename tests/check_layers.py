#!/usr/bin/env python3
"""Check that includes go one way through the layers of the source tree.

Each layer is a folder (src/<layer>/, kernels/, bench/) whose README.md says
what it owns and, on a line of its own, `May include: a, b, c` (or `none`).
Every project include names its file from a source root ("engine/measure.h",
"kernels/kernels.h"), so its first part is the layer it comes from. This
fails, one line a problem, on: an include of a layer that the including
layer may not include; an include that names no layer; a layer whose
allowed layers form a circle; and a circle of files that include each other.

Within bench/, each module is a folder of its own (bench/<module>/) whose
files may include and call each other, never another module's: this also
fails on a source file of bench/ outside a module's folder, an include of
another module's file, and a call of (or a reference to) a function or
variable that another module's file defines.

    tests/check_layers.py [ROOT]      exit 0 clean, 1 problems, 2 bad tree
"""
import os
import re
import sys

SOURCE = re.compile(r"\.(c|h|hip|cu)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
MAY = re.compile(r"^May include:\s*(.*)$", re.M)
GENERATED = {"revision.h"}  # written into the build folder by make
# What the compiler does not see: comments, and string and character literals.
NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
DEFINED_FUNCTION = re.compile(r"(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*$")
DEFINED_VARIABLE = re.compile(r"(\w+)\s*(?:\[[^\]]*\]\s*)*=\s*$")
USE = re.compile(r"(?<![\w.>])(\w+)(\s*\()?")


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


def module_of(rel):
    """The module of a file of bench/ ("memcpy" for bench/memcpy/memcpy.c), else None."""
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "bench" else None


def code_of(text):
    """C text without comments, literals and preprocessor lines."""
    return DIRECTIVE.sub("", NOISE.sub(" ", text))


def definitions(code):
    """{name: is static} of the functions and initialised variables that C
    code defines at file scope."""
    found, depth, start = {}, 0, 0
    for i, ch in enumerate(code):
        if ch == "{":
            if depth == 0:
                head = code[start:i]
                m = DEFINED_FUNCTION.search(head) or DEFINED_VARIABLE.search(head)
                if m:
                    found[m.group(1)] = re.match(r"\s*static\b", head) is not None
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif ch == ";" and depth == 0:
            m = DEFINED_VARIABLE.search(code[start:i].split("=")[0] + "=") if "=" in code[start:i] else None
            if m:
                found[m.group(1)] = re.match(r"\s*static\b", code[start:i]) is not None
            start = i + 1
    return found


def crossings(sources):
    """Calls of, and references to, another module's names: one line each.
    sources: {path of a file of bench/MODULE/: its C code}."""
    own, outward = {}, {}  # module -> every name it defines; name -> (module, file)
    for rel, code in sources.items():
        for name, static in definitions(code).items():
            own.setdefault(module_of(rel), set()).add(name)
            if not static:
                outward[name] = (module_of(rel), rel)
    problems = []
    for rel, code in sorted(sources.items()):
        mod = module_of(rel)
        named = set()
        for m in USE.finditer(code):
            name = m.group(1)
            if name in named or name in own.get(mod, ()) or name not in outward:
                continue
            other, where = outward[name]
            if other != mod:
                named.add(name)
                what = "calls" if m.group(2) else "names"
                problems.append(f"{rel}: {what} {name} of module {other} ({where}): "
                                f"modules never call each other")
    return problems


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
    modules = {}  # a module's file -> its C code
    for name, folder in folders.items():
        for dirpath, dirs, names in os.walk(os.path.join(root, folder)):
            dirs.sort()  # the same order of lines on every file system
            for fn in sorted(names):
                if not SOURCE.search(fn):
                    continue
                path = os.path.join(dirpath, fn)
                rel = os.path.relpath(path, root)
                inc_name = os.path.relpath(path, os.path.join(root, "src")) if rel.startswith("src/") else rel
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                files[inc_name] = []
                mod = module_of(rel) if name == "bench" else None
                if name == "bench" and mod is None:
                    problems.append(f"{rel}: a module's files go in its own folder (bench/MODULE/)")
                if mod is not None and rel.endswith(".c"):
                    modules[rel] = code_of(text)
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
                    elif mod is not None and top == "bench" and module_of(included) != mod:
                        problems.append(f"{rel}: #include \"{included}\": the files of module {mod} "
                                        f"include only their own (bench/{mod}/); modules never "
                                        f"include each other")
    problems += crossings(modules)
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
