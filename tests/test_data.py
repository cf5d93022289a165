"""Benchmark data: the bundled copy is whole and checked, a data folder wins over it in the documented
order, and every way the data can be missing or wrong is one clear error."""

import gzip
import hashlib
import json
import shutil

import pytest

from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from dynbench_tasks.benchmarks import records as records_module
from dynbench_tasks.errors import DataError, SettingsError

COUNTS = {"cruxeval": 800, "cruxeval_input": 800, "avatar": 250, "codenet": 200, "transcoder": 568}


def _fresh_bundle(monkeypatch, folder):
    monkeypatch.setattr(records_module, "BUNDLED", folder)
    records_module._manifest.cache_clear()
    records_module._bundled.cache_clear()


@pytest.fixture(autouse=True)
def _clear_caches():
    yield
    records_module._manifest.cache_clear()
    records_module._bundled.cache_clear()


def test_bundled_copy_matches_its_manifest_and_loads_without_any_folder():
    manifest = json.loads((records_module.BUNDLED / records_module.MANIFEST).read_text())
    assert set(manifest) == {b.filename for b in BENCHMARKS.values()}
    for name, benchmark in BENCHMARKS.items():
        data = gzip.decompress((records_module.BUNDLED / f"{benchmark.filename}.gz").read_bytes())
        assert hashlib.sha256(data).hexdigest() == manifest[benchmark.filename]["sha256"]
        assert len(load_benchmark(name)) == COUNTS[name] == manifest[benchmark.filename]["records"]
    for extra in ("PROVENANCE.json", "ATTRIBUTION.md"):
        assert (records_module.BUNDLED / extra).is_file()


def test_an_explicit_folder_beats_the_environment_which_beats_the_bundled_copy(tmp_path, monkeypatch):
    for label in ("explicit", "environment"):
        (tmp_path / label).mkdir()
        (tmp_path / label / "cruxeval.jsonl").write_text(
            json.dumps({"id": label, "code": "def f(x):\n    return x", "input": "1", "output": "1"}) + "\n")
    assert load_benchmark("cruxeval")[0]["id"] == "sample_0"
    monkeypatch.setenv("DYNBENCH_DATA_DIR", str(tmp_path / "environment"))
    assert load_benchmark("cruxeval")[0]["id"] == "environment"
    assert load_benchmark("cruxeval", str(tmp_path / "explicit"))[0]["id"] == "explicit"
    found = records_module.read_data_file("cruxeval.jsonl", str(tmp_path / "explicit"))
    assert found.origin == str(tmp_path / "explicit")
    assert found.sha256 == hashlib.sha256((tmp_path / "explicit" / "cruxeval.jsonl").read_bytes()).hexdigest()


def test_a_damaged_bundled_file_is_refused_with_the_way_out(tmp_path, monkeypatch):
    shutil.copytree(records_module.BUNDLED, tmp_path / "bundle")
    packed = tmp_path / "bundle" / "codenet_py2java.jsonl.gz"
    data = bytearray(gzip.decompress(packed.read_bytes()))
    data[100] ^= 1
    packed.write_bytes(gzip.compress(bytes(data)))
    _fresh_bundle(monkeypatch, tmp_path / "bundle")
    with pytest.raises(DataError, match=r"codenet_py2java\.jsonl is missing or does not match its recorded sha256.*"
                                        r"reinstall dynbench"):
        load_benchmark("codenet")
    assert len(load_benchmark("cruxeval")) == 800  # the others are still fine
    (tmp_path / "bundle" / "MANIFEST.json").unlink()
    _fresh_bundle(monkeypatch, tmp_path / "bundle")
    with pytest.raises(DataError, match="bundled benchmark data is missing or damaged"):
        load_benchmark("cruxeval")


def test_a_folder_without_the_file_or_with_bad_records_names_file_and_line(tmp_path):
    with pytest.raises(DataError, match=r"avatar_py2java\.jsonl not found: the data folder .* must hold"):
        load_benchmark("avatar", str(tmp_path))
    (tmp_path / "cruxeval.jsonl").write_text('{"id": "a", "code": "x"}\nnot json\n')
    with pytest.raises(DataError, match=r"cruxeval\.jsonl:1: record lacks field\(s\) input, output"):
        load_benchmark("cruxeval", str(tmp_path))


@pytest.mark.slow
def test_the_hub_copy_fails_offline_with_the_way_back(monkeypatch):
    from dynbench_tasks.lmeval.settings import settings_from_metadata
    from dynbench_tasks.lmeval.sources import load_raw

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    with pytest.raises(DataError, match=r"cruxeval: the Hugging Face Hub dataset cruxeval-org/cruxeval could not be "
                                        r"loaded .*leave data_source at 'local' to use the bundled copy"):
        load_raw("cruxeval", None, "hub")
    with pytest.raises(SettingsError, match="transcoder has no Hugging Face Hub copy that carries its tests"):
        settings_from_metadata({"benchmark": "transcoder", "variant": "orig", "data_source": "hub"})
    with pytest.raises(SettingsError, match="data_source must be one of local, hub"):
        settings_from_metadata({"benchmark": "cruxeval", "variant": "orig", "data_source": "web"})
