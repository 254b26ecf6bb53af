"""The QR code of a table's referee link, as SVG (qrcode package)."""

from __future__ import annotations

import qrcode
import qrcode.image.svg


def qr_svg(text: str) -> bytes:
    """An SVG image (black on white, with a quiet zone) that encodes ``text``."""
    qr = qrcode.QRCode(border=2, image_factory=qrcode.image.svg.SvgPathFillImage)
    qr.add_data(text)
    qr.make(fit=True)
    return qr.make_image().to_string()
