"""`blackcat app`: start the Streamlit app, as `streamlit run app/streamlit_app.py` would, in
this process (so stopping it stops the server). As soon as the server serves, a thread loads the
photo reader and reads the example photo into the app's caches while the browser loads the page,
so the first page needn't wait for them.

The settings the app needs are passed on the command line (not only in `.streamlit/config.toml`),
so they hold from any working folder; the file watcher in particular stays off (a player's app
never edits its own source; watching it costs a thread and start-up time).

It listens on 127.0.0.1 alone unless told otherwise: `--lan` serves HTTPS on every interface (a
phone's browser gives a page the camera only over HTTPS), with the certificate of
`blackcat.lan`, and prints the address to open on the phone, with the table's key, and the same
address as a QR code; `--address` picks the interface, `--new-key` makes a new key.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import logging
import os
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from blackcat import allocator, lan
from blackcat.cli import translator_for
from blackcat.i18n import ENGLISH, Translator

if TYPE_CHECKING:
    from streamlit.runtime import Runtime

REPO_ROOT = Path(__file__).resolve().parents[2]
APP_SCRIPT = REPO_ROOT / "app" / "streamlit_app.py"
LOCAL_ADDRESS = "127.0.0.1"
EVERY_INTERFACE = "0.0.0.0"  # what --lan is for
WARM_UP_THREAD = "blackcat-warm-up"
SETTINGS = (
    "--server.fileWatcherType=none",
    "--server.runOnSave=false",
    "--browser.gatherUsageStats=false",
    # on a desktop (a display, no --headless) Streamlit's first run asks for an email address
    # in the terminal and serves nothing until it is answered, then writes ~/.streamlit
    "--server.showEmailPrompt=false",
    # Streamlit runs a full garbage collection after every run of the page, holding the
    # interpreter lock for about 20 ms (every tap): our photos are freed as soon as they are
    # read (no reference cycles), and Python's own collector still runs. Measured: taps answer
    # 15-50 ms sooner.
    "--runner.postScriptGC=false",
    # a field is given its value both in Session State and as its default, on purpose
    # (`card_widgets.field_value`): Streamlit's warning of it, with its stack, said nothing wrong
    "--global.disableWidgetStateDuplicationWarning=true",
    # a player's view, as served to another phone (as config.toml, read from the repository,
    # says too): Streamlit's "auto" gives this machine its developer's menu (Rerun, Clear
    # cache, Settings). Not "minimal": that also takes away the running figure and "Connecting"
    # of a lost connection; the ⋮ menu left (Print, Record screen, "Made with Streamlit":
    # English on a Spanish page, and nothing a player needs) is hidden by the page's style sheet
    "--client.toolbarMode=viewer",
)


def add_arguments(parser: argparse.ArgumentParser, tr: Translator = ENGLISH) -> None:
    parser.add_argument(
        "--port", type=port_number(tr), default=8501, help=tr.gettext("port to serve on (8501)")
    )
    parser.add_argument(
        "--address",
        default=None,
        help=tr.gettext(
            "address to listen on (default {address}, this machine alone; with --lan "
            "every interface)"
        ).format(address=LOCAL_ADDRESS),
    )
    parser.add_argument(
        "--lan",
        action="store_true",
        help=tr.gettext(
            "serve over HTTPS on every interface, for a phone on the same network (its camera "
            "needs HTTPS); prints the address to open"
        ),
    )
    parser.add_argument(
        "--new-key",
        action="store_true",
        help=tr.gettext(
            "with --lan: make a new key for the table's address (phones with the old "
            "address no longer see the table)"
        ),
    )
    parser.add_argument(
        "--headless",
        action="store_true",
        help=tr.gettext("don't open a browser window, just serve"),
    )
    parser.add_argument(
        "--models",
        type=Path,
        default=None,
        help=tr.gettext("folder with the trained weights (models/)"),
    )


def port_number(tr: Translator = ENGLISH) -> Callable[[str], int]:
    """An argparse type: a port a server can listen on, 1 to 65535."""

    def parse(text: str) -> int:
        if text.strip().isdigit() and 1 <= int(text) <= 65535:
            return int(text)
        message = tr.gettext("{port} is not a port: give a number from 1 to 65535, such as 8501")
        raise argparse.ArgumentTypeError(message.format(port=repr(text)))

    return parse


def bind_error(address: str, port: int) -> OSError | UnicodeError | None:
    """Why a trial socket can't be bound to `address` and `port` as the server binds them (with
    SO_REUSEADDR: a port a stopped server left waiting is free), or None."""
    try:
        family, kind, _, _, where = socket.getaddrinfo(address, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind) as trial:
            trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            trial.bind(where)
    except (OSError, UnicodeError) as error:
        return error
    return None


def address_problem(address: str, tr: Translator = ENGLISH) -> str | None:
    """Why the server could not listen on `address` (not an address of this machine: a trial
    socket can't be bound to it), or None."""
    if bind_error(address, 0) is None:
        return None
    return tr.gettext(
        "--address {address} is not an address to listen on: give one of this machine's "
        "addresses, such as 127.0.0.1 (this machine alone) or 0.0.0.0 (every interface)"
    ).format(address=address)


def port_problem(address: str, port: int, tr: Translator = ENGLISH) -> str | None:
    """Why the server could not serve on `port` (another server listens there), or None. Said
    before anything is printed: Streamlit's own words came after the --lan QR code, and a
    phone scanning it found the other server. Another refusal (a port below 1024) is
    Streamlit's to say."""
    error = bind_error(address, port)
    if not isinstance(error, OSError) or error.errno != errno.EADDRINUSE:
        return None
    return tr.gettext(
        "port {port} is taken (another app serves there, perhaps an earlier blackcat "
        "app): stop it, or choose another port, such as --port {other}"
    ).format(port=port, other=port + 1 if port < 65535 else port - 1)


def loopback_for_lan(args: argparse.Namespace, tr: Translator = ENGLISH) -> str | None:
    """Why --lan can't serve on the --address given (this machine alone), or None."""
    if not (args.lan and args.address):
        return None
    try:
        alone = ipaddress.ip_address(args.address).is_loopback
    except ValueError:
        alone = args.address == "localhost"
    if not alone:
        return None
    return tr.gettext(
        "--lan serves phones on the network, but --address {address} is this machine alone: "
        "leave --address out, or give this machine's network address"
    ).format(address=args.address)


def listen_address(args: argparse.Namespace) -> str:
    if args.address:
        return args.address
    return EVERY_INTERFACE if args.lan else LOCAL_ADDRESS


def streamlit_command(
    args: argparse.Namespace,
    certificate: lan.Certificate | None = None,
    shown_address: str | None = None,
) -> list[str]:
    """The `streamlit run` command's arguments; HTTPS with `certificate`, and `shown_address` as
    the address Streamlit prints (so it needn't look the machine's addresses up)."""
    command = ["run", str(APP_SCRIPT), *SETTINGS]
    command.append(f"--server.port={args.port}")
    command.append(f"--server.address={listen_address(args)}")
    if certificate is not None:
        command.append(f"--server.sslCertFile={certificate.cert}")
        command.append(f"--server.sslKeyFile={certificate.key}")
    if shown_address:
        command.append(f"--browser.serverAddress={shown_address}")
    if args.lan:
        # Streamlit's own "URL:" line, and the browser it opens, would have the address without
        # the table's key, which opens only "this table is private": the notice printed before
        # it has the right one, and `run` opens the browser at it (`open_when_served`).
        command.append("--logger.hideWelcomeMessage=true")
    if args.headless or args.lan:
        command.append("--server.headless=true")
    return command


def lan_notice(
    url: str | None,
    port: int,
    certificate: lan.Certificate,
    new: bool,
    key: str = "",
    tr: Translator = ENGLISH,
) -> str:
    """What `--lan` prints: the address to open on the phone (with the table's key) and its QR
    code, and the warning to expect."""
    made = tr.gettext("made now") if new else tr.gettext("made on an earlier run")
    query = f"/?{lan.KEY_PARAM}={key}" if key else ""
    if url:
        where = lan.terminal_qr(url + query, lan.terminal_has_colours(sys.stdout)) + tr.gettext(
            "On a phone on the same network, scan the QR code above or open  {address}"
        ).format(address=url + query)
        # three phones that scanned this code kept three games, each its own
        where += "\n" + tr.gettext(
            'Each phone that opens it has a game of its own: to share one game, tap "Open on '
            'another phone · share" on one phone and scan its QR code with the others.'
        )
    else:
        where = tr.gettext("No network found: on this machine, open  {address}").format(
            address=f"https://localhost:{port}{query}"
        )
    keys = tr.gettext("Only an address with the key shows the table (--new-key makes a new one).")
    certificate_note = tr.gettext(
        "The certificate is this computer's own ({made}, kept in {folder}), so the browser warns "
        "once: choose Advanced, then Proceed (Chrome), or Show Details, then visit this website "
        "(Safari). Upload then offers the phone's camera."
    ).format(made=made, folder=certificate.cert.parent)
    return f"{where}\n{keys}\n{certificate_note}"


def run(args: argparse.Namespace) -> int:
    tr = translator_for(args)
    if not APP_SCRIPT.is_file():
        message = tr.gettext(
            "{script} not found; the app runs from a checkout of the repository (pip install -e .)"
        ).format(script=APP_SCRIPT)
        print(f"blackcat app: {message}", file=sys.stderr)
        return 2
    if args.new_key and not args.lan:
        message = tr.gettext("--new-key makes a new key for --lan's address: add --lan")
        print(f"blackcat app: {message}", file=sys.stderr)
        return 2
    if problem := (
        loopback_for_lan(args, tr)
        or address_problem(listen_address(args), tr)
        or port_problem(listen_address(args), args.port, tr)
    ):
        print(f"blackcat app: {problem}", file=sys.stderr)
        return 2
    if args.models is not None:
        from blackcat.vision.reader import ModelsMissingError, missing_models  # NumPy, OpenCV

        if missing := missing_models(args.models):  # said here: the page only says "not yet"
            without = tr.gettext("the app opens without its photo reader: cards are typed")
            error = ModelsMissingError(missing, models_dir=args.models).describe(tr)
            print(f"blackcat app: {error}; {without}", file=sys.stderr, flush=True)
    env = dict(os.environ)
    # The app's NumPy work is small arrays: a pool of BLAS threads only costs start-up time
    # (~0.05-0.1 s of CPU on 2 cores). A player's own setting wins.
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    if args.models is not None:
        env["BLACKCAT_MODELS_DIR"] = str(args.models.resolve())
    certificate, shown, open_at = None, None, None
    if args.lan:
        given = args.address not in (None, EVERY_INTERFACE, "::")
        shown = args.address if given else lan.lan_address()
        try:
            certificate, new = lan.ensure_certificate(lan.config_dir(), [shown] if shown else [])
            key, _ = lan.ensure_access_key(lan.config_dir(), new=args.new_key)
        except OSError as error:
            message = tr.gettext("can't keep the HTTPS certificate: {error}").format(error=error)
            print(f"blackcat app: {message}", file=sys.stderr)
            return 2
        url = f"https://{shown}:{args.port}" if shown else None
        env[lan.ACCESS_KEY_ENV] = key
        env[lan.PUBLIC_URL_ENV] = url or f"https://localhost:{args.port}"
        print(lan_notice(url, args.port, certificate, new, key, tr), flush=True)
        if not args.headless:  # this computer's browser, with the key, where the server listens
            host = shown if given and shown else "localhost"  # the certificate names both
            open_at = f"https://{host}:{args.port}/?{lan.KEY_PARAM}={key}"
    else:
        env.pop(lan.ACCESS_KEY_ENV, None)  # on this machine alone no key is asked for
        env.pop(lan.PUBLIC_URL_ENV, None)
    allocator.limit_arenas(env, allocator.glibc())  # before the server's threads start
    return serve(streamlit_command(args, certificate, shown), env, open_at)


def serve(command: list[str], env: dict[str, str], open_at: str | None = None) -> int:
    """Run `streamlit <command>` in this process, from the repository, with `env` as its
    environment, warming the app up beside it (and opening a browser at `open_at` once it
    serves); Streamlit's exit status."""
    from streamlit.web import cli as streamlit_cli

    os.chdir(REPO_ROOT)
    os.environ.clear()
    os.environ.update(env)
    threading.Thread(target=warm_up_app, name=WARM_UP_THREAD, daemon=True).start()
    if open_at is not None:
        threading.Thread(target=open_when_served, args=(open_at,), daemon=True).start()
    sys.argv = ["streamlit", *command]
    try:
        streamlit_cli.main(args=command, prog_name="streamlit")
    except SystemExit as stopped:
        return stopped.code if isinstance(stopped.code, int) else 1
    except KeyboardInterrupt:
        return 130
    return 0


def server_started(timeout: float = 60.0) -> bool:
    """Wait until Streamlit's server has started: its runtime (and so its caches) exists and
    has been started. False if that never happens."""
    from streamlit import runtime

    deadline = time.monotonic() + timeout
    while not (runtime.exists() and runtime_started(runtime.get_instance())):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def runtime_started(instance: Runtime) -> bool:
    """Whether the server has started this runtime (it does so just before it listens)."""
    from streamlit.runtime.runtime import RuntimeState

    return instance.state is not RuntimeState.INITIAL


def open_when_served(url: str, wait_for_server: Callable[[], bool] = server_started) -> None:
    """This computer's browser opened at `url` once the server serves (as Streamlit opens its
    own address, which has no table key)."""
    if wait_for_server():
        from streamlit import cli_util

        cli_util.open_browser(url)


def warm_up_app(wait_for_server: Callable[[], bool] = server_started) -> None:
    """Once the server serves (`wait_for_server()`; False: it never did), load the reader and
    read the example photo into the app's caches (warm_up.warm_up). Only time is at stake:
    whatever fails here, the first page loads what it needs itself."""
    try:
        # Waiting leaves the one interpreter lock to the server's own start; the warm-up then
        # runs while the browser loads the page. Measured: the first scored page 0.1 s sooner.
        if not wait_for_server():
            return
        if str(APP_SCRIPT.parent) not in sys.path:
            sys.path.insert(0, str(APP_SCRIPT.parent))  # where the page's own modules are
        # Streamlit warns of each thread that uses its caches outside a page: this one is meant
        logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(
            lambda record: threading.current_thread().name != WARM_UP_THREAD
        )
        import warm_up

        warm_up.warm_up(APP_SCRIPT)
    except Exception:
        logging.getLogger("blackcat.app").exception("warming the app up failed")
