"""The official FEVER scorer that `make install` provides (tools/install_fever_scorer.py)."""

import base64
import hashlib
import importlib
import importlib.util
import pathlib
import sys
import zipfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def _installer():
    spec = importlib.util.spec_from_file_location(
        "install_fever_scorer", REPO / "tools" / "install_fever_scorer.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_installed_scorer_scores_the_readme_example():
    # The example of the scorer's README: one prediction misses half of the only evidence set.
    scorer = pytest.importorskip("fever.scorer", reason="run `make install` (the FEVER scorer)")
    gold = [[[None, None, "page1", 1], [None, None, "page2", 2]]]
    predictions = [
        {
            "label": "REFUTES",
            "predicted_label": "REFUTES",
            "evidence": gold,
            "predicted_evidence": [["page1", 1]],
        },
        {
            "label": "REFUTES",
            "predicted_label": "REFUTES",
            "evidence": gold,
            "predicted_evidence": [["page1", 1], ["page2", 2], ["page3", 3]],
        },
    ]
    strict, accuracy, precision, recall, f1 = scorer.fever_score(predictions)
    assert (strict, accuracy) == (0.5, 1.0)
    assert recall == 0.5 and precision == pytest.approx(5 / 6)


def test_installer_rejects_an_egg_that_is_not_the_pinned_one(tmp_path):
    fake = tmp_path / "fever_scorer-2.0.39-py3.6.egg"
    fake.write_bytes(b"not the egg")
    with pytest.raises(SystemExit, match="sha256"):
        _installer().install(tmp_path / "site", egg=fake)
    assert not (tmp_path / "site").exists()


def test_installer_writes_the_package_and_a_record_pip_can_uninstall(tmp_path, monkeypatch):
    # A stand-in egg with the real layout; the pin is patched to its hash.
    installer = _installer()
    egg = tmp_path / "stand_in.egg"
    with zipfile.ZipFile(egg, "w") as archive:
        archive.writestr("fever/__init__.py", "")
        archive.writestr("fever/scorer.py", "def fever_score(predictions):\n    return 42\n")
        archive.writestr("fever2/scorer.py", "raise SystemExit")
    monkeypatch.setattr(installer, "EGG_SHA256", hashlib.sha256(egg.read_bytes()).hexdigest())
    site = tmp_path / "site"
    installer.install(site, egg=egg)
    assert not (site / "fever2").exists()
    record = (site / "fever_scorer-2.0.39.dist-info" / "RECORD").read_text().splitlines()
    for line in record:
        name, digest, size = line.split(",")
        if name.endswith("RECORD"):
            continue
        data = (site / name).read_bytes()
        expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        assert digest == "sha256=" + expected.decode() and int(size) == len(data)
    monkeypatch.syspath_prepend(str(site))
    saved = {
        name: sys.modules.pop(name) for name in ("fever", "fever.scorer") if name in sys.modules
    }
    try:
        assert importlib.import_module("fever.scorer").fever_score([]) == 42
    finally:  # later tests get the real scorer back
        for name in ("fever", "fever.scorer"):
            sys.modules.pop(name, None)
        sys.modules.update(saved)
