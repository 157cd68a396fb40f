"""The Python examples of README.md and docs/*.md run and print what they show (doctest)."""
from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: the pages whose examples need an extra installed (the module that extra brings)
NEEDS = {"server.md": "fastapi", "training.md": "numpy"}


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_examples_run(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not path.is_file():  # tests/ copied beside an installed wheel, without the docs
        pytest.skip(f"{path.name} is not beside tests/ (it ships in the sdist and the repository, not in the wheel)")
    if path.name in NEEDS:
        pytest.importorskip(NEEDS[path.name], reason=f"{path.name}'s examples need {NEEDS[path.name]} (an extra)")
    monkeypatch.chdir(tmp_path)  # as a user would: outside the source tree
    text = path.read_text(encoding="utf-8").replace("\n```", "\n\n```")  # a fence ends an example's output
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, path.name, str(path), 0)
    if not test.examples:
        pytest.skip(f"{path.name} shows no Python session to run")
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {path.name} failed (output above)"
