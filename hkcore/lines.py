"""Hand lines of JSON-lines input: how every reader of them opens a file and
splits its bytes (``hkscore score --jsonl`` / ``compare --jsonl`` / ``report``,
``POST /score/batch``, ``score_blocks`` and ``hkcore.dask.compare_files``).

A file is read decompressed when its name ends in ``.gz``, ``.bz2`` or
``.xz``; a name ending in the suffix of another compression (``.zip``,
``.zst``, ...) is refused rather than read as lines of compressed bytes.
Bytes split into lines at newlines; a line is numbered from 1 (blank ones
counted too), stripped of ASCII white space, and left out when blank. A line
longer than ``MAX_JSON + 1`` bytes is not held whole: its head of
``MAX_JSON + 2`` bytes stands for it (and is refused by its size when read as
a hand), the rest is skipped.
"""
from __future__ import annotations

import bz2
import gzip
import lzma
import sys
import zlib
from collections.abc import Callable, Generator, Iterator
from typing import BinaryIO, cast

from hkcore.errors import HandError, shown
from hkcore.models import MAX_JSON

__all__ = [
    "BLOCK",
    "READ",
    "REFUSED",
    "LineSplitter",
    "block_lines",
    "check_compression",
    "clip",
    "file_blocks",
    "file_lines",
]

#: the compressed files read, by the suffix of their name (what ``fsspec`` infers from the same suffix)
READ = {".gz": "gzip", ".bz2": "bz2", ".xz": "xz"}
#: suffixes of compressions that are not read: such a file is refused, by its name
REFUSED = {".zip": "zip", ".lzma": "lzma", ".zst": "zstd", ".lz4": "lz4", ".sz": "snappy", ".7z": "7z",
           ".br": "brotli", ".z": "compress", ".tgz": "gzip of a tar archive", ".tar": "tar"}
#: bytes of a file read at a time by ``file_blocks``
BLOCK = 1 << 20
#: bytes read at a time by ``file_lines``
_PIECE = 1 << 16
#: what reading a broken compressed file raises
_BROKEN = (OSError, EOFError, lzma.LZMAError, zlib.error)


def clip(line: bytes, limit: int = MAX_JSON) -> bytes:
    """A line as a reader of lines of at most ``limit + 2`` bytes sees it
    (a longer one is answered by its size, not read whole)."""
    return line[:limit + 2]


class LineSplitter:
    """Bytes given in pieces (``feed``, then ``end``) as numbered hand lines,
    by the rules above; at most about ``limit`` bytes (``MAX_JSON`` unless
    told) are held between pieces, and a line longer than ``limit + 1`` is
    its head of ``limit + 2`` bytes. ``number``: the number of the last line
    split off so far."""

    def __init__(self, first: int = 1, limit: int = MAX_JSON) -> None:
        self.number = first - 1
        self._limit = limit
        self._pending = b""
        self._skipping = False

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        """The lines that ``data`` completes."""
        if self._skipping:  # the rest of an over-long line, already answered by its head
            cut = data.find(b"\n")
            if cut < 0:
                return []
            data, self._skipping = data[cut + 1:], False
        parts = (self._pending + data).split(b"\n") if self._pending else data.split(b"\n")
        self._pending = parts.pop()
        out = self._numbered(parts)
        if len(self._pending) > self._limit + 1:
            out += self._numbered([self._pending])
            self._pending, self._skipping = b"", True
        return out

    def end(self) -> list[tuple[int, bytes]]:
        """The last line, when the input does not end with a newline."""
        rest, self._pending, self._skipping = self._pending, b"", False
        return self._numbered([rest]) if rest else []

    def _numbered(self, parts: list[bytes]) -> list[tuple[int, bytes]]:
        out = []
        for raw in parts:
            self.number += 1
            if line := clip(raw, self._limit).strip():
                out.append((self.number, line))
        return out


def block_lines(block: bytes, first: int = 1) -> list[tuple[int, bytes]]:
    """The numbered hand lines of ``block`` (whole lines, the first numbered ``first``)."""
    splitter = LineSplitter(first)
    return splitter.feed(block) + splitter.end()


