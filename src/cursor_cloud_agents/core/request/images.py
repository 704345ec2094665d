"""Images attached to a prompt, checked and encoded before anything is sent; nothing here sends.

An image is a local file path, a `data:` URL or an https URL (up to 5, docs/api-contract.md §3.6). A local
file must lie, once every symlink is followed, under the allowed directories: the client's roots
when it declared roots, else the server's working directory. A model must not be able to send
`~/.ssh/id_rsa` to a cloud VM. A file or data URL must be PNG, JPEG, GIF or WebP by its bytes (a magic
number and a header that gives the size; the name and the declared type do not count) and at most
15 MiB, read no further than one byte past that. The same test tells an image artifact from other bytes.
An https URL is passed on for Cursor to fetch; plain http is refused. A file is opened once and judged by
what was opened: where its descriptor says it is (a folder swapped for a link after the name was checked
leads outside, and is refused), a regular file by its `fstat`, then its bytes, read from that descriptor
in a worker thread so that the event loop never waits on the disk.

Type and size come from maintained libraries rather than a parser of our own: `filetype` names the
type from the magic numbers of the first bytes (pure Python, no libmagic to install), and `imagesize`
reads width and height from the header without decoding a pixel. Both are handed bytes already read,
never a path or a URL: `imagesize.get` given a URL string would fetch it itself.
"""

from __future__ import annotations

import base64
import binascii
import fcntl
import io
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast, get_args
from urllib.parse import urlsplit

import anyio
import filetype  # pyright: ignore[reportMissingTypeStubs]  # the library ships no type information
import imagesize  # pyright: ignore[reportMissingTypeStubs]  # typed inline, but ships no py.typed marker

from cursor_cloud_agents.api import ImageDimension, ImageType, PromptImage
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.call import Call
from cursor_cloud_agents.core.failures import ToolFailure

MAX_IMAGES = 5
MAX_IMAGE_BYTES = 15 * 1024 * 1024
"""The API's limit per image (15 MB, read as MiB like the simulator); a file is read one byte past it at most."""
MAX_URL_CHARS = 2048
SNIFF_BYTES = 262
"""What `filetype` reads: its longest signature ends within the first 262 bytes."""
_SHOWN_CHARS = 200
_ACCEPTED = frozenset(get_args(ImageType))
_ALIASES = {"image/apng": "image/png"}  # an animated PNG is a PNG to every reader that does not animate it
_KINDS = "PNG, JPEG, GIF or WebP"


async def allowed_directories(call: Call) -> list[Path]:
    """Where local images may come from: the call's roots when it declared roots (maybe none), else the
    working directory."""
    roots = await call.roots()
    return [Path.cwd()] if roots is None else roots


def is_data_url(value: str) -> bool:
    """Whether an image argument is a `data:` URL (the scheme is case-insensitive)."""
    return value[:5].lower() == "data:"


def is_local(value: str) -> bool:
    """Whether an image argument names a local file (anything that is neither a data: nor a scheme:// URL)."""
    return not is_data_url(value) and "://" not in value


async def images_of(call: Call, values: Sequence[str] | None) -> list[PromptImage] | None:
    """The images to send with a prompt (None for none); the client is asked for its roots only for a local file.

    Raises:
        ToolFailure: VALIDATION naming the image and the rule it breaks; nothing was sent.
    """
    if not values:
        return None
    allowed = await allowed_directories(call) if any(is_local(value) for value in values) else []
    # Opening, reading (up to 15 MiB each) and encoding are file and CPU work: a worker thread keeps the event
    # loop, and every other call on it, going meanwhile.
    return await anyio.to_thread.run_sync(prompt_images, values, allowed)


def prompt_images(values: Sequence[str], allowed: Sequence[Path]) -> list[PromptImage]:
    """Each value checked and encoded, local files only from under `allowed` (VALIDATION otherwise)."""
    if len(values) > MAX_IMAGES:
        raise _refused(f"{len(values)} images were given; a prompt takes at most {MAX_IMAGES}.")
    return [prompt_image(value, allowed, f"images[{index}]") for index, value in enumerate(values)]


