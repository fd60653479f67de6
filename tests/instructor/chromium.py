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
    colours, counts = np.unique(pixels.reshape(-1, 3), axis=0, return_counts=True)
    background = colours[counts.argmax()]
    differs = np.abs(pixels - background).max(axis=-1) > 0.1
    return differs.mean() < 0.005
