"""Debian's headless Chromium driven over its DevTools pipe, with the network cut: what the
deck and site tests use to open pages as a person would, and to list what went wrong."""

import fcntl
import io
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

import matplotlib.image
import numpy as np


class HeadlessChromium:
    """Chromium driven through the DevTools protocol over ``--remote-debugging-pipe``.

    The pipe (file descriptors 3 and 4 of the browser) needs no port and no extra package. The
    browser gets a dead proxy and a resolver that resolves nothing, and every page is put
    offline before it loads, so any network fetch fails and is recorded.
    """

    def __init__(self, binary):
        self._profile = tempfile.mkdtemp(prefix="tfdist_chromium_")
        commands_r, self._commands = os.pipe()
        self._replies, replies_w = os.pipe()

        def wire_pipes():  # runs in the child: put the pipe ends on fds 3 and 4
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (commands_r, replies_w)]
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self._process = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-pipe", f"--user-data-dir={self._profile}", "--window-size=1280,720",
             "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND", "about:blank"],
            preexec_fn=wire_pipes, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_r)
        os.close(replies_w)
        self._buffer = b""
        self._last_id = 0
        self.events = []

    def send(self, method, session=None, timeout=30, **params):
        """Send one command and return its result; events that arrive meanwhile go to ``events``."""
        self._last_id += 1
        message = {"id": self._last_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._last_id:
                if "error" in reply:
                    raise RuntimeError(f"{method} failed: {reply['error']}")
                return reply["result"]
            self.events.append(reply)

    def open_offline_tab(self):
        """A new tab with the network cut and its events recorded: returns (target, session)."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Runtime", "Log", "Network", "Page"):
            self.send(f"{domain}.enable", session)
        self.send("Network.emulateNetworkConditions", session, offline=True, latency=0,
                  downloadThroughput=-1, uploadThroughput=-1)
        return target, session

    def evaluate(self, session, expression):
        result = self.send("Runtime.evaluate", session, expression=expression, returnByValue=True)
        return result["result"].get("value")

    def _receive(self, deadline):
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._replies], [], [], left)[0]:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._replies, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium exited")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def close(self):
        self._process.kill()
        self._process.wait()
        os.close(self._commands)
        os.close(self._replies)
        shutil.rmtree(self._profile, ignore_errors=True)


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
