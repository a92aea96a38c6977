"""Black Cat score counter: read a photo of kitty piles and score them."""

import os

# ONNX Runtime (since 1.2x, on Linux too) records who runs it (a device ID, the system, the CPU)
# and sends it to Microsoft from its own C++ code, unseen by Python, unless told not to before it
# loads. Nothing leaves the player's machine: set here, before any of our modules can load it.
os.environ["ORT_DISABLE_TELEMETRY"] = "1"

__version__ = "0.1.0"
