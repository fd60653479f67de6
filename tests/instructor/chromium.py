"""What the deck, site and accessibility tests add to the course's headless Chromium
(``tfdist_instructor.browser``): the list of what went wrong on a page, and a blank-page check."""

import io

import matplotlib.image
import numpy as np

from tfdist_instructor.browser import HeadlessChromium  # noqa: F401  (the tests' browser)


def problems(events):
    """Script errors, console errors, failed loads and any non-file request, as readable lines."""
    found = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            found.append(f"exception: {details.get('exception', {}).get('description', details['text'])}")
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            found.append(f"console.{params['type']}: {[a.get('value') for a in params['args']]}")
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            found.append(f"log: {params['entry']['text']} {params['entry'].get('url', '')}")
        elif method == "Network.loadingFailed":
            found.append(f"failed load: {params.get('errorText')}")
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            if not url.startswith(("file:", "data:")):
                found.append(f"network request: {url}")
    return found


def blank(png):
    """True when (almost) every pixel of the screenshot has the background colour."""
    pixels = matplotlib.image.imread(io.BytesIO(png))[..., :3]
    background = _commonest_colour(pixels)
    differs = np.zeros(pixels.shape[:2], dtype=bool)
    for channel in range(3):  # a channel at a time: a max over the last axis of length 3 is 5x slower
        differs |= np.abs(pixels[..., channel] - background[channel]) > 0.1
    return differs.mean() < 0.005


def _commonest_colour(pixels):
    """The colour most pixels have (of equally common ones, the lowest in (r, g, b) order).

    Counts each colour's 8-bit code with one bincount: np.unique over rows of a full-page
    screenshot (40 million pixels) sorted them for 100 s. Screenshots are PNGs of 8 bits a channel.
    """
    levels = np.rint(pixels.reshape(-1, 3) * 255).astype(np.uint32)
    codes = levels[:, 0] << 16 | levels[:, 1] << 8 | levels[:, 2]
    commonest = np.bincount(codes, minlength=1 << 24).argmax()
    return pixels.reshape(-1, 3)[np.argmax(codes == commonest)]
