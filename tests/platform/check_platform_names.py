#!/usr/bin/env python3
"""Issue 35 item 7: the platform questions behind the seam (src/app/platform.h).

Fails (exit 1, one line per finding: path:line: what) when
- the web edition's compiler is asked about outside the web side of the seam: `__EMSCRIPTEN__`,
  `<emscripten…>`, `emscripten_*`, `EM_JS`, `EM_ASM` or `EMSCRIPTEN_KEEPALIVE` anywhere in src/ but
  src/app/platform_web.cpp (the app is one source on both editions; what differs is a seam function,
  and which files an edition compiles is its build file's choice, not a macro's);
- GLFW is named in src/app outside the platform's files — platform_glfw.cpp (the desktop),
  platform_glfw_x11.cpp (its X11 presenter), platform_glfw_common.cpp (the calls both editions make
  alike), platform_glfw.h (their handle), platform_web.cpp (Emscripten's GLFW) — and the key table,
  shortcuts.cpp, whose key codes are GLFW's. "GLFW" counts in any case (glfw*, GLFW_*, GLFWwindow,
  ImGui_ImplGlfw_*, imgui_impl_glfw.h), in code and comments alike; the platform files' own names
  (platform_glfw…) do not;
- a file outside the platform's includes app/platform_glfw.h (the app holds platform::Window, opaque).

Usage: check_platform_names.py [--root DIR]     (DIR: the repository; default: this file's ../..)
       check_platform_names.py --self-test      (plants each kind of fault in a copy and expects it found)
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

WEB_NAMES = re.compile(r"__EMSCRIPTEN__|<emscripten|\bemscripten_\w|\bEM_JS\b|\bEM_ASM|\bEMSCRIPTEN_KEEPALIVE\b")
WEB_ALLOWED = {"src/app/platform_web.cpp"}
GLFW = re.compile(r"glfw", re.IGNORECASE)
OWN_NAMES = re.compile(r"platform_glfw\w*(\.(h|cpp))?")  # the platform files' names, in comments and lists
GLFW_ALLOWED = {"src/app/platform_glfw.cpp", "src/app/platform_glfw_x11.cpp", "src/app/platform_glfw_common.cpp",
                "src/app/platform_glfw.h", "src/app/platform_web.cpp", "src/app/shortcuts.cpp"}
HANDLE_INCLUDE = re.compile(r'#\s*include\s*[<"]app/platform_glfw\.h[>"]')


def text_files(root, folder):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            try:
                with open(path, encoding="utf-8") as f:
                    yield os.path.relpath(path, root).replace(os.sep, "/"), f.read().splitlines()
            except (UnicodeDecodeError, OSError):
                continue  # not text


def check(root):
    findings = []
    for rel, lines in text_files(root, "src"):
        in_app = rel.startswith("src/app/")
        for n, line in enumerate(lines, 1):
            if rel not in WEB_ALLOWED and WEB_NAMES.search(line):
                findings.append(f"{rel}:{n}: the web edition asked about outside platform_web.cpp: {line.strip()}")
            if in_app and rel not in GLFW_ALLOWED:
                if HANDLE_INCLUDE.search(line):
                    findings.append(f"{rel}:{n}: includes the platform's own handle header (use app/platform.h): {line.strip()}")
                elif GLFW.search(OWN_NAMES.sub("", line)):
                    findings.append(f"{rel}:{n}: GLFW named outside the platform's files and the key table: {line.strip()}")
    return findings


def self_test(root):
    """Each planted fault must be found in a copy of src/, and the copy as it is must pass."""
    plants = [
        ("src/view/scene.cpp", "#ifdef __EMSCRIPTEN__\n#endif\n", "__EMSCRIPTEN__"),
        ("src/app/frame.cpp", "#include <emscripten.h>\n", "<emscripten"),
        ("src/app/frame.cpp", "static double T() { return glfwGetTime(); }\n", "glfwGetTime"),
        ("src/app/startup.cpp", "struct GLFWwindow;\n", "GLFWwindow"),
        ("src/app/notes_window.cpp", "#include <backends/imgui_impl_glfw.h>\n", "imgui_impl_glfw"),
        ("src/app/frame.cpp", '#include "app/platform_glfw.h"\n', "platform_glfw.h"),
    ]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(root, "src"), os.path.join(tmp, "src"))
        clean = check(tmp)
        if clean:
            print("self-test: the tree as it is fails already:\n  " + "\n  ".join(clean))
            return 1
        for rel, text, expect in plants:
            path = os.path.join(tmp, rel)
            with open(path, encoding="utf-8") as f:
                before = f.read()
            with open(path, "w", encoding="utf-8") as f:
                f.write(text + before)
            found = [x for x in check(tmp) if x.startswith(rel + ":1:") and expect in x]
            print(f"self-test: {expect} planted in {rel}: {'found' if found else 'NOT FOUND'}")
            failures += not found
            with open(path, "w", encoding="utf-8") as f:
                f.write(before)
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")))
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test(args.root)
    findings = check(args.root)
    for f in findings:
        print(f)
    if findings:
        print(f"{len(findings)} platform question(s) outside the seam (src/app/platform.h says where they go)")
        return 1
    print("platform names: __EMSCRIPTEN__ only in platform_web.cpp, GLFW only in the platform's files and the key table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
