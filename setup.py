"""Builds the compiled decomposition core (hkcore.core._ccore) with Cython."""
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "hkcore.core._ccore",
        ["hkcore/core/_ccore.pyx"],
        depends=["hkcore/core/_kernel.pxi", "hkcore/core/_ingest.pxi"],
        extra_compile_args=["-O3"],
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": "3",
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
