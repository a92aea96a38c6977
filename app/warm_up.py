"""What a starting server does before the first page asks for it (`blackcat app` runs it
beside the server): import the page's modules, load the reader, read the example photo."""

from __future__ import annotations

import ast
import contextlib
import importlib
from pathlib import Path

import streamlit as st
from reader_access import (
    EXAMPLE_PHOTO,
    load_reader,
    log_load_failure,
    models_dir,
    models_present,
    read_example,
)

from blackcat.i18n import LocalizedError


def warm_up(page_script: Path | None = None) -> None:
    """Do what the first page would wait for, once the server runs (its caches exist): import
    the page's own modules (those of `page_script` in this folder), load the reader, take
    Streamlit's first-element check and read the example photo into the caches the first page
    uses."""
    # The first page's icons make Streamlit load its emoji catalogue (about 50 ms); load it
    # here instead. A later Streamlit that keeps it elsewhere just loads it on the page.
    with contextlib.suppress(ImportError):
        importlib.import_module("streamlit.emojis")
    if page_script is not None:
        for name in page_modules(page_script):
            importlib.import_module(name)
    folder = models_dir()
    try:
        reader = load_reader(str(folder)) if models_present(folder) else None
    except LocalizedError as error:  # damaged models: one line in the log, the page says why
        log_load_failure(error)
        reader = None
    take_first_element_check()
    if reader is None:
        return
    if EXAMPLE_PHOTO.is_file():
        read_example()
    else:
        reader.warm_up()  # no example to read: a tiny read does the reader's lazy set-up


def page_modules(page_script: Path) -> list[str]:
    """The modules of the script's own folder that it imports (the page's modules)."""
    tree = ast.parse(page_script.read_text(encoding="utf-8"))
    names = [
        alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names
    ]
    names += [node.module for node in tree.body if isinstance(node, ast.ImportFrom) and node.module]
    folder = page_script.parent
    return sorted({name for name in names if (folder / f"{name}.py").is_file()})


def take_first_element_check() -> None:
    """Streamlit checks once per process, on the first element, whether it runs in a Python
    prompt, by inspecting the whole stack and reading each frame's source: about 80 ms on the
    first page's deep stack. An element made here, outside any page, goes nowhere and pays the
    check on a short stack. Only once the server runs (else Streamlit warns it isn't served)."""
    st.empty()
