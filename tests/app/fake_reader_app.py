"""The app with the stand-in photo reader (`fakes.FakeReader`), for the browser tests:
`streamlit run` this script and it runs app/streamlit_app.py with `CardReader.load` giving the
stand-in (the models folder must hold files of the weights' names)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
APP = HERE.parents[1] / "app" / "streamlit_app.py"
for folder in (HERE, APP.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from fakes import FakeReader  # noqa: E402 - needs the path above

from blackcat.vision import reader as vision_reader  # noqa: E402

STAND_IN = FakeReader()


def load(cls: type, models_dir: Path | str = "", settings: object = None) -> FakeReader:
    return STAND_IN


vision_reader.CardReader.load = classmethod(load)  # type: ignore[method-assign,assignment]
runpy.run_path(str(APP), run_name="__main__")
