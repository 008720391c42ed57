"""Colour helpers of the drawings: whether text on a colour must be white,
and colour distances for checking a palette: CIE Lab and the
CIEDE2000 difference, and how a colour looks to a reader with
deuteranopia (the most common colour blindness).

The simulation is Machado, Oliveira and Fernandes (2009), "A
Physiologically-based Model for Simulation of Color Vision Deficiency",
severity 1.0, applied to linear sRGB.
"""

from __future__ import annotations

import math

RGB = tuple[float, float, float]

#: Machado et al. (2009), deuteranomaly at severity 1.0 (deuteranopia).
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968),
                (0.280085, 0.672501, 0.047413),
                (-0.011820, 0.042940, 0.968881))


def rgb(colour: str) -> RGB:
    """``#rrggbb`` -> sRGB in 0..1."""
    c = colour.lstrip("#")
    return (int(c[0:2], 16) / 255, int(c[2:4], 16) / 255, int(c[4:6], 16) / 255)


def _linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _gamma(v: float) -> float:
    v = min(1.0, max(0.0, v))
    return v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def deuteranopia(colour: str) -> str:
    """``colour`` as a deuteranope sees it (as ``#rrggbb``)."""
    lin = [_linear(v) for v in rgb(colour)]
    out = [_gamma(sum(m * v for m, v in zip(row, lin, strict=True))) for row in DEUTERANOPIA]
    return "#" + "".join(f"{round(v * 255):02x}" for v in out)


def lab(colour: str) -> RGB:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = (_linear(v) for v in rgb(colour))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(c1: str, c2: str) -> float:
    """The CIEDE2000 colour difference of two sRGB colours (1: just noticeable
    side by side; some 10 and more: told apart at a glance)."""
    l1, a1, b1 = lab(c1)
    l2, a2, b2 = lab(c2)
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl = l2 - l1
    dc = c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar = (l1 + l2) / 2
    cbarp = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    else:
        hbar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6))
         - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    dtheta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp ** 7 / (cbarp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2
                     + rt * (dc / sc) * (dhh / sh))


def distance(c1: str, c2: str) -> tuple[float, float]:
    """(CIEDE2000 as seen, CIEDE2000 as a deuteranope sees it)."""
    return ciede2000(c1, c2), ciede2000(deuteranopia(c1), deuteranopia(c2))


def dark(colour: str) -> bool:
    """Whether ``colour`` (``#rrggbb``) is dark enough that text on it must
    be white (its luma, ITU-R BT.601 weights, below 140 of 255)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 140