def check_compression(path: str, label: str) -> str | None:
    """The compression ``path`` is read with, by its name (None: none); a
    ``HandError`` naming ``label`` and the file for a compression not read."""
    name = path.lower()
    for suffix, kind in READ.items():
        if name.endswith(suffix):
            return kind
    for suffix, kind in REFUSED.items():
        if name.endswith(suffix):
            raise HandError(f"{label}: cannot read {shown(path)}: its name says {kind}, which is not read; "
                            f"give the lines uncompressed, or compressed as {', '.join(READ)}",
                            label.lstrip("-"), path)
    return None


def _opened(source: str, label: str) -> tuple[BinaryIO, BinaryIO]:
    """(the stream of ``source``'s bytes, decompressed; the file itself) -- stdin for ``-``."""
    if source == "-":
        return sys.stdin.buffer, sys.stdin.buffer
    kind = check_compression(source, label)
    try:
        raw: BinaryIO = open(source, "rb")  # noqa: SIM115 - closed by the reader that asked for it
    except OSError as exc:
        raise HandError(f"{label}: cannot read {shown(source)}: {exc.strerror}", label.lstrip("-"),
                        source) from None
    if kind == "gzip":
        return cast(BinaryIO, gzip.GzipFile(fileobj=raw)), raw
    if kind == "bz2":
        return cast(BinaryIO, bz2.BZ2File(raw)), raw
    if kind == "xz":
        return cast(BinaryIO, lzma.LZMAFile(raw)), raw
    return raw, raw


def _broken(source: str, label: str, exc: BaseException) -> HandError:
    return HandError(f"{label}: cannot read {shown(source)}: {type(exc).__name__}: {shown(str(exc))}",
                     label.lstrip("-"), source)


def file_lines(source: str, label: str, progress: Callable[[int], None] | None = None,
               limit: int = MAX_JSON) -> Generator[tuple[int, bytes], None, None]:
    """(line number, line) of the hand lines of the file ``source`` (``-``:
    stdin), read a piece at a time as it arrives (a line longer than ``limit
    + 1`` bytes as its head, as ``LineSplitter`` splits). ``label``: how the caller
    names the input, for errors (``HandError``: no such file, a compression
    not read, a broken compressed file). ``progress``: told the file's bytes
    read so far (compressed ones for a compressed file)."""
    stream, raw = _opened(source, label)
    read = getattr(stream, "read1", stream.read)
    splitter = LineSplitter(limit=limit)
    try:
        while True:
            try:
                piece = read(_PIECE)
            except _BROKEN as exc:
                raise _broken(source, label, exc) from None
            if not piece:
                break
            if progress is not None:
                progress(raw.tell())
            yield from splitter.feed(piece)
        yield from splitter.end()
    finally:
        if raw is not sys.stdin.buffer:
            stream.close()
            raw.close()


def file_blocks(source: str, label: str, progress: Callable[[int], None] | None = None,
                size: int = BLOCK) -> Iterator[tuple[int, bytes]]:
    """The file ``source`` in blocks of about ``size`` bytes of whole lines,
    each with the number of its first line, for ``block_lines`` (an over-long
    line's rest left out); errors and ``progress`` as for ``file_lines``."""
    stream, raw = _opened(source, label)
    try:
        first = 1
        while True:
            try:
                block = stream.read(size)
                if block and not block.endswith(b"\n"):
                    block += _rest_of_line(stream)
            except _BROKEN as exc:
                raise _broken(source, label, exc) from None
            if not block:
                return
            if progress is not None:
                progress(raw.tell())
            yield first, block
            first += block.count(b"\n")
    finally:
        if raw is not sys.stdin.buffer:
            stream.close()
            raw.close()


def _rest_of_line(stream: BinaryIO) -> bytes:
    """The rest of the line a block stopped in, up to its newline: at most
    the head ``clip`` keeps of an over-long line, the rest read and left out."""
    rest = stream.readline(MAX_JSON + 2)
    if len(rest) > MAX_JSON + 1 and not rest.endswith(b"\n"):
        while True:
            more = stream.readline(1 << 16)
            if not more or more.endswith(b"\n"):
                break
        rest += b"\n"
    return rest
