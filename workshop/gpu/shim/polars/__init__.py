"""Stand-in for polars on a lent GPU machine, which lacks it and cannot fetch it (its wheel is
too large to carry): Ultralytics' trainer reads its results.csv with `pl.read_csv(...).to_dict()`
when it saves a checkpoint. pandas, which that machine has, does the same here."""

from __future__ import annotations

import io

import pandas


class _Frame:
    def __init__(self, frame: pandas.DataFrame) -> None:
        self._frame = frame

    def to_dict(self, as_series: bool = True) -> dict[str, list]:
        return {name: self._frame[name].tolist() for name in self._frame.columns}


def read_csv(source: bytes, infer_schema_length: int | None = None) -> _Frame:
    return _Frame(pandas.read_csv(io.BytesIO(source)))
