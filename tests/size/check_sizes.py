#!/usr/bin/env python3
"""Issue 35's size rule: no file in src/ over 500 lines, no function over 150.

Reports every file over the file limit and every function over the function limit, and exits 1 when
there is any that neither states an exception nor is on the allowlist.

- A file may state an exception with a reason (kernels, tables), anywhere in it:
      // size-exception: <reason>
  The marker covers the file and its functions; one without a reason (a few words) is itself a
  violation.
- The allowlist (--allowlist FILE) names files that may exceed the limits for now, one a line:
      <path relative to the root>  <reason>
  An entry without a reason, or for a file that no longer exceeds a limit, is a violation (the list
  only shrinks).

Functions are found by brace matching on the source with comments, strings and preprocessor lines
removed: a `{` at namespace or class scope whose declaration has a parameter list is a function body
(constructors' member initialisers included); its length runs from the declaration's first line to
the closing brace. Lambdas and blocks count towards the function that holds them.

Usage: check_sizes.py [--root DIR] [--allowlist FILE] [--max-file N] [--max-function N]
       check_sizes.py --self-test   (plants each fault in a scratch tree and expects it found)
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

SOURCE_ENDINGS = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".inc", ".cu", ".cuh")
MARKER = re.compile(r"size-exception:(.*)")
SCOPE_WORDS = re.compile(r"\b(namespace|class|struct|union|enum)\b")
NOT_A_NAME = {"__launch_bounds__", "alignas", "__attribute__", "__declspec", "decltype", "noexcept", "requires",
              "sizeof", "static_assert"}


def strip_code(text):
    """The text with comments, string and character literals and preprocessor lines blanked out
    (newlines kept, so that offsets keep their line numbers)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":  # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("\n")
                    i += 2
                    continue
                i += 1
            continue
        line_start = False
        if c == "\n":
            line_start = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == "R" and text.startswith('"', i + 1) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\ ]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i + m.end())
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def drop_template_heads(header):
    """`template <class T> void f(T)` -> ` void f(T)`: a template's parameter list says nothing of
    what the declaration is."""
    while True:
        m = re.search(r"\btemplate\s*<", header)
        if not m:
            return header
        depth, j = 1, m.end()
        while j < len(header) and depth:
            depth += {"<": 1, ">": -1}.get(header[j], 0)
            j += 1
        header = header[:m.start()] + " " + header[j:]


def top_level(header):
    """The header with what stands inside parentheses, brackets and braces removed."""
    out, depth = [], 0
    for c in header:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def classify(header):
    """'scope' (namespace, class …: functions inside are found), 'function', or 'block'."""
    h = drop_template_heads(header).strip()
    if not h:
        return "block"
    if h.startswith("extern"):
        return "scope"
    before_paren = h.split("(", 1)[0]
    if SCOPE_WORDS.search(before_paren):
        return "scope"
    if "(" not in h:
        return "block"
    outside = top_level(h)
    if "=" in outside.replace("==", "").replace("operator=", "") and "operator" not in outside:
        return "block"  # an initialiser: `auto f = [](…) {`, `X y = {…}`
    return "function"


def function_name(header):
    h = drop_template_heads(header)
    for m in re.finditer(r"(~?[A-Za-z_][\w:]*(?:\s*operator\s*[^\s(]*)?)\s*\(", h):
        name = m.group(1)
        if name.split("::")[-1] not in NOT_A_NAME:
            return name.strip()
    return "?"


def in_init_list(header):
    """After a constructor's parameter list, a `:` (not `::`) starts its member initialisers."""
    h = drop_template_heads(header)
    close = h.find(")")
    return close >= 0 and re.search(r"(?<!:):(?!:)", h[close:]) is not None


