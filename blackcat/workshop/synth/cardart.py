"""Card art: fetch the Debian card-deck packages into a cache, render each card with rsvg-convert
(SVG decks) or scale its bitmap (bitmap decks) to CARD_HEIGHT.

Nothing is installed on the system: `apt-get download` fetches the .deb files and `dpkg -x` unpacks
them into the cache (`$BLACKCAT_CACHE/cardart`, default `~/.cache/blackcat/cardart`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

import cv2
import numpy as np

from blackcat.games.cards import ALL_CARDS, Card
from blackcat.workshop.synth.decks import PACKAGES, ArtFormat, DeckSpec

CARD_HEIGHT = 512
"""Rendered card height in pixels: an index is then about 60-130 px tall, sharp enough for crops."""


class CardArtError(RuntimeError):
    """Something a person must fix (a missing tool, a failed download), said in words."""


def cache_root() -> Path:
    base = os.environ.get("BLACKCAT_CACHE")
    root = Path(base) if base else Path.home() / ".cache" / "blackcat"
    return root / "cardart"


def _require(tool: str, package: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise CardArtError(
            f"`{tool}` was not found. Install it with: sudo apt-get install {package} "
            f"(Debian/Ubuntu); it is needed to {'render' if tool == 'rsvg-convert' else 'fetch'} "
            "the card art."
        )
    return path


@contextmanager
def _filling(cache: Path) -> Iterator[None]:
    """Held while this process fills the cache: another on the same machine (a `synth` beside
    the tests) waits, and then finds done what it came to do, instead of reading a package or a
    card this one is still writing (a half-downloaded .deb failed to unpack that way)."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system: there is no apt-get to fill it with either
        yield
        return
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def package_root(cache: Path | None = None, packages: tuple[str, ...] = PACKAGES) -> Path:
    """Unpack the card packages into the cache once each; return the folder that holds `usr/`.

    Each package is fetched only when a deck needs it, and marked done by `root/.complete-NAME`
    (`root/.complete`, from before there were more than two packages, stands for those two).
    """
    cache = cache or cache_root()
    root = cache / "root"
    if all(_unpacked(root, p) for p in packages):
        return root
    with _filling(cache):
        return _unpacked_root(cache, packages)


def _unpacked_root(cache: Path, packages: tuple[str, ...]) -> Path:
    """`package_root`, the cache held (`_filling`)."""
    root = cache / "root"
    missing = [p for p in packages if not _unpacked(root, p)]
    if not missing:
        return root
    if shutil.which("apt-get") is None or shutil.which("dpkg") is None:
        raise CardArtError(
            "the card art comes from the Debian packages "
            f"{' and '.join(missing)}, fetched with `apt-get download` and unpacked with "
            "`dpkg -x`, which this machine lacks. Run on Debian/Ubuntu, or unpack those "
            f".deb files into {root} yourself and create the empty files "
            f"{', '.join(str(root / f'.complete-{p}') for p in missing)}."
        )
    debs = cache / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    root.mkdir(parents=True, exist_ok=True)
    for package in missing:
        found = sorted(debs.glob(f"{package}_*.deb"))
        if not found:
            _run(["apt-get", "download", package], cwd=debs, what=f"download {package}")
            found = sorted(debs.glob(f"{package}_*.deb"))
        for deb in found:
            _run(["dpkg", "-x", str(deb), str(root)], cwd=cache, what=f"unpack {deb.name}")
        (root / f".complete-{package}").write_text("ok\n")
    return root


_FIRST_PACKAGES = ("gnome-cards-data", "kdegames-card-data-kf5")


def _unpacked(root: Path, package: str) -> bool:
    if (root / f".complete-{package}").exists():
        return True
    return package in _FIRST_PACKAGES and (root / ".complete").exists()


def _run(command: list[str], cwd: Path, what: str) -> None:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        hint = ""
        if command[0] == "apt-get":
            hint = " (run `sudo apt-get update` first, and check the network)"
        raise CardArtError(f"could not {what}{hint}: {result.stderr.strip()[-500:]}")


# ---------------------------------------------------------------------------------------------
# rendering


def render_element(svg: Path, element: str, height: int) -> np.ndarray:
    """Render one SVG element to a BGRA array trimmed to the card, `height` px tall."""
    rsvg = _require("rsvg-convert", "librsvg2-bin")
    image = _rsvg(rsvg, svg, element, height)
    y0, y1, x0, x1 = _card_extent(image)
    if (y1 - y0) < 0.95 * image.shape[0]:
        # The element's box holds more than the card (seen in KDE's dondorf): render larger.
        scaled = round(height * image.shape[0] / (y1 - y0))
        image = _rsvg(rsvg, svg, element, scaled)
        y0, y1, x0, x1 = _card_extent(image)
    card = image[y0:y1, x0:x1]
    if card.shape[0] != height:
        width = round(card.shape[1] * height / card.shape[0])
        card = cv2.resize(card, (width, height), interpolation=cv2.INTER_AREA)
    return card


