"""Real image files for scenarios: a PNG of any size and a tiny JPEG, built with the standard library only.

A client judges an artifact by its bytes, not its name, so a scenario's screenshot must be a true
image rather than a pattern of text. The PNG is a gradient stored uncompressed, so that its size
follows its pixel count exactly (a large image for the size limits is just a wider one). The JPEG is
the smallest baseline file a decoder accepts: one 8x8 block of mid grey (every coefficient zero).
"""

from __future__ import annotations

import struct
import zlib

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int, height: int) -> bytes:
    """An RGB PNG of `width` x `height` pixels, about 3 bytes per pixel (stored, not compressed)."""
    row = bytearray(3 * width)
    row[0::3] = bytes(x * 255 // width for x in range(width))  # red grows to the right
    row[2::3] = b"\xa0" * width
    rows = bytearray()
    for y in range(height):
        row[1::3] = bytes((y * 255 // height,)) * width  # green grows downwards
        rows += b"\x00" + row  # filter type 0 (none)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return b"".join(
        (
            _PNG_SIGNATURE,
            _png_chunk(b"IHDR", header),
            _png_chunk(b"IDAT", zlib.compress(rows, 0)),
            _png_chunk(b"IEND", b""),
        )
    )


def _jpeg_segment(marker: int, payload: bytes) -> bytes:
    return bytes((0xFF, marker)) + struct.pack(">H", len(payload) + 2) + payload


def _one_code_table(table_class: int) -> bytes:
    # A Huffman table with a single 1-bit code for symbol 0: DC "no difference", AC "end of block".
    return bytes((table_class << 4,)) + bytes((1,) + (0,) * 15) + b"\x00"


def jpeg() -> bytes:
    """An 8x8 grey baseline JPEG (a few hundred bytes at most)."""
    return b"".join(
        (
            b"\xff\xd8",  # start of image
            _jpeg_segment(0xDB, b"\x00" + b"\x01" * 64),  # quantisation table 0, all ones
            _jpeg_segment(0xC0, struct.pack(">BHHB", 8, 8, 8, 1) + b"\x01\x11\x00"),  # 8x8, one component
            _jpeg_segment(0xC4, _one_code_table(0)),
            _jpeg_segment(0xC4, _one_code_table(1)),
            _jpeg_segment(0xDA, b"\x01\x01\x00\x00\x3f\x00"),  # the one component, full spectrum
            b"\x3f",  # DC code 0, AC end-of-block 0, padded with ones
            b"\xff\xd9",  # end of image
        )
    )
