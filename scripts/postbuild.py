"""Trunk post-build hook: finishes the static site in $TRUNK_STAGING_DIR (or the folder given).

0. Texts: every message of the catalogues, as a JSON script element (see scripts/texts.py);
   the published .wasm reads its texts from there.
1. Version: a short hash of every file of the build, written into the page
   (<meta name="attention-lab-version">, shown in the help dialog) and into the service worker,
   so a teacher can tell which version students have and an open tab can see a newer one.
2. Content-Security-Policy: the page may load only its own files. Trunk's loader is an inline
   module script, so its SHA-256 is allowed explicitly; Wasm needs 'wasm-unsafe-eval'.
3. The modules of views the page starts when they open (`bridge::Hosted`: the training view,
   the pretrained model's views, the side lessons that read only the settings): Trunk builds
   each (the `learn`, `pretrained` and `side` binaries)
   without loading it; a small start script imports it, and the page names that script in
   <meta name="attention-lab-{name}"> for the view to add when it opens. The workers (the
   `trainer` binary, and `forward` with its relaxed-SIMD build `forward-relaxed`) likewise,
   each start script run as a module worker.
4. Service worker: sw.js from assets/sw.template.js, listing every file of the build but the
   model (fetched on demand) and versioned by their contents, so the site keeps working
   offline once loaded.

Running it again on a finished build (as the update test does after changing a file) gives
the same page for the same files: what it wrote before is taken out first.
"""

