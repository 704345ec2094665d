"""The prompt's images as the client sends them (docs/api-contract.md §3.6): inline data with its type, or a URL."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from cursor_cloud_agents.api import ImageDimension, Prompt, PromptImage


def test_images_go_on_the_wire_in_camel_case_with_only_what_was_set() -> None:
    """docs/api-contract.md §3.6: `{data, mimeType, dimension?}` or `{url}`."""
    prompt = Prompt(
        text="Fix the layout",
        images=[
            PromptImage(data="iVBORw0K", mime_type="image/png", dimension=ImageDimension(width=4, height=3)),
            PromptImage(url="https://example.com/bug.png"),
        ],
    )
    assert prompt.wire() == {
        "text": "Fix the layout",
        "images": [
            {"data": "iVBORw0K", "mimeType": "image/png", "dimension": {"width": 4, "height": 3}},
            {"url": "https://example.com/bug.png"},
        ],
    }


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"data": "AAAA"},
        {"mime_type": "image/png"},
        {"data": "AAAA", "mime_type": "image/png", "url": "https://example.com/a.png"},
        {"url": "https://example.com/a.png", "mime_type": "image/png"},
        {"data": "AAAA", "mime_type": "image/bmp"},
        {"data": "AAAA", "mime_type": "image/png", "dimension": {"width": 0, "height": 1}},
    ],
    ids=["nothing", "data-without-type", "type-without-data", "both", "url-with-type", "bmp", "zero-width"],
)
def test_an_image_that_is_neither_inline_nor_linked_is_refused_before_sending(fields: dict[str, Any]) -> None:
    """Our contract: a malformed image fails in the model, not on a paid call."""
    with pytest.raises(ValidationError):
        PromptImage.model_validate(fields)


def test_a_prompt_takes_at_most_five_images() -> None:
    """docs/api-contract.md §3.6: ≤ 5 images."""
    with pytest.raises(ValidationError):
        Prompt(text="x", images=[PromptImage(url="https://example.com/a.png")] * 6)