def find_functions(text):
    """[(name, first line, last line)] of the functions defined in `text` (C++ or CUDA source)."""
    code = strip_code(text)
    functions = []
    stack = []          # 'scope' | 'function' | 'block' | 'member-init'
    header_start = 0    # offset where the current declaration began
    fn_start = []       # (name, first line) per open function
    line = 1
    line_at = [0]       # line number at each offset, filled lazily
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
            continue
        inside_function = any(k in ("function", "block") for k in stack)
        if c == "{":
            if inside_function and not (stack and stack[-1] == "member-init"):
                stack.append("block")
                continue
            header = code[header_start:i]
            prev = header.rstrip()[-1:] if header.strip() else ""
            if stack[-1:] != ["member-init"] and in_init_list(header) and (prev.isalnum() or prev in "_>"):
                stack.append("member-init")   # `b_{y}` in a constructor's initialisers
                continue
            kind = classify(header)
            if kind == "function":
                first = header_start + (len(header) - len(header.lstrip()))
                fn_start.append((function_name(header), code.count("\n", 0, first) + 1))
            stack.append(kind)
            if kind == "scope":
                header_start = i + 1
        elif c == "}":
            kind = stack.pop() if stack else "scope"
            if kind == "function":
                name, first = fn_start.pop()
                functions.append((name, first, line))
            if kind == "member-init":
                continue   # the declaration goes on to its body
            if not any(k in ("function", "block") for k in stack):
                header_start = i + 1
        elif c == ";" and not inside_function:
            header_start = i + 1
    return functions


def exception_reason(text):
    m = MARKER.search(text)
    if not m:
        return None
    return m.group(1).strip().rstrip("*/").strip()


def read_allowlist(path):
    entries = {}
    problems = []
    if not path:
        return entries, problems
    with open(path, encoding="utf-8") as f:
        for k, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 1)
            reason = parts[1].strip() if len(parts) > 1 else ""
            if len(reason.split()) < 3:
                problems.append(f"{path}:{k}: allowlist entry {parts[0]} has no reason (a few words: why, and who is on it)")
            entries[parts[0]] = reason
    return entries, problems


def function_lines(name, body_lines, ctor=False):
    """A C++ function of exactly 2 + body_lines lines, with what a finder could trip on inside."""
    head = f"Widget::{name}(int a, const char* s) : a_(a), b_{{s}} {{" if ctor else f"static int {name}(int a) {{"
    body = ['  const char* t = "}}{{ not a brace";  // nor this: }', "  auto f = [&](int x) { return x + 1; };"]
    body += [f"  a += f({k});" for k in range(body_lines - len(body))]
    return [head] + body + ["}"]


