"""Downloads and checksums for the registered datasets (standard library only).

- `fetch`: stream a URL to `dest.part`, resume a partial `.part` with an HTTP Range request,
  verify the sha256, then rename atomically, so a file at its final path is always complete.
  For a zip URL the archive is kept next to the data (other members reuse it) and only the
  needed member is extracted.
- `ensure_dataset`: for every split, keep what `resolve_split` finds, else fetch the first
  candidate with a URL; whatever cannot be fetched (no URL, network down) ends in one
  `MissingDataError` listing what to place where.
- `verify`: recompute the pinned checksums of the files present.
"""

import dataclasses
import gzip
import hashlib
import os
import pathlib
import shutil
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable, Sequence

from gcnn_match.data.registry import (
    FileSpec,
    MissingDataError,
    get_dataset,
    missing_message,
    missing_summary,
    resolve_split,
)

PathLike = str | pathlib.Path
_CHUNK = 1 << 20


class DownloadError(OSError):
    """The network or the server failed; a partial `.part` file is kept for resuming."""


class ChecksumError(ValueError):
    """A file's sha256 differs from the pinned value."""


def sha256_of(path: PathLike, decompress: bool = False) -> str:
    """Hex sha256 of a file's bytes (or of its gzip-decompressed bytes)."""
    digest = hashlib.sha256()
    with (gzip.open if decompress else open)(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _finish(part: pathlib.Path, dest: pathlib.Path, sha256: str | None, source: str) -> None:
    """Check the completed `.part` against `sha256`, then move it into place atomically."""
    if sha256 is not None:
        actual = sha256_of(part)
        if actual != sha256:
            part.unlink()
            raise ChecksumError(
                f"{source}: sha256 mismatch: expected {sha256}, got {actual} "
                f"(the partial file {part} was deleted). Rerun to fetch it "
                "again; if the mismatch persists the file changed upstream: "
                "check the URL and the pin in gcnn_match/data/catalogue/"
            )
    os.replace(part, dest)


def _announced_size(response) -> int | None:
    """The full file size the server announced (Content-Range total, else Content-Length)."""
    content_range = response.headers.get("Content-Range", "")
    total = content_range.rpartition("/")[2]
    if total.isdigit():
        return int(total)
    length = response.headers.get("Content-Length")
    return int(length) if response.status == 200 and length and length.isdigit() else None


def _check_complete(url: str, part: pathlib.Path, size: int | None) -> None:
    # A connection that closes early ends the read without an exception: compare sizes, so a
    # truncated file is never moved into place (even when no checksum is pinned).
    got = part.stat().st_size
    if size is not None and got != size:
        raise DownloadError(
            f"could not fetch {url}: truncated download, {got:,} of {size:,} "
            f"bytes (partial data kept in {part}; rerun to resume)"
        )


def _download(
    url: str, dest: pathlib.Path, sha256: str | None, resume: bool, timeout: float
) -> None:
    part = dest.with_name(dest.name + ".part")
    dest.parent.mkdir(parents=True, exist_ok=True)
    offset = part.stat().st_size if resume and part.exists() else 0
    size = None
    request = urllib.request.Request(url, headers={"User-Agent": "gcnn_match"})
    if offset:
        request.add_header("Range", f"bytes={offset}-")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            # 206 = the server honoured the Range; a plain 200 resends the whole file.
            mode = "ab" if offset and response.status == 206 else "wb"
            with open(part, mode) as out:
                shutil.copyfileobj(response, out, _CHUNK)
            size = _announced_size(response)
    except urllib.error.HTTPError as err:
        # 416: the .part already holds the whole file; the checksum below decides.
        if not (err.code == 416 and offset):
            raise DownloadError(f"could not fetch {url}: HTTP {err.code} {err.reason}") from err
    except (urllib.error.URLError, OSError) as err:
        raise DownloadError(
            f"could not fetch {url}: {getattr(err, 'reason', err)} (partial data kept in {part})"
        ) from err
    _check_complete(url, part, size)
    _finish(part, dest, sha256, url)


def _extract(archive: pathlib.Path, member: str, dest: pathlib.Path, sha256: str | None) -> None:
    part = dest.with_name(dest.name + ".part")
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        with zipfile.ZipFile(archive) as zf, zf.open(member) as src, open(part, "wb") as out:
            shutil.copyfileobj(src, out, _CHUNK)
    except KeyError:
        raise DownloadError(f"{archive} has no member {member!r}") from None
    except zipfile.BadZipFile as err:
        raise DownloadError(f"{archive} is not a valid zip ({err}); delete it and retry") from err
    _finish(part, dest, sha256, f"{archive}!{member}")


def fetch(
    url: str,
    dest: PathLike,
    sha256: str | None = None,
    resume: bool = True,
    member: str | None = None,
    archive: PathLike | None = None,
    timeout: float = 60.0,
) -> pathlib.Path:
    """Download `url` to `dest` (or extract `member` of the zip at `url` to `dest`).

    Args:
        url: http(s) URL.
        dest: final path; written through `dest.part` and renamed when complete and verified.
        sha256: expected hash of `dest` (of the extracted member for a zip), or None.
        resume: continue an existing `.part` with a Range request (else start over).
        member: path inside the zip to extract; the zip itself is saved at `archive`
            (default: next to `dest`, under the URL's file name) and reused by later calls.
        timeout: seconds per network operation.

    Raises:
        DownloadError: network / HTTP failure (the `.part` stays for a later resume).
        ChecksumError: hash mismatch (the `.part` is deleted; the message has both hashes).
    """
    dest = pathlib.Path(dest)
    if member is None:
        _download(url, dest, sha256, resume, timeout)
        return dest
    archive = (
        pathlib.Path(archive)
        if archive
        else (dest.parent / pathlib.PurePosixPath(urllib.parse.urlparse(url).path).name)
    )
    if not archive.is_file():
        _download(url, archive, None, resume, timeout)
    _extract(archive, member, dest, sha256)
    return dest


@dataclasses.dataclass
class EnsureReport:
    """What `ensure_dataset` did: (split, path) found in place, and fetched."""

    name: str
    found: list[tuple[str, pathlib.Path]] = dataclasses.field(default_factory=list)
    fetched: list[tuple[str, pathlib.Path]] = dataclasses.field(default_factory=list)


def _archive_path(data_dir: pathlib.Path, name: str, file_spec: FileSpec) -> pathlib.Path:
    """Zips live at `{data_dir}/{dataset}/<zip name>`, shared by all splits they contain."""
    return data_dir / name / pathlib.PurePosixPath(urllib.parse.urlparse(file_spec.url).path).name


def ensure_dataset(
    name: str,
    data_dir: PathLike,
    splits: Sequence[str] | None = None,
    log: Callable[[str], None] = print,
    timeout: float = 60.0,
) -> EnsureReport:
    """Make every requested split (default: all) present under `data_dir`.

    Splits already present are left alone. A missing split is fetched from the first candidate
    with a URL. Raises MissingDataError, after trying every split, listing for each split still
    missing the files to place (paths, URLs, how to get them).
    """
    spec = get_dataset(name)
    data_dir = pathlib.Path(data_dir)
    report = EnsureReport(name)
    missing, summaries = [], []
    for split in splits or list(spec.splits):
        try:
            path, _ = resolve_split(name, split, data_dir)
        except MissingDataError:
            pass
        else:
            report.found.append((split, path))
            log(f"{name}/{split}: found {path}")
            continue
        failures = []
        for file_spec in spec.splits[split]:
            if not file_spec.url:
                continue
            dest = data_dir / file_spec.path
            try:
                fetch(
                    file_spec.url,
                    dest,
                    file_spec.sha256,
                    member=file_spec.member,
                    archive=_archive_path(data_dir, name, file_spec),
                    timeout=timeout,
                )
            except (DownloadError, ChecksumError) as err:
                failures.append(str(err))
                log(f"{name}/{split}: {err}")
                continue
            report.fetched.append((split, dest))
            log(f"{name}/{split}: fetched {dest}")
            break
        else:
            message = missing_message(name, split, data_dir)
            missing.append("\n".join([message, *(f"  (failed: {f})" for f in failures)]))
            summaries.append(missing_summary(name, split, data_dir))
    if missing:
        raise MissingDataError("\n\n".join(missing), "; ".join(summaries))
    return report


@dataclasses.dataclass(frozen=True)
class Check:
    """One checksum check: `ok` is None when nothing is pinned for the file."""

    path: pathlib.Path
    kind: str | None
    expected: str | None
    actual: str | None

    @property
    def ok(self) -> bool | None:
        return None if self.expected is None else self.expected == self.actual

    def describe(self) -> str:
        if self.ok is None:
            return f"unpinned  {self.path}"
        status = (
            "ok"
            if self.ok
            else (
                f"MISMATCH (expected {self.expected}, got "
                f"{self.actual}; delete the file and download it again)"
            )
        )
        return f"{status:<8}  {self.path} [{self.kind}]"


def verify(name: str, data_dir: PathLike) -> list[Check]:
    """Recompute the pinned checksums of every registered file of `name` present in `data_dir`
    (splits and resources). Files without a pin are reported with `ok=None`."""
    spec = get_dataset(name)
    data_dir = pathlib.Path(data_dir)
    checks = []
    for candidates in (*spec.splits.values(), *spec.resources.values()):
        for file_spec in candidates:
            path = data_dir / file_spec.path
            if not path.is_file():
                continue
            pins = [
                (kind, expected, decompress)
                for kind, expected, decompress in (
                    ("sha256", file_spec.sha256, False),
                    ("content_sha256", file_spec.content_sha256, True),
                )
                if expected
            ]
            checks.extend(
                Check(path, kind, expected, sha256_of(path, decompress))
                for kind, expected, decompress in pins
            )
            if not pins:
                checks.append(Check(path, None, None, None))
    return checks