def _rsvg(rsvg: str, svg: Path, element: str, height: int) -> np.ndarray:
    result = subprocess.run(
        [rsvg, "-i", element, "-h", str(height), "-a", str(svg)],
        capture_output=True,
        check=False,
    )
    if result.returncode != 0 or not result.stdout:
        raise CardArtError(
            f"rsvg-convert could not render #{element} of {svg}: {result.stderr.decode()[-300:]}"
        )
    image = cv2.imdecode(np.frombuffer(result.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise CardArtError(f"rsvg-convert gave no RGBA image for #{element} of {svg}")
    return image


def _card_extent(image: np.ndarray) -> tuple[int, int, int, int]:
    """Rows and columns of the largest opaque blob (the card), as y0, y1, x0, x1."""
    opaque = (image[:, :, 3] > 128).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(opaque, connectivity=8)
    if count < 2:
        raise CardArtError("rendered card is empty")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = stats[best, :4]
    return int(y), int(y + h), int(x), int(x + w)


@dataclass(frozen=True)
class RenderedDeck:
    """Where one deck's rendered cards lie in the cache."""

    name: str
    folder: Path

    def card_path(self, card: Card) -> Path:
        return self.folder / f"{card.code}.png"

    @property
    def back_path(self) -> Path:
        return self.folder / "back.png"


def render_bitmap(path: Path, height: int) -> np.ndarray:
    """Load one bitmap card (PNG), trim it to the card and scale it to `height` px (BGRA).

    Small bitmaps are scaled up with bicubic interpolation on premultiplied alpha, so the
    transparent pixels round the card's corners leave no dark fringe."""
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise CardArtError(f"cannot read the card bitmap {path}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
    elif image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    if image.dtype != np.uint8:
        image = (image // 257).astype(np.uint8)
    y0, y1, x0, x1 = _card_extent(image)
    card = image[y0:y1, x0:x1].astype(np.float32)
    width = round(card.shape[1] * height / card.shape[0])
    alpha = card[:, :, 3:4] / 255
    premultiplied = np.dstack([card[:, :, :3] * alpha, card[:, :, 3]])
    interpolation = cv2.INTER_CUBIC if height > card.shape[0] else cv2.INTER_AREA
    scaled = cv2.resize(premultiplied, (width, height), interpolation=interpolation)
    scaled = np.clip(scaled, 0, 255)
    alpha = scaled[:, :, 3:4] / 255
    colour = np.where(alpha > 0, scaled[:, :, :3] / np.maximum(alpha, 1e-6), 0)
    return np.dstack([np.clip(colour, 0, 255), scaled[:, :, 3]]).round().astype(np.uint8)


def render_deck(deck: DeckSpec, cache: Path | None = None, workers: int = 2) -> RenderedDeck:
    """Render the 52 faces (and the back) of a deck into the cache, once."""
    cache = cache or cache_root()
    folder = cache / "decks" / deck.name
    rendered = RenderedDeck(deck.name, folder)
    stamp = folder / ".complete"
    if stamp.exists():
        return rendered
    # the first scenes on a machine wait minutes for this: say why (stderr: stdout may be JSON)
    print(
        f"card art: drawing the {deck.name} deck into {folder} (once)", file=sys.stderr, flush=True
    )
    with _filling(cache):
        if not stamp.exists():  # rendered by another process while this one waited
            source = _unpacked_root(cache, (deck.package,)) / deck.source
            _render_cards(deck, source, rendered, workers)
            stamp.write_text("ok\n")
    return rendered


def _render_cards(deck: DeckSpec, source: Path, rendered: RenderedDeck, workers: int) -> None:
    """`render_deck`'s work, the cache held (`_filling`): each card from `source`."""
    if not source.exists():
        raise CardArtError(f"{source} is missing from the unpacked package {deck.package}")
    rendered.folder.mkdir(parents=True, exist_ok=True)

    def one(item: tuple[str, Path]) -> None:
        element, path = item
        if deck.art is ArtFormat.BITMAP_FILES:
            card = render_bitmap(source / element, CARD_HEIGHT)
        else:
            card = render_element(source, element, CARD_HEIGHT)
        cv2.imwrite(str(path), card)

    jobs = [(deck.element_id(card), rendered.card_path(card)) for card in ALL_CARDS]
    jobs.append((deck.back, rendered.back_path))
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        list(pool.map(one, jobs))


# ---------------------------------------------------------------------------------------------
# licences


@dataclass(frozen=True)
class Licence:
    licence: str
    copyright: str


def deck_licence(deck: DeckSpec, cache: Path | None = None) -> Licence:
    """The licence of a deck's files, from its package's Debian copyright file (DEP-5)."""
    root = package_root(cache, (deck.package,))
    path = root / "usr/share/doc" / deck.package / "copyright"
    text = path.read_text(encoding="utf-8", errors="replace")
    # Paths in the copyright file are relative to the upstream tree; match on the deck's folder or
    # file name, and let a later matching stanza win (as DEP-5 says).
    relative = _upstream_path(deck)
    found = Licence("unknown", "")
    for stanza in re.split(r"\n\s*\n", text):
        fields = _fields(stanza)
        if "files" not in fields or "license" not in fields:
            continue
        patterns = fields["files"].split()
        if any(fnmatch(relative, pattern) for pattern in patterns):
            copyright_lines = fields.get("copyright", "").splitlines()
            found = Licence(
                fields["license"].splitlines()[0].strip(),
                "; ".join(line.strip() for line in copyright_lines if line.strip()),
            )
    return found


def _upstream_path(deck: DeckSpec) -> str:
    if deck.upstream:
        return deck.upstream
    if deck.id_scheme == "kde":
        return deck.source.removeprefix("usr/share/")
    return "cards/" + Path(deck.source).name


def _fields(stanza: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    key = None
    for line in stanza.splitlines():
        if line[:1].isspace() and key is not None:
            fields[key] += "\n" + line.strip()
        elif ":" in line:
            key, value = line.split(":", 1)
            key = key.strip().lower()
            fields[key] = value.strip()
    return fields