import base64
import hashlib
import json
import os
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
staging = pathlib.Path(os.environ.get("TRUNK_STAGING_DIR", sys.argv[1] if len(sys.argv) > 1 else "dist"))
index = staging / "index.html"
html = index.read_text(encoding="utf-8")
html = re.sub(r'\s*<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
html = re.sub(r'\s*<meta name="attention-lab-version"[^>]*>', "", html)
MODULES = ["learn", "pretrained", "side"]
# Modules that run in Web Workers (`bridge::TRAINER_META`): started by the page's code, not by a
# view's script element.
WORKERS = ["trainer", "forward"]
# A worker with a second build for engines with relaxed SIMD: its start script imports that one
# where the engine validates a module using f32x4.relaxed_madd (Chromium, Firefox), else the
# plain simd128 build (Safari's engine).
RELAXED = {"forward": "forward-relaxed"}
# () -> v128 returning f32x4.relaxed_madd (0xFD 0x105) of three zero v128.const (0xFD 0x0C).
RELAXED_PROBE = (
    [0, 0x61, 0x73, 0x6D, 1, 0, 0, 0, 1, 5, 1, 0x60, 0, 1, 0x7B, 3, 2, 1, 0, 0x0A, 0x3D, 1, 0x3B, 0]
    + [0xFD, 0x0C] + [0] * 16 + [0xFD, 0x0C] + [0] * 16 + [0xFD, 0x0C] + [0] * 16
    + [0xFD, 0x85, 0x02, 0x0B]
)
for name in MODULES + WORKERS:
    html = re.sub(rf'\s*<meta name="attention-lab-{name}"[^>]*>', "", html)
html = re.sub(r'\s*<script type="application/json" id="attention-lab-texts">.*?</script>', "", html, flags=re.S)

# 0. The texts, before the version so that a changed sentence is a new version.
sys.path.insert(0, str(root / "scripts"))
from texts import script_element  # noqa: E402

head_end = html.index("</head>")
html = html[:head_end] + "  " + script_element(root) + "\n  " + html[head_end:]

# 0b. The exports of code the site never calls, and that code, out of every .wasm (before the
# version: the files change).
from unexport import unexport  # noqa: E402

for wasm in sorted(staging.glob("*.wasm")):
    if unexport(wasm):
        # Trunk wrote the file's SHA-384 into the page's preload of it: the new one, or the
        # browser refuses the preload and fetches the largest file twice.
        digest = base64.b64encode(hashlib.sha384(wasm.read_bytes()).digest()).decode()
        html = re.sub(
            rf'(href="\./{re.escape(wasm.name)}"[^>]*integrity=")sha384-[^"]*"',
            rf'\g<1>sha384-{digest}"',
            html,
        )

# 3. Each module's start script (before the version: it is one of the files).
def start_script(name, js, relaxed_js=None, page_start=None):
    if name in WORKERS:
        # A module worker: messages that arrive while its .wasm loads wait, then go to the
        # module's own handler in order.
        chosen = f'"./{js}"'
        if relaxed_js:
            probe = ", ".join(str(b) for b in RELAXED_PROBE)
            chosen = f'(WebAssembly.validate(new Uint8Array([{probe}])) ? "./{relaxed_js}" : "./{js}")'
        return (
            f"// Written by scripts/postbuild.py: starts a {name} worker; messages that arrive\n"
            "// before its module is ready wait for it.\n"
            "const waiting = [];\n"
            "self.onmessage = (e) => waiting.push(e);\n"
            f"import({chosen}).then(async (m) => {{\n"
            "  await m.default();\n"
            "  for (const e of waiting) self.onmessage(e);\n"
            f'}}).catch((e) => self.postMessage("the {name} worker could not start: " + e));\n'
        )
    return (
        f"// Written by scripts/postbuild.py: starts the {name} module (the page adds this script\n"
        "// when one of its views first opens). If its files do not arrive it tries again, twice;\n"
        "// then the view says so, with a button that adds this script again (`?again=N`). Each\n"
        "// try asks under an address of its own: an engine keeps a module that failed to load as\n"
        "// failed, by its address. A panic in the module is not a failed download: the page's\n"
        "// notice shows it, and nothing is tried again or said here. Nor is a trap of the engine\n"
        "// while the module starts (a WebAssembly.RuntimeError that is no panic): trying again in\n"
        "// this page only adds a memory to a process that may be failing for holding too many\n"
        "// (README, \"WebKit and WebAssembly memories\"), so it is met as the page's own start is,\n"
        "// by loading the page once more (at most once a minute); then the view says so.\n"
        f'import {{ restartOnce }} from "./{page_start}";\n'
        "const waits = [1000, 3000];\n"
        'const again = new URL(import.meta.url).searchParams.get("again");\n'
        "const start = (attempt) =>\n"
        f'  import(again || attempt ? `./{js}?try=${{again ?? 1}}.${{attempt}}` : "./{js}").then((m) => m.default()).catch((e) => {{\n'
        "    // A panic: the page's notice says so already; no download to try again.\n"
        '    if (document.querySelector("[data-testid=panic]")) return;\n'
        "    if (e instanceof WebAssembly.RuntimeError) {\n"
        "      if (restartOnce(e)) return;\n"
        f'      console.error("the {name} module could not start:", String(e));\n'
        f'      document.querySelectorAll("[data-module-trapped={name}]").forEach((l) => l.removeAttribute("hidden"));\n'
        f'      document.querySelectorAll("[data-module-status={name}]").forEach((l) => l.setAttribute("hidden", ""));\n'
        f'      document.querySelector("script[data-module={name}]")?.setAttribute("data-failed", "trapped");\n'
        "      return;\n"
        "    }\n"
        "    if (attempt < waits.length) {\n"
        "      setTimeout(() => start(attempt + 1), waits[attempt]);\n"
        "      return;\n"
        "    }\n"
        f'    console.error("the {name} module:", e);\n'
        f'    document.querySelectorAll("[data-module-failed={name}]").forEach((l) => l.removeAttribute("hidden"));\n'
        f'    document.querySelectorAll("[data-module-status={name}]").forEach((l) => l.setAttribute("hidden", ""));\n'
        f'    document.querySelector("script[data-module={name}]")?.setAttribute("data-failed", "");\n'
        "  });\n"
        "start(0);\n"
    )


def own_files(name):
    """The module's .js and _bg.wasm (its own only: `forward`'s names begin `forward-relaxed`'s)."""
    found = []
    for ending in (r"\.js", r"_bg\.wasm"):
        names = sorted(
            p.name for p in staging.iterdir() if re.fullmatch(rf"{re.escape(name)}(-[0-9a-f]+)?{ending}", p.name)
        )
        if len(names) != 1:
            sys.exit(f"postbuild: expected the {name} module's one {name}{ending}, found {names}")
        found.append(names[0])
    return found


# The page's start (assets/start.js, Trunk's initializer), whose `restartOnce` the modules share.
page_starts = sorted(p.name for p in staging.iterdir() if re.fullmatch(r"start-[0-9a-f]+\.js", p.name))
if len(page_starts) != 1:
    sys.exit(f"postbuild: expected the page's one start-<hash>.js (assets/start.js), found {page_starts}")

for name in MODULES + WORKERS:
    for old in staging.glob(f"{name}-start-*.js"):
        old.unlink()
    files = own_files(name) + (own_files(RELAXED[name]) if name in RELAXED else [])
    # Named by its contents and the modules', so a cached copy never imports a module that is gone.
    start = start_script(name, files[0], files[2] if name in RELAXED else None, page_starts[0])
    digest = hashlib.sha256(start.encode() + b"".join((staging / f).read_bytes() for f in files))
    start_name = f"{name}-start-{digest.hexdigest()[:16]}.js"
    (staging / start_name).write_text(start, encoding="utf-8")
    html = html.replace("</head>", f'  <meta name="attention-lab-{name}" content="./{start_name}" />\n  </head>', 1)

# 1. The version: every file but the worker, the page as Trunk wrote it.
files = sorted(p for p in staging.rglob("*") if p.is_file() and p.name not in ("sw.js", ".trunk-lock"))
digest = hashlib.sha256()
for p in files:
    digest.update(p.relative_to(staging).as_posix().encode())
    digest.update(html.encode("utf-8") if p == index else p.read_bytes())
version = digest.hexdigest()[:12]

# 2. CSP with the hash of every inline script.
inline = re.findall(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>(.*?)</script>", html, flags=re.S)
hashes = " ".join(
    "'sha256-" + base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode() + "'" for s in inline
)
policy = "; ".join([
    "default-src 'self'",
    f"script-src 'self' {hashes} 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    # No manifest-src: WebKit does not know it and logs an error; default-src covers the manifest.
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
])
charset = re.search(r"<meta charset=[^>]*>", html)
at = charset.end() if charset else html.index("<head>") + len("<head>")
head = f'\n    <meta http-equiv="Content-Security-Policy" content="{policy}" />'
head += f'\n    <meta name="attention-lab-version" content="{version}" />'
index.write_text(html[:at] + head + html[at:], encoding="utf-8")

# 4. The service worker, listing every file but itself and the trained model (*.bin, 24 MB):
# the page fetches and keeps the model only when a learner asks for trained weights.
assets = ["./"] + ["./" + p.relative_to(staging).as_posix() for p in files if p.suffix != ".bin"]
template = (root / "assets" / "sw.template.js").read_text(encoding="utf-8")
sw = template.replace("__VERSION__", version).replace("__ASSETS__", json.dumps(assets))
(staging / "sw.js").write_text(sw, encoding="utf-8")
print(f"postbuild: version {version}; CSP with {len(inline)} inline script hash(es); sw.js caches {len(assets)} files")