def prompt_image(value: str, allowed: Sequence[Path], where: str = "image") -> PromptImage:
    """One image argument as the API takes it: inline bytes with their type and size, or an https URL."""
    if is_data_url(value):
        return inline(_data_url_bytes(value, where), where)
    if "://" in value:
        return PromptImage(url=_https_url(value, where))
    return inline(_file_bytes(value, allowed, where), where)


@dataclass(frozen=True)
class Recognised:
    """What image some bytes are: a type a prompt takes, and the size its header gives."""

    mime_type: ImageType
    dimension: ImageDimension


def recognise(data: bytes) -> Recognised | None:
    """The image these bytes are, by their content (never a name): a PNG, JPEG, GIF or WebP magic number and a
    header that gives the size. None for anything else, a text named `.png` or a file cut short."""
    sniffed = cast(str | None, filetype.guess_mime(data[:SNIFF_BYTES]))  # pyright: ignore[reportUnknownMemberType]  # untyped library
    mime = _ALIASES.get(sniffed, sniffed) if sniffed is not None else None
    if mime not in _ACCEPTED:
        return None
    # (-1, -1) when the header cannot be read; its PathLike parameter is unparameterised, hence the ignore.
    width, height = imagesize.get(io.BytesIO(data))  # pyright: ignore[reportUnknownMemberType]
    if width < 1 or height < 1:
        return None  # a magic number alone is three letters ("GIF"): a readable header is the proof
    return Recognised(cast(ImageType, mime), ImageDimension(width=width, height=height))


def inline(data: bytes, where: str) -> PromptImage:
    """Image bytes as the API takes them inline: base64, their type by content, and their size in pixels."""
    if len(data) > MAX_IMAGE_BYTES:
        raise _refused(f"{where} is over {MAX_IMAGE_BYTES:,} bytes (15 MiB), the API's limit per image.")
    image = recognise(data)
    if image is None:
        raise _refused(f"{where} is not a {_KINDS} image by its content (its name or declared type does not count).")
    encoded = base64.b64encode(data).decode("ascii")
    return PromptImage(data=encoded, mime_type=image.mime_type, dimension=image.dimension)


def _data_url_bytes(value: str, where: str) -> bytes:
    header, comma, payload = value.partition(",")
    if not comma or not header.lower().endswith(";base64"):
        raise _refused(f"{where} is a data: URL that is not base64 (data:image/png;base64,...).")
    payload = "".join(payload.split())  # line breaks some encoders insert are not part of the data
    if len(payload) > (MAX_IMAGE_BYTES + 2) // 3 * 4:
        raise _refused(f"{where} is over {MAX_IMAGE_BYTES:,} bytes (15 MiB), the API's limit per image.")
    try:
        return base64.b64decode(payload, validate=True)
    except binascii.Error:
        raise _refused(f"{where} is a data: URL whose data is not valid base64.") from None


def _https_url(value: str, where: str) -> str:
    # The URL itself is never quoted back: a presigned one carries its credential in the query.
    if len(value) > MAX_URL_CHARS or any(ord(char) <= 0x20 or ord(char) == 0x7F for char in value):
        raise _refused(f"{where} is a URL over {MAX_URL_CHARS} characters or with spaces or control characters.")
    try:
        parts = urlsplit(value)
        host = parts.hostname
    except ValueError:
        host, parts = None, None
    if parts is None or parts.scheme.lower() != "https" or not host:
        raise _refused(f"{where} must be an https:// URL (plain http and other schemes are refused).")
    if parts.username is not None or parts.password is not None:
        raise _refused(f"{where} has credentials in its URL; give a URL without user:password@.")
    return value


