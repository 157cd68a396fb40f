"""Debian's chromium driven headless by Playwright, for the page tests (tests/test_page.py,
tests/test_play_page.py, the reports' tests): where it is, why it cannot run here, the browser
launched, a report file opened, where screenshots go, and whether a screenshot is blank."""
from __future__ import annotations

import base64
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from helpers.serving import missing_server_deps

CHROMIUM = os.environ.get("HKCORE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("HKCORE_ARTIFACTS") or Path(tempfile.gettempdir()) / "hkcore-artifacts")


def why_not() -> str | None:
    """Why the page tests cannot run here (None when they can)."""
    if os.environ.get("HKCORE_PURE_PYTHON") == "1":
        return "the page test runs once, on the compiled core (the pure-Python run skips it to save time)"
    missing = missing_server_deps()
    if missing:
        return missing
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright; the browser is Debian's chromium)"
    if not Path(CHROMIUM).is_file():
        return f"no chromium at {CHROMIUM} (apt-get install chromium, or set HKCORE_CHROMIUM)"
    return None


def chromium_or_skip() -> str:
    """The chromium the tests drive; the calling test skips where there is none."""
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium; never downloaded by the tests)")
    return CHROMIUM


@contextmanager
def launched() -> Iterator[Any]:
    """The chromium, headless, for the length of the block."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            browser.close()


def file_page(browser: Any, path: Path, requests: list[str]) -> Any:
    """A 1280x1000 page showing the file ``path``; every URL it asks for is added to ``requests``."""
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    return page


def colours(page: Any, png: bytes) -> int:
    """Distinct colours of a PNG, counted by the browser (no imaging library needed)."""
    data = "data:image/png;base64," + base64.b64encode(png).decode()
    return int(page.evaluate("""async (src) => {
        const img = new Image(); img.src = src; await img.decode();
        const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
        const g = c.getContext('2d'); g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data; const seen = new Set();
        for (let i = 0; i < d.length; i += 4) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
        return seen.size; }""", data))