def self_test():
    me = os.path.abspath(__file__)
    failures = []

    def case(title, files, allow=None, expect_rc=0, expect=(), absent=()):
        with tempfile.TemporaryDirectory() as root:
            for rel, lines in files.items():
                os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                    f.write("\n".join(lines) + "\n")
            cmd = [sys.executable, me, "--root", root]
            if allow is not None:
                with open(os.path.join(root, "allow.txt"), "w", encoding="utf-8") as f:
                    f.write(allow)
                cmd += ["--allowlist", os.path.join(root, "allow.txt")]
            r = subprocess.run(cmd, capture_output=True, text=True)
            out = r.stdout + r.stderr
            ok = r.returncode == expect_rc and all(e in out for e in expect) and not any(a in out for a in absent)
            print(("ok   " if ok else "FAIL ") + title)
            if not ok:
                failures.append(f"{title}: rc {r.returncode} (expected {expect_rc})\n{out}")

    small = ["namespace x {", "int f() { return 1; }", "}  // namespace x"]
    case("a clean tree passes", {"a/ok.cpp": small})
    case("a file of 501 lines is reported", {"a/long.cpp": small + ["// filler"] * 498}, expect_rc=1,
         expect=["a/long.cpp: 501 lines (limit 500)"])
    case("a file of 500 lines passes", {"a/long.cpp": small + ["// filler"] * 497})
    case("a function of 151 lines is reported", {"a/fn.cpp": ["namespace {"] + function_lines("Big", 149) + ["}"]},
         expect_rc=1, expect=["a/fn.cpp:2: function Big is 151 lines (limit 150)"])
    case("a function of 150 lines passes", {"a/fn.cpp": ["namespace {"] + function_lines("Big", 148) + ["}"]})
    case("a constructor with braced member initialisers is measured from its head",
         {"a/ctor.cpp": ["class Widget {", " public:", "  Widget(int, const char*);", "};"] + function_lines("Widget", 149, ctor=True)},
         expect_rc=1, expect=["a/ctor.cpp:5: function Widget::Widget is 151 lines"])
    case("a member function defined in its class is measured",
         {"a/member.h": ["template <class T> struct S {"] + ["  " + l for l in function_lines("Run", 149)] + ["};"]},
         expect_rc=1, expect=["a/member.h:2: function Run is 151 lines"])
    case("a CUDA kernel is measured", {"k/kernel.cu": ["__global__ void __launch_bounds__(128) Kern(float* x) {"] + ["  x[0] += 1;"] * 150 + ["}"]},
         expect_rc=1, expect=["k/kernel.cu:1: function Kern is 152 lines"])
    case("a size-exception with a reason is honoured",
         {"k/kernel.cu": ["// size-exception: one kernel, its stages share registers", "__global__ void Kern(float* x) {"] +
          ["  x[0] += 1;"] * 150 + ["}"]},
         expect=["excepted", "one kernel, its stages share registers"], absent=["VIOLATIONS"])
    case("a size-exception without a reason is not",
         {"k/kernel.cu": ["// size-exception:", "__global__ void Kern(float* x) {"] + ["  x[0] += 1;"] * 150 + ["}"]},
         expect_rc=1, expect=["size-exception without a reason"])
    case("an allowlisted file with a reason is tolerated", {"a/long.cpp": small + ["// filler"] * 498},
         allow="a/long.cpp  being split by another change right now\n", expect=["allowlisted for now"], absent=["VIOLATIONS"])
    case("an allowlist entry without a reason fails", {"a/long.cpp": small + ["// filler"] * 498},
         allow="a/long.cpp\n", expect_rc=1, expect=["has no reason"])
    case("a stale allowlist entry fails", {"a/ok.cpp": small},
         allow="a/ok.cpp  was long once, split since then\n", expect_rc=1, expect=["within the limits now"])
    if failures:
        print("\n".join(failures))
        return 1
    return 0


def main():
    if "--self-test" in sys.argv[1:]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--root", default=os.path.join(here, "..", "..", "src"), help="the folder checked (default: src/)")
    ap.add_argument("--allowlist", default=None, help="files that may exceed the limits for now, with a reason")
    ap.add_argument("--max-file", type=int, default=500)
    ap.add_argument("--max-function", type=int, default=150)
    args = ap.parse_args()
    root = os.path.normpath(args.root)
    allowed, problems = read_allowlist(args.allowlist)
    violations, excepted, tolerated = [], [], []
    over = set()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(SOURCE_ENDINGS):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            found = []
            lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
            if lines > args.max_file:
                found.append(f"{rel}: {lines} lines (limit {args.max_file})")
            for fn, first, last in find_functions(text):
                if last - first + 1 > args.max_function:
                    found.append(f"{rel}:{first}: function {fn} is {last - first + 1} lines (limit {args.max_function})")
            if not found:
                continue
            over.add(rel)
            reason = exception_reason(text)
            if reason is not None and len(reason.split()) >= 3:
                excepted += [f"{v}  [size-exception: {reason}]" for v in found]
            elif rel in allowed:
                tolerated += [f"{v}  [allowlist: {allowed[rel]}]" for v in found]
            else:
                if reason is not None:
                    found = [f"{v}  [size-exception without a reason]" for v in found]
                violations += found
    for rel in sorted(allowed):
        if rel not in over:
            problems.append(f"allowlist entry {rel}: within the limits now (or gone); remove it from the allowlist")
    for title, rows in (("over the limits, with a stated exception", excepted),
                        ("over the limits, allowlisted for now", tolerated),
                        ("VIOLATIONS", violations + problems)):
        if rows:
            print(f"{title} ({len(rows)}):")
            for r in rows:
                print("  " + r)
    print(f"summary: {len(violations)} violations, {len(problems)} allowlist problems, "
          f"{len(excepted)} excepted, {len(tolerated)} allowlisted")
    return 1 if violations or problems else 0


if __name__ == "__main__":
    sys.exit(main())