def _file_bytes(value: str, allowed: Sequence[Path], where: str) -> bytes:
    shown = value[:_SHOWN_CHARS]
    named = f"{where} ({shown!r})"
    target = _inside(value, allowed, named)
    try:
        return _read_opened(target, allowed, named)
    except FileNotFoundError:
        raise _refused(f"{named} does not exist.") from None
    except (IsADirectoryError, _NotRegular):
        raise _refused(f"{named} is not a regular file.") from None
    except OSError as exc:
        raise _refused(f"{named} cannot be read ({exc.strerror or type(exc).__name__}).") from None


def _inside(value: str, allowed: Sequence[Path], named: str) -> Path:
    """The file `value` names, every symlink followed, when it lies under an allowed directory."""
    roots = [resolved for resolved in map(_resolved, allowed) if resolved is not None]
    try:
        # Relative to the first allowed directory; resolve() follows every symlink, so a link out is seen as out.
        target = (roots[0] / Path(value).expanduser() if roots else Path(value).expanduser()).resolve()
    except (ValueError, RuntimeError, OSError):  # a NUL byte, an unknown ~user, a symlink loop
        raise _refused(f"{named} is not a usable file path.") from None
    if not any(target.is_relative_to(root) for root in roots):
        # Judged before the file is looked at: a refusal must not tell whether a file outside exists.
        raise _outside(named, roots)
    return target


def _outside(named: str, roots: Sequence[Path]) -> ToolFailure:
    places = ", ".join(str(root) for root in roots[:3]) or "none: the client's roots name no local folder"
    return _refused(
        f"{named} is outside the allowed directories ({places}). A local image must be under the client's "
        "roots, or under the server's working directory when the client declares none; copy it there."
    )


def _resolved(root: Path) -> Path | None:
    """An allowed directory with every symlink followed; None for one that names no usable folder (a client's
    `file:///x%00` decodes to a NUL byte, a symlink loop): such a root allows nothing."""
    try:
        return root.resolve()
    except (ValueError, RuntimeError, OSError):
        return None


class _NotRegular(Exception):
    """A device, a FIFO or a socket: never read as an image."""


def _read_opened(target: Path, allowed: Sequence[Path], named: str) -> bytes:
    """The file opened once, judged by what was opened (where it is, what it is), and read from that descriptor.

    The name was checked already, but a folder on the way can be swapped for a link between that check and the
    open: so the opened file's own path (through its descriptor) must lie under an allowed directory too.
    """
    # O_NOFOLLOW: the path was resolved already, so a link in the last place was put in since; O_NONBLOCK: a FIFO
    # does not hang the open. At most one byte past the limit is read, never a whole huge file.
    descriptor = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(descriptor, "rb") as handle:
        roots = [resolved for resolved in map(_resolved, allowed) if resolved is not None]
        opened = _opened_path(handle.fileno(), target)
        if opened is None or not any(opened.is_relative_to(root) for root in roots):
            raise _outside(named, roots)
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise _NotRegular
        return handle.read(MAX_IMAGE_BYTES + 1)


def _opened_path(descriptor: int, target: Path) -> Path | None:
    """Where the opened file is, as the system knows it from its descriptor (None when it cannot say).

    Linux names it in /proc/self/fd, macOS through F_GETPATH. Elsewhere the name is resolved again, and the file
    found there must be the opened one (same device and inode), else None.
    """
    try:
        return Path(os.readlink(f"/proc/self/fd/{descriptor}"))
    except OSError:
        pass
    get_path = getattr(fcntl, "F_GETPATH", None)  # macOS
    if get_path is not None:
        try:
            return Path(os.fsdecode(fcntl.fcntl(descriptor, get_path, bytes(1024)).rstrip(b"\0")))
        except OSError:
            return None
    try:
        resolved = target.resolve(strict=True)  # the folders on the way as they are now
        same = os.path.samestat(os.fstat(descriptor), os.stat(resolved))
    except (OSError, RuntimeError):
        return None
    return resolved if same else None


def _refused(problem: str) -> ToolFailure:
    return ToolFailure(failures.VALIDATION, f"{problem} Nothing was sent.")
