"""Images for a prompt (core/request/images.py): where a file may come from, what it must be, how it is sent."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

from cursor_cloud_agents.api import PromptImage
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.request.images import MAX_IMAGE_BYTES, MAX_URL_CHARS, prompt_images, recognise
from cursor_cloud_agents.simulator.images import jpeg, png

PNG = png(4, 3)


def refusal(values: list[str], allowed: list[Path]) -> str:
    """The VALIDATION message `prompt_images` answers (the test fails if it accepts)."""
    with pytest.raises(ToolFailure) as refused:
        prompt_images(values, allowed)
    assert refused.value.code == "VALIDATION"
    assert refused.value.message.endswith("Nothing was sent.")
    return refused.value.message


def project(tmp_path: Path) -> Path:
    """An allowed directory holding `shot.png` (a real PNG) and `photo.jpg` (a real JPEG)."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "shot.png").write_bytes(PNG)
    (root / "photo.jpg").write_bytes(jpeg())
    return root


def test_a_png_under_an_allowed_directory_is_sent_inline_with_its_type_and_dimension(tmp_path: Path) -> None:
    """Issue 12: a local file under the roots goes as base64 data with its mimeType and header dimension."""
    root = project(tmp_path)
    (image,) = prompt_images([str(root / "shot.png")], [root])
    assert image.wire() == {
        "data": base64.b64encode(PNG).decode(),
        "mimeType": "image/png",
        "dimension": {"width": 4, "height": 3},
    }


def test_a_relative_path_is_taken_from_the_first_allowed_directory(tmp_path: Path) -> None:
    """Our choice: the client's first root (or the working directory) is where a relative path starts."""
    root = project(tmp_path)
    (image,) = prompt_images(["photo.jpg"], [root])
    assert (image.mime_type, image.dimension and image.dimension.width) == ("image/jpeg", 8)


@pytest.mark.parametrize("name", ["id_rsa", "missing.png"], ids=["existing", "absent"])
def test_a_file_outside_the_allowed_directories_is_refused_with_the_rule_whether_or_not_it_exists(
    tmp_path: Path, name: str
) -> None:
    """Issue 12: a model must not send ~/.ssh/id_rsa; the refusal names the rule and does not tell existence."""
    root = project(tmp_path)
    outside = tmp_path / "home" / ".ssh"
    outside.mkdir(parents=True)
    (outside / "id_rsa").write_bytes(PNG)  # even a real image is refused there
    message = refusal([str(outside / name)], [root])
    assert "outside the allowed directories" in message and "client's roots" in message
    assert str(root) in message and "does not exist" not in message


def test_a_symlink_inside_that_points_outside_is_refused(tmp_path: Path) -> None:
    """Issue 12: symlinks are followed before the directory check."""
    root = project(tmp_path)
    secret = tmp_path / "secret.png"
    secret.write_bytes(PNG)
    (root / "innocent.png").symlink_to(secret)
    assert "outside the allowed directories" in refusal([str(root / "innocent.png")], [root])


def test_dot_dot_out_of_an_allowed_directory_is_refused(tmp_path: Path) -> None:
    """A path that climbs out with .. is judged where it lands."""
    root = project(tmp_path)
    (tmp_path / "other.png").write_bytes(PNG)
    assert "outside the allowed directories" in refusal(["../other.png"], [root])


def test_with_no_allowed_directory_every_local_file_is_refused(tmp_path: Path) -> None:
    """The lead's roots answer []: the client declared roots but none is a local folder (or it did not answer)."""
    root = project(tmp_path)
    assert "none: the client's roots name no local folder" in refusal([str(root / "shot.png")], [])


def test_a_text_file_named_png_is_refused_by_its_bytes(tmp_path: Path) -> None:
    """Issue 12: the type is the bytes', not the name's."""
    root = project(tmp_path)
    (root / "notes.png").write_text("not an image at all\n")
    assert "is not a PNG, JPEG, GIF or WebP image by its content" in refusal([str(root / "notes.png")], [root])


def test_a_16_mb_file_is_refused_after_reading_one_byte_past_the_limit(tmp_path: Path) -> None:
    """Issue 12: at most 15 MiB per image; the (sparse) file starts as a PNG so only its size is wrong."""
    root = project(tmp_path)
    big = root / "huge.png"
    with big.open("wb") as handle:
        handle.write(PNG)
        handle.truncate(16 * 1000 * 1000)
    assert "over 15,728,640 bytes (15 MiB)" in refusal([str(big)], [root])


def test_a_file_of_exactly_the_limit_is_accepted(tmp_path: Path) -> None:
    """The limit itself is allowed (the API says at most 15 MB)."""
    root = project(tmp_path)
    edge = root / "edge.png"
    with edge.open("wb") as handle:
        handle.write(PNG)
        handle.truncate(MAX_IMAGE_BYTES)
    (image,) = prompt_images([str(edge)], [root])
    assert image.mime_type == "image/png" and len(base64.b64decode(image.data or "")) == MAX_IMAGE_BYTES


@pytest.mark.parametrize(
    ("name", "problem"),
    [("absent.png", "does not exist"), ("folder.png", "is not a regular file")],
    ids=["absent", "dir"],
)
def test_a_missing_file_or_a_directory_under_the_roots_is_refused_plainly(
    tmp_path: Path, name: str, problem: str
) -> None:
    """Inside the roots, the refusal says what is wrong with the path."""
    root = project(tmp_path)
    (root / "folder.png").mkdir()
    assert problem in refusal([str(root / name)], [root])


