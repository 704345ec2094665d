"""Images in the simulator: real sample files, the `images` scenario's artifacts, and prompt image validation."""

from __future__ import annotations

import base64
from typing import Any

import httpx2
import pytest

from cursor_cloud_agents.core.request.images import recognise
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, World, build_scenario, serve
from cursor_cloud_agents.simulator.images import jpeg, png
from cursor_cloud_agents.simulator.validation import MAX_IMAGE_BYTES

AUTH = {"Authorization": f"Bearer {SIMULATED_API_KEY}"}
PNG_DATA = base64.b64encode(png(2, 2)).decode()


@pytest.mark.parametrize(
    ("content", "mime_type", "size"),
    [(png(64, 48), "image/png", (64, 48)), (jpeg(), "image/jpeg", (8, 8)), (png(1, 1), "image/png", (1, 1))],
    ids=["png", "jpeg", "one-pixel-png"],
)
def test_the_sample_images_are_real_images_to_a_type_and_size_sniffer(
    content: bytes, mime_type: str, size: tuple[int, int]
) -> None:
    """The scenario's files are true images (checked by filetype and imagesize, as the server reads them)."""
    image = recognise(content)
    assert image is not None
    assert (image.mime_type, image.dimension.width, image.dimension.height) == (mime_type, *size)


def test_a_png_grows_with_its_pixels_so_a_big_one_is_easy_to_make() -> None:
    """Stored uncompressed: 640 x 640 is over the 1,000,000-byte default image limit of the server."""
    assert len(png(640, 640)) > 640 * 640 * 3 > 1_000_000


@pytest.mark.anyio
async def test_the_images_scenario_serves_its_png_and_jpeg_bytes_through_the_download_url() -> None:
    """Issue 12: an image artifact is downloaded byte for byte, its listed size its true size."""
    world = build_scenario("images", ManualClock())
    agent_id = next(iter(world.agents))
    async with serve(world) as sim, httpx2.AsyncClient(base_url=sim.base_url, headers=AUTH, timeout=10) as client:
        listed = (await client.get(f"/v1/agents/{agent_id}/artifacts")).json()["items"]
        served: dict[str, bytes] = {}
        for item in listed:
            link = (await client.get(f"/v1/agents/{agent_id}/artifacts/download", params={"path": item["path"]})).json()
            served[item["path"]] = (await client.get(link["url"])).content
    assert served == {
        "artifacts/settings-page.png": png(64, 48),
        "artifacts/avatar.jpg": jpeg(),
        "artifacts/full-page.png": png(640, 640),
    }
    assert {item["path"]: item["sizeBytes"] for item in listed} == {path: len(data) for path, data in served.items()}


def test_the_demo_screenshot_is_a_real_png() -> None:
    """The demo's "Take screenshots" agent wrote a true PNG, so a client can be shown it."""
    world = build_scenario("demo", ManualClock())
    scripts = [run.script for agent in world.agents.values() for run in agent.runs]
    (shot,) = [spec for script in scripts for spec in script.artifacts if spec.path == "artifacts/screenshot.png"]
    assert shot.content is not None and recognise(shot.content) is not None


def body_with(image: dict[str, Any]) -> dict[str, Any]:
    return {"prompt": {"text": "Fix the layout", "images": [image]}}


BAD_IMAGES = [
    ({"data": "@@@@", "mimeType": "image/png"}, "image.data must be base64"),
    ({"data": "A" * ((MAX_IMAGE_BYTES // 3 + 1) * 4), "mimeType": "image/png"}, "at most 15 MB"),
    ({"data": PNG_DATA, "mimeType": "image/bmp"}, "mimeType among png, jpeg, gif, webp"),
    ({"data": PNG_DATA}, "mimeType among png, jpeg, gif, webp"),
    ({"url": "ftp://example.com/a.png"}, "image.url must be an http(s) URL"),
    ({"data": PNG_DATA, "mimeType": "image/png", "dimension": {"width": 0, "height": 2}}, "integer width and height"),
    ({"data": PNG_DATA, "mimeType": "image/png", "dimension": {"width": True, "height": 2}}, "integer width"),
    ({"data": PNG_DATA, "mimeType": "image/png", "dimension": {"width": 2.5, "height": 2}}, "integer width"),
]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("image", "message"),
    BAD_IMAGES,
    ids=["not-base64", "over-15-mib", "bmp", "no-type", "ftp-url", "zero-width", "bool-width", "float-width"],
)
async def test_the_simulator_refuses_what_the_api_would_of_a_prompt_image(
    client: httpx2.AsyncClient, image: dict[str, Any], message: str
) -> None:
    """docs/api-contract.md §3.6: each image `{data, mimeType}` or `{url}`, ≤ 15 MB, dimension ints ≥ 1; else 400."""
    response = await client.post("/v1/agents", json=body_with(image))
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "validation_error" and message in response.json()["error"]["message"]


@pytest.mark.anyio
async def test_the_simulator_accepts_an_inline_image_of_exactly_15_mib(client: httpx2.AsyncClient) -> None:
    """The limit itself is allowed."""
    exact = base64.b64encode(bytes(MAX_IMAGE_BYTES)).decode()
    created = await client.post("/v1/agents", json=body_with({"data": exact, "mimeType": "image/png"}))
    assert created.status_code == 201, created.text


@pytest.mark.anyio
@pytest.mark.parametrize(
    "image",
    [{"data": PNG_DATA, "mimeType": "image/png", "dimension": {"width": 2, "height": 2}}, {"url": "https://e.com/a"}],
    ids=["inline-with-dimension", "url"],
)
async def test_a_follow_up_takes_images_by_the_same_rules(
    world: World, client: httpx2.AsyncClient, image: dict[str, Any]
) -> None:
    """docs/api-contract.md §3.7: `prompt.images` on a follow-up, as on a creation."""
    runs = f"/v1/agents/{world.add_agent('Add a README', created_ago=3600).id}/runs"
    refused = await client.post(runs, json=body_with({"data": "@@@@", "mimeType": "image/png"}))
    followed = await client.post(runs, json=body_with(image))
    assert refused.status_code == 400
    assert followed.status_code == 201, followed.text
