"""Builds the compiled core (hkcore.core._ccore) and the compiled table engine
(hkcore.table.flow._cengine) with Cython when it can.

Without a working C compiler the build says so and hkcore installs with its
pure-Python core (``hkcore.core.IMPLEMENTATION == "python"``), which gives
the same answers, slower. ``HKCORE_REQUIRE_COMPILED=1`` makes a failed
build an error instead (CI sets it).
"""
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

REQUIRED = os.environ.get("HKCORE_REQUIRE_COMPILED", "") == "1"
FAILURES = (CCompilerError, ExecError, PlatformError, OSError)


def _skip(exc: Exception) -> None:
    if REQUIRED:
        raise exc
    print(f"WARNING: hkcore's compiled core could not be built ({type(exc).__name__}: {exc}); "
          "installing the pure-Python core (same answers, slower). Install a C compiler and reinstall "
          "for the compiled one.", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """build_ext that leaves the compiled core out when it cannot be built, compiling the modules in parallel."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = True  # a compiler process per CPU

    def run(self) -> None:
        try:
            super().run()
        except FAILURES as exc:
            _skip(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except FAILURES as exc:
            _skip(exc)


def extensions() -> list:
    try:
        from Cython.Build import cythonize
    except ImportError as exc:  # Cython is a build requirement; a bare setup.py call may lack it
        _skip(exc)
        return []
    return cythonize(
        [Extension("hkcore.core._ccore", ["hkcore/core/_ccore.pyx"],
                   depends=["hkcore/core/_kernel.pxi", "hkcore/core/_ingest.pxi", "hkcore/core/_ccore.pxd"],
                   extra_compile_args=["-O3"]),
         Extension("hkcore.table.flow._cengine", ["hkcore/table/flow/_cengine.pyx"],
                   depends=["hkcore/core/_ccore.pxd", "hkcore/table/flow/_cengine.pxd", "hkcore/table/flow/_codes.pxd"],
                   extra_compile_args=["-O3"]),
         Extension("hkcore.table.players._cbots", ["hkcore/table/players/_cbots.pyx"],
                   depends=["hkcore/core/_ccore.pxd", "hkcore/table/players/_cbots.pxd", "hkcore/table/flow/_codes.pxd"],
                   extra_compile_args=["-O3"]),
         # the value bot's floats must be Python's to the bit: no fused multiply-adds
         Extension("hkcore.table.players._cvalue", ["hkcore/table/players/_cvalue.pyx"],
                   depends=["hkcore/core/_ccore.pxd", "hkcore/table/players/_cbots.pxd", "hkcore/table/flow/_codes.pxd",
                            "hkcore/table/players/_cvalue.pxd"],
                   extra_compile_args=["-O3", "-ffp-contract=off"]),
         # the bots' hand loop inside the engine (the value bot's floats: as _cvalue)
         Extension("hkcore.table.players._cloop", ["hkcore/table/players/_cloop.pyx"],
                   depends=["hkcore/table/flow/_cengine.pxd", "hkcore/table/flow/_codes.pxd",
                            "hkcore/table/players/_cbots.pxd", "hkcore/table/players/_cvalue.pxd",
                            "hkcore/table/players/_cloop.pxd"],
                   extra_compile_args=["-O3", "-ffp-contract=off"]),
         Extension("hkcore.table.learning._cvec", ["hkcore/table/learning/_cvec.pyx"],
                   depends=["hkcore/table/flow/_cengine.pxd", "hkcore/table/flow/_codes.pxd",
                            "hkcore/table/players/_cbots.pxd", "hkcore/table/players/_cvalue.pxd",
                            "hkcore/table/players/_cloop.pxd"],
                   extra_compile_args=["-O3"])],
        compiler_directives={
            "language_level": "3",
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