def test_a_fifo_under_the_roots_is_refused_without_hanging(tmp_path: Path) -> None:
    """A named pipe would block a plain open(); it is opened non-blocking and refused as not a regular file."""
    root = project(tmp_path)
    os.mkfifo(root / "pipe.png")
    assert "is not a regular file" in refusal([str(root / "pipe.png")], [root])


def test_a_data_url_is_decoded_and_judged_by_its_bytes_not_its_declared_type(tmp_path: Path) -> None:
    """Issue 12: a data: URL is checked like a file; the declared type is replaced by the true one."""
    encoded = base64.b64encode(jpeg()).decode()
    (image,) = prompt_images([f"data:image/png;base64,{encoded[:20]}\n{encoded[20:]}"], [tmp_path])
    assert image.wire() == {"data": encoded, "mimeType": "image/jpeg", "dimension": {"width": 8, "height": 8}}


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("data:image/png,rawbytes", "not base64"),
        ("data:image/png;base64,@@@@", "not valid base64"),
        ("data:image/png;base64," + base64.b64encode(b"GIF? no, a text").decode(), "by its content"),
        ("data:image/png;base64," + "A" * (MAX_IMAGE_BYTES // 3 * 4 + 8), "over 15,728,640 bytes"),
    ],
    ids=["not-base64-form", "bad-base64", "text-inside", "too-big"],
)
def test_a_bad_data_url_is_refused(value: str, problem: str) -> None:
    """Issue 12: data URLs are decoded and checked (type by bytes, size) like files."""
    assert problem in refusal([value], [])


def test_an_https_url_is_passed_on_as_a_url() -> None:
    """Issue 12: an https URL is sent as {"url": ...} for Cursor to fetch."""
    url = "https://example.com/shots/bug.png?sig=abc"
    assert prompt_images([url], []) == [PromptImage(url=url)]


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("http://example.com/bug.png", "must be an https:// URL"),
        ("ftp://example.com/bug.png", "must be an https:// URL"),
        ("file:///etc/passwd", "must be an https:// URL"),
        ("https://user:secret@example.com/bug.png", "credentials"),
        ("https://example.com/" + "a" * MAX_URL_CHARS, f"over {MAX_URL_CHARS} characters"),
        ("https://example.com/a b.png", "spaces or control characters"),
    ],
    ids=["http", "ftp", "file", "credentials", "too-long", "space"],
)
def test_a_url_other_than_a_plain_https_one_is_refused_without_quoting_it(value: str, problem: str) -> None:
    """Issue 12: http refused, length bounded; the URL is never echoed (a presigned one is a credential)."""
    message = refusal([value], [])
    assert problem in message
    assert "secret" not in message and "example.com" not in message


def test_six_images_are_refused_before_any_is_read(tmp_path: Path) -> None:
    """Issue 12 and docs/api-contract.md §3.6: at most 5 images."""
    assert "6 images were given; a prompt takes at most 5" in refusal([str(tmp_path / "absent.png")] * 6, [tmp_path])


def test_the_refusal_names_which_image_is_wrong(tmp_path: Path) -> None:
    """The message says images[i], so the model knows which one to change."""
    root = project(tmp_path)
    assert refusal([str(root / "shot.png"), "http://x.example/a.png"], [root]).startswith("images[1] ")


GIF_3X2 = b"GIF89a\x03\x00\x02\x00" + b"\x00" * 20
WEBP_3X2 = b"RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00" + b"\x00" * 3 + b"\x9d\x01\x2a\x03\x00\x02\x00" + b"\x00" * 8


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (png(3, 2), "image/png"),
        (jpeg()[:2] + b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + jpeg()[2:], "image/jpeg"),
        (GIF_3X2, "image/gif"),
        (WEBP_3X2, "image/webp"),
        (b"BM" + b"\x00" * 40, None),
        (b"%PDF-1.7\n", None),
        (b"GIF? no, a text", None),
        (png(3, 2)[:20], None),
        (b"", None),
    ],
    ids=["png", "jpeg-jfif", "gif", "webp", "bmp", "pdf", "gif-letters-only", "png-cut-short", "empty"],
)
def test_recognise_accepts_exactly_the_four_types_a_prompt_takes_with_a_readable_header(
    data: bytes, expected: str | None
) -> None:
    """docs/api-contract.md §3.6: png, jpeg, gif, webp; a magic number alone (three letters for GIF) is not enough."""
    image = recognise(data)
    assert (image and image.mime_type) == expected
    if image is not None:
        assert (image.dimension.width, image.dimension.height) in ((3, 2), (8, 8))


@pytest.mark.parametrize("value", ["~nosuchuser-4242/shot.png", "shot\0.png", "loop.png"], ids=["user", "nul", "loop"])
def test_an_unusable_path_is_a_validation_refusal_not_an_internal_error(tmp_path: Path, value: str) -> None:
    """Hostile input: an unknown ~user, a NUL byte or a symlink loop is refused plainly."""
    root = project(tmp_path)
    (root / "loop.png").symlink_to(root / "loop.png")
    assert "is not a usable file path" in refusal([value], [root])
