"""`blackcat app`: start the Streamlit app, as `streamlit run app/streamlit_app.py` would (on
POSIX the process becomes Streamlit's, so stopping it stops the server).

The settings the app needs are passed on the command line (not only in `.streamlit/config.toml`),
so they hold from any working folder; the file watcher in particular stays off, because it trips
over torch's lazy modules once the photo reader is loaded.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
APP_SCRIPT = REPO_ROOT / "app" / "streamlit_app.py"
SETTINGS = (
    "--server.fileWatcherType=none",
    "--server.runOnSave=false",
    "--browser.gatherUsageStats=false",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8501, help="port to serve on (8501)")
    parser.add_argument(
        "--address",
        default=None,
        help="address to listen on; 0.0.0.0 lets a phone on the same network open it",
    )
    parser.add_argument(
        "--headless", action="store_true", help="don't open a browser window, just serve"
    )
    parser.add_argument(
        "--models", type=Path, default=None, help="folder with the trained weights (models/)"
    )


def streamlit_command(args: argparse.Namespace) -> list[str]:
    command = [sys.executable, "-m", "streamlit", "run", str(APP_SCRIPT), *SETTINGS]
    command.append(f"--server.port={args.port}")
    if args.address:
        command.append(f"--server.address={args.address}")
    if args.headless:
        command.append("--server.headless=true")
    return command


def run(args: argparse.Namespace) -> int:
    if not APP_SCRIPT.is_file():
        print(
            f"blackcat app: {APP_SCRIPT} not found; the app runs from a checkout of the "
            "repository (pip install -e .)",
            file=sys.stderr,
        )
        return 2
    env = dict(os.environ)
    if args.models is not None:
        env["BLACKCAT_MODELS_DIR"] = str(args.models.resolve())
    command = streamlit_command(args)
    if os.name == "posix":
        # Streamlit takes this process over, so a signal that stops `blackcat app` (Ctrl-C,
        # a service manager, a test's terminate) stops the server too, with nothing orphaned.
        os.chdir(REPO_ROOT)
        os.execve(command[0], command, env)
    try:
        return subprocess.call(command, cwd=REPO_ROOT, env=env)
    except KeyboardInterrupt:
        return 130
