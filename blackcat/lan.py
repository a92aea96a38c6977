"""Serving the app to a phone on the same network: its LAN address and a self-signed certificate.

A phone's browser lets a page use the camera only in a secure context, which over the network
means HTTPS. `blackcat app --lan` serves HTTPS with a self-signed certificate made here on first
use (with `cryptography`) and kept in the user's config folder, so the browser's one-time warning
stays accepted on later runs. A new certificate is made only when the kept one is unreadable,
expires within a month, or does not name the machine's current LAN address.

Anyone on the same Wi-Fi could open that address, so the table gets a key: a random one, made
once and kept beside the certificate (`--new-key` makes a new one), carried in the address
(`?key=`) that the terminal prints as a QR code for the phone's camera. The app shows the table
only to an address with the key.

The certificate follows what phones accept: valid for 397 days (Apple's limit is 825, Chrome's
for public ones 398), for server authentication, naming every address it serves in its
subjectAltName; the key is an EC P-256 key, readable by the user alone.
"""

from __future__ import annotations

import datetime as dt
import io
import ipaddress
import os
import re
import secrets
import socket
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CERT_NAME = "lan-cert.pem"
KEY_NAME = "lan-key.pem"
ACCESS_KEY_NAME = "lan-table-key.txt"  # the key a phone's address must carry
ACCESS_KEY_BYTES = 12  # 16 URL-safe characters: far too many to guess over a network
KEY_PARAM = "key"  # the address's query parameter that carries the key
ACCESS_KEY_ENV = "BLACKCAT_ACCESS_KEY"  # how `blackcat app` hands the key to the app
PUBLIC_URL_ENV = "BLACKCAT_PUBLIC_URL"  # and the address phones reach the app at
_ACCESS_KEY = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
VALID_DAYS = 397
RENEW_BEFORE = dt.timedelta(days=30)
LOCAL_NAMES = ("localhost",)
LOCAL_ADDRESSES = ("127.0.0.1",)


@dataclass(frozen=True)
class Certificate:
    """A certificate and its key, as files."""

    cert: Path
    key: Path


def config_dir() -> Path:
    """This project's folder in the user's config folder (`BLACKCAT_CONFIG_DIR` overrides)."""
    if override := os.environ.get("BLACKCAT_CONFIG_DIR"):
        return Path(override)
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "blackcat"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "blackcat"
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "blackcat"


def lan_address() -> str | None:
    """The address other machines on the local network reach this one at, or None without a
    network. A UDP socket is "connected" to a private address to learn the route; nothing is
    sent."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith(("127.", "0.")) else address


def make_certificate(addresses: Sequence[str], now: dt.datetime) -> tuple[bytes, bytes]:
    """A self-signed certificate (PEM) for `localhost`, 127.0.0.1 and `addresses`, and its key."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Black Cat score counter")])
    ips = dict.fromkeys([*LOCAL_ADDRESSES, *addresses])
    alternative_names = [x509.DNSName(host) for host in LOCAL_NAMES] + [
        x509.IPAddress(ipaddress.ip_address(ip)) for ip in ips
    ]
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternative_names), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return certificate.public_bytes(serialization.Encoding.PEM), key_pem


def still_good(cert_pem: bytes, addresses: Sequence[str], now: dt.datetime) -> bool:
    """Whether a kept certificate can serve on: readable, not expiring within a month, and
    naming every address."""
    from cryptography import x509

    try:
        certificate = x509.load_pem_x509_certificate(cert_pem)
        names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except (ValueError, x509.ExtensionNotFound):
        return False
    named = {str(ip) for ip in names.value.get_values_for_type(x509.IPAddress)}
    fresh = certificate.not_valid_after_utc - RENEW_BEFORE > now
    return fresh and set(addresses) <= named


def ensure_certificate(
    folder: Path, addresses: Sequence[str], now: dt.datetime | None = None
) -> tuple[Certificate, bool]:
    """The kept certificate for `addresses`, made first if needed; and whether it is new."""
    now = now or dt.datetime.now(dt.UTC)
    kept = Certificate(folder / CERT_NAME, folder / KEY_NAME)
    if (
        kept.cert.is_file()
        and kept.key.is_file()
        and still_good(kept.cert.read_bytes(), addresses, now)
    ):
        return kept, False
    cert_pem, key_pem = make_certificate(addresses, now)
    _write_private(kept.key, key_pem)
    kept.cert.write_bytes(cert_pem)
    return kept, True


def _write_private(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600)
    path.chmod(0o600)  # touch() leaves an existing file's mode alone
    path.write_bytes(data)


def ensure_access_key(folder: Path, new: bool = False) -> tuple[str, bool]:
    """The table's key kept in `folder` (made first if there is none, it is unreadable, or
    `new` asks for a new one); and whether it is new."""
    path = folder / ACCESS_KEY_NAME
    if not new and path.is_file():
        kept = path.read_text(encoding="ascii", errors="replace").strip()
        if _ACCESS_KEY.match(kept):
            return kept, False
    key = secrets.token_urlsafe(ACCESS_KEY_BYTES)
    _write_private(path, key.encode("ascii"))
    return key, True


def terminal_qr(text: str, colours: bool = False) -> str:
    """A QR code of `text` in text, for a terminal: two modules a character (half blocks), so
    a LAN address with its key takes about 40 columns and 20 lines. The light modules are the
    drawn ones; with `colours`, each line is white on black whatever the terminal's theme
    (a phone's camera reads a dark-on-light code), else it relies on a dark background."""
    import segno

    out = io.StringIO()
    segno.make(text, error="l", micro=False).terminal(out=out, compact=True, border=2)
    lines = out.getvalue().splitlines()
    if colours:
        lines = [f"{WHITE_ON_BLACK}{line}{PLAIN}" for line in lines]
    return "\n".join(lines) + "\n"


WHITE_ON_BLACK = "\x1b[97;40m"
PLAIN = "\x1b[0m"


def terminal_has_colours(stream: Any) -> bool:
    """Whether `stream` is a terminal that takes colours (and NO_COLOR doesn't say no)."""
    return bool(getattr(stream, "isatty", lambda: False)()) and "NO_COLOR" not in os.environ
