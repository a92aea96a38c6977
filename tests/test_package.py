"""The package itself: what importing `blackcat` settles before any of its modules run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

MODELS = Path(__file__).resolve().parents[1] / "models"


def test_importing_blackcat_turns_onnx_runtimes_telemetry_off_whatever_the_environment(
    tmp_path: Path,
) -> None:
    """ONNX Runtime keeps a device ID and usage events in the home folder, for its C++ code to
    send, unless told not to before it loads; a player's `ORT_DISABLE_TELEMETRY=0` is overruled."""
    home = tmp_path / "home"
    home.mkdir()
    script = (
        "import os, blackcat, onnxruntime\n"
        f"onnxruntime.InferenceSession({str(MODELS / 'index_detector.onnx')!r})\n"
        "print(os.environ['ORT_DISABLE_TELEMETRY'])\n"
    )
    env = {**os.environ, "HOME": str(home), "ORT_DISABLE_TELEMETRY": "0"}
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "1\n"
    assert list(home.rglob("*")) == []
