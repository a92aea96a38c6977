"""Benchmark: how much the README's run command installs. Run by hand; prints figures.

    .venv/bin/python benchmarks/bench_install.py [--keep DIR]

Makes a fresh virtual environment in a temporary folder (or DIR, kept afterwards), installs this
project into it as the README's run command does (`pip install -e .`: no extras), and prints its
size and the largest installed packages. Needs the package index that pip uses (a minute or two).

Budget (../shared/DESIGN.md): at most 800 MB, no PyTorch.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIB = 1024 * 1024
BUDGET_MB = 800


def folder_size(folder: Path) -> int:
    """Bytes of every file under `folder` (links not followed)."""
    total = 0
    for parent, _, files in os.walk(folder):
        for name in files:
            path = Path(parent, name)
            if not path.is_symlink():
                total += path.stat().st_size
    return total


def installed(environment: Path) -> None:
    """The project installed into a fresh environment at `environment`."""
    venv.create(environment, with_pip=True)
    pip = environment / "bin" / "pip"
    subprocess.run([str(pip), "install", "-q", "-e", str(ROOT)], check=True)


def site_packages(environment: Path) -> Path:
    return next(environment.glob("lib/python3*/site-packages"))


def largest_packages(environment: Path, count: int = 12) -> list[tuple[str, int]]:
    """The `count` largest entries of the environment's site-packages, with their bytes."""
    sizes = [
        (entry.name, folder_size(entry) if entry.is_dir() else entry.stat().st_size)
        for entry in site_packages(environment).iterdir()
    ]
    return sorted(sizes, key=lambda item: -item[1])[:count]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="make the environment here and keep it")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        environment = args.keep or Path(scratch) / "venv"
        installed(environment)
        total = folder_size(environment)
        print(f"README run install: {total / MIB:.0f} MiB ({total / 1e6:.0f} MB) in {environment}")
        spare = BUDGET_MB - total / 1e6
        verdict = f"{spare:.0f} MB to spare" if spare >= 0 else f"OVER by {-spare:.0f} MB"
        print(f"  budget {BUDGET_MB} MB: {verdict}")
        for name, size in largest_packages(environment):
            print(f"  {name:<40} {size / MIB:7.1f} MiB")
        site = site_packages(environment)
        heavy = [name for name in ("torch", "scipy", "ultralytics") if (site / name).is_dir()]
        print(f"  PyTorch, SciPy or Ultralytics installed: {', '.join(heavy) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
