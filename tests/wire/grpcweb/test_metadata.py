"""Metadata as HTTP header lines: "-bin" values in base64, nothing that splits a header."""

from __future__ import annotations

from wire.grpcweb.metadata import header_lines


def test_header_lines_write_binary_values_as_unpadded_base64() -> None:
    assert header_lines((("x-pf-seat-bin", b"\xff"), ("x-pf-seat", "north"))) == [
        ("x-pf-seat-bin", "/w"),
        ("x-pf-seat", "north"),
    ]
