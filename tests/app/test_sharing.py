"""sharing: the share panel's parts that are plain HTML."""

from __future__ import annotations

import sharing


def test_the_shared_link_is_shown_as_escaped_text() -> None:
    shown = sharing.link_html("https://192.168.1.5:8501/?table=eJy&key=<k>")
    assert '<p class="bc-link">https://192.168.1.5:8501/?table=eJy&amp;key=&lt;k&gt;</p>' in shown
    assert "user-select: all" in shown  # a long press takes the whole link
