"""The certificate `blackcat app --lan` serves HTTPS with: made once, kept, renewed when due."""

from __future__ import annotations

import datetime as dt
import ipaddress
import stat
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.x509.oid import ExtendedKeyUsageOID

from blackcat import lan

NOW = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)


def load(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


def test_a_certificate_a_phone_accepts_for_every_address(tmp_path: Path) -> None:
    kept, new = lan.ensure_certificate(tmp_path, ["192.168.1.23"], NOW)
    assert new
    certificate = load(kept.cert)
    names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == ["localhost"]
    assert names.get_values_for_type(x509.IPAddress) == [
        ipaddress.ip_address("127.0.0.1"),
        ipaddress.ip_address("192.168.1.23"),
    ]
    usage = certificate.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usage) == [ExtendedKeyUsageOID.SERVER_AUTH]
    lifetime = certificate.not_valid_after_utc - certificate.not_valid_before_utc
    assert dt.timedelta(days=390) < lifetime <= dt.timedelta(days=398)
    assert stat.S_IMODE(kept.key.stat().st_mode) == 0o600
    assert b"PRIVATE KEY" in kept.key.read_bytes()


def test_the_certificate_is_kept_for_later_runs(tmp_path: Path) -> None:
    first, _ = lan.ensure_certificate(tmp_path, ["192.168.1.23"], NOW)
    made = first.cert.read_bytes()
    again, new = lan.ensure_certificate(tmp_path, ["192.168.1.23"], NOW + dt.timedelta(days=200))
    assert (again, new) == (first, False)
    assert again.cert.read_bytes() == made


@pytest.mark.parametrize(
    ("addresses", "later"),
    [
        (["10.0.0.7"], dt.timedelta(days=1)),  # the machine moved to another network
        (["192.168.1.23"], dt.timedelta(days=380)),  # expiring within a month
    ],
    ids=["new-address", "expiring"],
)
def test_a_new_certificate_when_the_kept_one_would_not_do(
    tmp_path: Path, addresses: list[str], later: dt.timedelta
) -> None:
    first, _ = lan.ensure_certificate(tmp_path, ["192.168.1.23"], NOW)
    made = first.cert.read_bytes()
    again, new = lan.ensure_certificate(tmp_path, addresses, NOW + later)
    assert new and again.cert.read_bytes() != made


def test_an_unreadable_certificate_is_replaced(tmp_path: Path) -> None:
    (tmp_path / lan.CERT_NAME).write_text("not a certificate")
    (tmp_path / lan.KEY_NAME).write_text("not a key")
    kept, new = lan.ensure_certificate(tmp_path, [], NOW)
    assert new and load(kept.cert)


def test_the_config_folder_can_be_chosen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BLACKCAT_CONFIG_DIR", str(tmp_path))
    assert lan.config_dir() == tmp_path
    monkeypatch.delenv("BLACKCAT_CONFIG_DIR")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(lan.sys, "platform", "linux")
    assert lan.config_dir() == tmp_path / "xdg" / "blackcat"


def test_the_lan_address_is_not_a_loopback_one() -> None:
    address = lan.lan_address()
    assert address is None or not ipaddress.ip_address(address).is_loopback


class RoutedSocket:
    """A stand-in for the UDP probe: the address its route gives, or no route at all."""

    def __init__(self, address: str | None) -> None:
        self.address = address
        self.connected_to: tuple[str, int] | None = None

    def __call__(self, *args: object) -> RoutedSocket:
        return self

    def __enter__(self) -> RoutedSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def connect(self, peer: tuple[str, int]) -> None:
        if self.address is None:
            raise OSError("Network is unreachable")
        self.connected_to = peer

    def getsockname(self) -> tuple[str, int]:
        assert self.connected_to is not None
        return self.address or "", 40000


@pytest.mark.parametrize(
    ("routed", "address"),
    [("192.168.1.5", "192.168.1.5"), ("10.0.0.7", "10.0.0.7"), ("127.0.1.1", None),
     ("0.0.0.0", None), (None, None)],
)  # fmt: skip
def test_the_lan_address_is_the_routes_unless_it_is_this_machine_alone(
    monkeypatch: pytest.MonkeyPatch, routed: str | None, address: str | None
) -> None:
    monkeypatch.setattr(lan.socket, "socket", RoutedSocket(routed))
    assert lan.lan_address() == address


# ---------------------------------------------------------------------------------------------
# The table's key and the QR code of its address


def test_the_key_is_made_once_kept_private_and_renewed_on_request(tmp_path: Path) -> None:
    key, new = lan.ensure_access_key(tmp_path)
    assert new and len(key) >= 16 and key.isascii()
    assert set(key) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    path = tmp_path / lan.ACCESS_KEY_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert lan.ensure_access_key(tmp_path) == (key, False)  # kept for later runs
    other, new = lan.ensure_access_key(tmp_path, new=True)
    assert new and other != key
    assert lan.ensure_access_key(tmp_path) == (other, False)
    path.write_text("short")  # damaged: a new one
    third, new = lan.ensure_access_key(tmp_path)
    assert new and third not in (key, other, "short")


def modules(text: str) -> list[list[bool]]:
    """The light modules a terminal QR code draws, back as a matrix (two rows a line)."""
    halves = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}
    rows: list[list[bool]] = []
    for line in text.splitlines():
        pairs = [halves[char] for char in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    return rows


def test_the_terminal_qr_code_is_the_address_and_fits_a_terminal() -> None:
    import segno

    url = "https://192.168.1.23:8501/?key=AbCdEfGhIjKlMnOp"
    text = lan.terminal_qr(url)
    assert max(len(line) for line in text.splitlines()) <= 80
    drawn = modules(text)
    expected = segno.make(url, error="l", micro=False)
    size = len(expected.matrix)
    light = [[not dark for dark in row] for row in expected.matrix]
    # the code sits inside a light border of two modules
    assert [row[2 : 2 + size] for row in drawn[2 : 2 + size]] == light
    assert all(drawn[0]) and all(drawn[1])


def test_in_colour_the_code_is_white_on_black_whatever_the_terminal() -> None:
    url = "https://10.0.0.7:8501/?key=AbCdEfGhIjKlMnOp"
    plain = lan.terminal_qr(url)
    coloured = lan.terminal_qr(url, colours=True)
    lines = coloured.splitlines()
    assert all(line.startswith(lan.WHITE_ON_BLACK) and line.endswith(lan.PLAIN) for line in lines)
    stripped = [line.removeprefix(lan.WHITE_ON_BLACK).removesuffix(lan.PLAIN) for line in lines]
    assert stripped == plain.splitlines()
