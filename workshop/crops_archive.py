"""Classifier crops packed as one archive for a lent GPU machine (`train.sh`'s EXTRA_CROPS): the
device tool counts files heavily, so thousands of loose crops travel as one `tar.gz` of JPEGs,
each as `<CLASS>/<NAME>.jpg`, ready to unpack into a training set's `classify/train`.

    .venv/bin/python workshop/crops_archive.py --out .gpu/small43.tar.gz \\
        --all datasets/generated/rc43neg/train \\
        --sample datasets/generated/rc43small/train datasets/generated/rc43kd/train --count 6000

`--all` folders go in whole; of the `--sample` folders' crops (every class but `none`), `--count`
drawn at random (session 43: 6,391 hard negatives at least 8 px tall and 6,000 small true
indices, 10.7 MB).
"""

from __future__ import annotations

import argparse
import io
import random
import tarfile
from pathlib import Path

from PIL import Image

from blackcat.vision.classes import NOT_AN_INDEX

JPEG_QUALITY = 90


def crops_in(folders: list[Path], with_none: bool = True) -> list[Path]:
    """The crops (`<CLASS>/<NAME>.png`) in class folders' parents, `none` left out unless
    `with_none`."""
    return sorted(
        path
        for folder in folders
        for path in folder.glob("*/*.png")
        if with_none or path.parent.name != NOT_AN_INDEX
    )


def as_jpeg(path: Path) -> bytes:
    buffer = io.BytesIO()
    with Image.open(path) as crop:
        crop.convert("RGB").save(buffer, "JPEG", quality=JPEG_QUALITY)
    return buffer.getvalue()


def write_archive(crops: list[Path], out: Path) -> int:
    """The crops written into a `tar.gz` as `<CLASS>/<NAME>.jpg`; its size in bytes."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(out, "w:gz") as archive:
        for path in crops:
            data = as_jpeg(path)
            member = tarfile.TarInfo(f"{path.parent.name}/{path.stem}.jpg")
            member.size = len(data)
            archive.addfile(member, io.BytesIO(data))
    return out.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--all", nargs="*", type=Path, default=[], help="folders taken whole")
    parser.add_argument(
        "--sample", nargs="*", type=Path, default=[], help="folders whose card crops are drawn"
    )
    parser.add_argument(
        "--count", type=int, default=6000, help="how many of the --sample folders' card crops"
    )
    parser.add_argument("--seed", type=int, default=43)
    arguments = parser.parse_args()
    crops = crops_in(arguments.all)
    if arguments.sample:
        pool = crops_in(arguments.sample, with_none=False)
        crops += random.Random(arguments.seed).sample(pool, min(arguments.count, len(pool)))
    size = write_archive(crops, arguments.out)
    print(f"{arguments.out}: {len(crops)} crops, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
