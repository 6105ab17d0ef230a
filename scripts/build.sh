#!/usr/bin/env bash
# Sets everything up and builds the site to publish: the release build in dist/ (exactly the
# files to copy to any web server: no development script in them) and one archive of them,
# attention-lab-site.zip, to hand to a school's IT. Prints the build's version, the one the
# help dialog (?) shows.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
trunk build --release
python3 - <<'PY'
import pathlib, re, zipfile
dist = pathlib.Path("dist")
with zipfile.ZipFile("attention-lab-site.zip", "w", zipfile.ZIP_DEFLATED) as archive:
    for path in sorted(p for p in dist.rglob("*") if p.is_file() and p.name != ".trunk-lock"):
        archive.write(path, path.relative_to(dist).as_posix())
version = re.search(r'name="attention-lab-version" content="([0-9a-f]+)"', (dist / "index.html").read_text())
print(f"[build] dist/ and attention-lab-site.zip are ready to publish (version {version.group(1) if version else '?'})")
PY
