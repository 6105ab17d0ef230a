"""The site's texts, read from the message catalogues in src/i18n/*.rs.

The catalogues (`catalogue! { pub enum Name { Variant => ("English", "中文"), … } }`, or
`Variant => r#"…"#` for a text the same in both languages, such as a formula) are the one place
every text is written. The published .wasm does not carry them (the `external-texts`
feature): the post-build step writes them into the page as JSON, {"Name": [[English, Chinese],
…]} in declaration order, and the Wasm finds a message by its catalogue and position. `cargo test` checks that this reader agrees with the compiler on
every message (`i18n::tests::the_page_gets_every_text_the_compiler_sees`).

Run alone, prints the JSON.
"""

import json
import pathlib
import re
import sys

STRING = r'"(?:[^"\\]|\\.)*"'
ENTRY = re.compile(r"(\w+)\s*=>\s*\(\s*(" + STRING + r")\s*,\s*(" + STRING + r")\s*,?\s*\)", re.S)
# A text the same in both languages (a formula): one raw literal.
SINGLE = re.compile(r'(\w+)\s*=>\s*r#"(.*?)"#\s*,', re.S)
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}


def unescape(literal: str) -> str:
    """The value of a Rust string literal (quotes included in `literal`)."""
    body, out, i = literal[1:-1], [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = body[i + 1]
        if e in ESCAPES:
            out.append(ESCAPES[e])
            i += 2
        elif e == "u":
            end = body.index("}", i)
            out.append(chr(int(body[i + 3 : end], 16)))
            i = end + 1
        elif e == "x":
            out.append(chr(int(body[i + 2 : i + 4], 16)))
            i += 4
        elif e == "\n":  # a line continuation skips the next line's indentation
            i += 2
            while i < len(body) and body[i] in " \t\n\r":
                i += 1
        else:
            raise ValueError(f"unknown escape \\{e} in {literal}")
    return "".join(out)


def catalogue_texts(root: pathlib.Path) -> dict:
    """{"Name": [[English, Chinese], …]}: every message of every catalogue, in order."""
    texts = {}
    for path in sorted((root / "src" / "i18n").glob("*.rs")):
        source = path.read_text(encoding="utf-8")
        for block in re.finditer(r"catalogue! \{\s*(?:(?://[^\n]*|#\[[^\n]*\])\s*)*pub enum (\w+) \{(.*?)\n    \}\n\}", source, re.S):
            name, body = block.group(1), block.group(2)
            texts[name] = []
            # Comments out, line by line (a "//" inside a string never starts a line).
            body = "\n".join(line for line in body.split("\n") if not line.lstrip().startswith("//"))
            for entry in ENTRY.finditer(body):
                texts[name].append([unescape(entry.group(2)), unescape(entry.group(3))])
            if not texts[name]:
                texts[name] = [[e.group(2), e.group(2)] for e in SINGLE.finditer(body)]
    return texts


def script_element(root: pathlib.Path) -> str:
    """The texts as a JSON script element for the page (`</` escaped so it cannot end it)."""
    data = json.dumps(catalogue_texts(root), ensure_ascii=False, separators=(",", ":"))
    return '<script type="application/json" id="attention-lab-texts">' + data.replace("</", "<\\/") + "</script>"


if __name__ == "__main__":
    root = pathlib.Path(__file__).resolve().parent.parent
    json.dump(catalogue_texts(root), sys.stdout, ensure_ascii=False, indent=0)
