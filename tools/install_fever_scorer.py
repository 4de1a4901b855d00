"""Installs the official FEVER scorer (`fever-scorer` 2.0.39, sheffieldnlp) into this Python.

    python tools/install_fever_scorer.py          # what `make install` runs

Why not `pip install fever-scorer`: the release's PyPI sdist no longer builds. Its setup.py
passes `license=license`, the interpreter's built-in `license` object, and setuptools (65 and
later at least) fails on it while writing PKG-INFO. The same release also ships, on PyPI, a
py3.6 egg: a zip whose `fever/scorer.py` is byte-identical to the sdist's and pure Python
(its only dependency is `six`). This script downloads that egg, checks its pinned sha256, and
copies the `fever` package into this interpreter's site-packages with a `dist-info` record, so
`pip show fever-scorer` lists it and `pip uninstall fever-scorer` removes it. The egg's other
package, `fever2` (a command-line "potency" script for the shared task), is not needed.

Nothing is vendored in this repository: the scorer's repository carries no licence file, so the
code is fetched from PyPI at install time only.
"""

import argparse
import base64
import hashlib
import io
import pathlib
import sys
import sysconfig
import tempfile
import zipfile

from gcnn_match.data.download import fetch

NAME, VERSION = "fever-scorer", "2.0.39"
EGG_URL = (
    "https://files.pythonhosted.org/packages/5f/32/"
    "5b7f7fd7bac636057017b59ba43bc4d64bd1bfb73d26efd9dfc2b2714436/"
    "fever_scorer-2.0.39-py3.6.egg"
)
EGG_SHA256 = "3191a97f01659211db890098867a74010831672e6ab9e1b4167a59729f15ad1e"
MODULES = ("fever/__init__.py", "fever/scorer.py")
METADATA = f"""Metadata-Version: 2.1
Name: {NAME}
Version: {VERSION}
Summary: Fact Extraction and VERification scorer
Home-page: https://github.com/sheffieldnlp/fever-scorer
Author: James Thorne
Requires-Dist: six
"""


def _record_line(relative, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{relative},sha256={digest},{len(data)}"


def egg_bytes(egg=None):
    """The pinned egg's bytes: downloaded from PyPI, or read from `egg`; sha256-checked."""
    if egg is None:
        with tempfile.TemporaryDirectory() as tmp:
            return fetch(EGG_URL, pathlib.Path(tmp) / "scorer.egg", EGG_SHA256).read_bytes()
    data = pathlib.Path(egg).read_bytes()
    if hashlib.sha256(data).hexdigest() != EGG_SHA256:
        raise SystemExit(f"{egg}: not the fever-scorer {VERSION} egg (sha256 {EGG_SHA256})")
    return data


def install(site_packages, egg=None):
    """Writes `fever/` and its dist-info under `site_packages`; returns the installed paths.

    Args:
        site_packages: the target directory (this interpreter's purelib by default).
        egg: an already downloaded egg (checked against the pinned sha256 all the same);
            None downloads it from PyPI.
    """
    site_packages = pathlib.Path(site_packages)
    with zipfile.ZipFile(io.BytesIO(egg_bytes(egg))) as archive:
        files = {name: archive.read(name) for name in MODULES}
    dist_info = f"fever_scorer-{VERSION}.dist-info"
    files.update(
        {
            f"{dist_info}/METADATA": METADATA.encode(),
            f"{dist_info}/INSTALLER": b"gcnn_match tools/install_fever_scorer.py\n",
            f"{dist_info}/top_level.txt": b"fever\n",
        }
    )
    record = [_record_line(name, data) for name, data in files.items()]
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    for name, data in files.items():
        target = site_packages / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return [site_packages / name for name in files]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--site_packages",
        default=sysconfig.get_paths()["purelib"],
        help="target directory (default: this interpreter's site-packages)",
    )
    parser.add_argument("--egg", default=None, help="use this downloaded egg (sha256-checked)")
    args = parser.parse_args(argv)
    install(args.site_packages, args.egg)
    print(
        f"installed {NAME} {VERSION} (package `fever`, from the sha256-pinned PyPI egg) "
        f"into {args.site_packages}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
