"""Takes out of a built .wasm the exports of Rust code the site never calls, and the code only
they reach.

Leptos always builds its server functions' browser side (`server_fn`'s "browser" feature), and
with it `wasm-streams`, whose three classes (`IntoUnderlyingSource`, `IntoUnderlyingByteSource`,
`IntoUnderlyingSink`) wasm-bindgen exports for JavaScript to call: the linker must keep an
export and everything it reaches. The site has no server and never makes one of these streams
(no code of ours or Leptos's that runs creates one: after this, the .wasm imports nothing that
could), so their exports go, and binaryen's `--remove-unused-module-elements` takes the code
only they reached (about 1.2 KB gzip of the page's .wasm). Their classes stay in the
JavaScript glue, never constructed.

Used by scripts/postbuild.py on every .wasm of the build; running it again changes nothing.
"""

import pathlib
import shutil
import subprocess

# Exports whose names contain this are `wasm-streams`' (its classes' methods and destructors).
UNUSED = b"intounderlying"

# The features rustc's wasm32 target and our flags use, relaxed SIMD for the forward worker's
# build that has it (the built .wasm no longer says: Trunk's wasm-opt strips its
# target-features section). Allowing a feature lets the module use it; no pass here adds any.
FEATURES = [
    "--enable-simd", "--enable-relaxed-simd", "--enable-bulk-memory", "--enable-sign-ext",
    "--enable-nontrapping-float-to-int", "--enable-mutable-globals", "--enable-reference-types",
    "--enable-multivalue",
]


def leb(data, i):
    """The unsigned LEB128 at `i`, and where the next field starts."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def uleb(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def without_unused_exports(data):
    """`data` with the export section's unused entries left out, and how many there were."""
    out, i, dropped = bytearray(data[:8]), 8, 0
    while i < len(data):
        section = data[i]
        size, start = leb(data, i + 1)
        body = data[start:start + size]
        if section == 7:  # exports: count, then (name, kind, index) each
            count, k = leb(body, 0)
            kept = []
            for _ in range(count):
                length, name_at = leb(body, k)
                end = leb(body, name_at + length + 1)[1]
                if UNUSED in body[name_at:name_at + length]:
                    dropped += 1
                else:
                    kept.append(body[k:end])
                k = end
            body = uleb(len(kept)) + b"".join(kept)
        out += bytes([section]) + uleb(len(body)) + body
        i = start + size
    return bytes(out), dropped


def unexport(path: pathlib.Path) -> int:
    """Take the unused exports and the code only they reach out of the .wasm at `path`; returns
    how many exports went (0: nothing to do, the file is untouched)."""
    data, dropped = without_unused_exports(path.read_bytes())
    if not dropped:
        return 0
    wasm_opt = shutil.which("wasm-opt")
    if wasm_opt is None:
        raise SystemExit("scripts/unexport.py needs wasm-opt on PATH (scripts/setup.sh puts it there)")
    trimmed = path.with_suffix(".trimmed.wasm")
    trimmed.write_bytes(data)
    # Only the unreachable code goes; the rest is written as Trunk's -Oz left it (its stack IR
    # optimised again, which binaryen otherwise drops when it writes a module back).
    passes = ["--remove-unused-module-elements", "--generate-stack-ir", "--optimize-stack-ir"]
    levels = ["--shrink-level=2", "--optimize-level=2"]
    subprocess.run([wasm_opt, str(trimmed), *FEATURES, *passes, *levels, "-o", str(path)], check=True)
    trimmed.unlink()
    return dropped
