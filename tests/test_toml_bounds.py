"""TOML text from outside is read in time and memory bounded by its length: a dotted key of many parts
(whose parse time grows with the square of its parts) is refused before parsing."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import hkcore
from hkcore.preset import MAX_KEY_PARTS


def dotted(parts: int) -> str:
    return ".".join(["a"] * parts) + " = 1\n"


@pytest.mark.parametrize("parts", [MAX_KEY_PARTS + 1, 16_000, 100_000])
def test_a_long_dotted_key_is_refused_at_once(parts: int) -> None:
    start = time.monotonic()
    with pytest.raises(hkcore.HkcoreError, match=rf"dotted key of more than {MAX_KEY_PARTS} parts at line 1"):
        hkcore.load_preset(dotted(parts))
    assert time.monotonic() - start < 1.0


def test_a_key_of_the_most_parts_is_read_as_toml() -> None:
    # 32 parts are allowed: the key is then an unknown top-level key, named as such
    with pytest.raises(hkcore.HkcoreError, match=r"unknown key 'a'"):
        hkcore.load_preset(dotted(MAX_KEY_PARTS))


@pytest.mark.parametrize("text", [
    'x = { ' + ".".join(["a"] * 40) + ' = 1 }\n',            # inside an inline table
    "[" + ".".join(["t"] * 40) + "]\n",                       # a table header
    '"a".' * 40 + 'b = 1\n',                                  # quoted parts
    'name = "x"\n' * 3 + ".".join(["a"] * 40) + " = 1\n",     # on a later line
])
def test_every_form_of_long_key_is_refused(text: str) -> None:
    with pytest.raises(hkcore.HkcoreError, match=r"dotted key of more than"):
        hkcore.load_preset(text)


def test_a_preset_file_is_bounded_too(tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text('extends = "mistboard"\n' + dotted(20_000), encoding="utf-8")
    start = time.monotonic()
    with pytest.raises(hkcore.HkcoreError) as err:
        hkcore.load_preset(f)
    assert "house.toml" in str(err.value) and "dotted key" in str(err.value)
    assert time.monotonic() - start < 1.0


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_the_service_refuses_dotted_key_bombs_in_time_and_memory() -> None:
    serving = pytest.importorskip("helpers.serving" if Path(__file__).with_name("helpers").is_dir() else "serving")
    if serving.missing_server_deps():
        pytest.skip(serving.missing_server_deps())
    hand = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N"
    with serving.server_process() as (url, proc):
        before = rss_kib(proc.pid)
        for parts in (16_000, 24_000, 100_000):
            toml = 'extends = "mistboard"\n' + dotted(parts)
            for path, body, headers in (
                    ("/score", None, {"hand": hand, "preset": toml}),
                    ("/presets/check", toml.encode(), None)):
                start = time.monotonic()
                if body is None:
                    status, _, raw = serving.call(url + path, "POST", headers)
                else:
                    status, _, raw = serving.call(url + path, "POST", raw=body,
                                                  headers={"Content-Type": "application/toml"})
                assert 400 <= status < 500 and b"dotted key" in raw, (path, status, raw[:200])
                assert time.monotonic() - start < 1.0, (path, parts)
        assert rss_kib(proc.pid) - before < 50 * 1024
