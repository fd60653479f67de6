"""Debian's headless Chromium driven over its DevTools pipe, with the network cut: what prints
the handouts (``tfdist_instructor.handouts``) and what the deck, site and accessibility tests use
to open pages as a person would."""

import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

INSTALL_HINT = "scripts/install_slide_deps.sh chromium"


def find_chromium():
    """The path of Debian's ``chromium``; FileNotFoundError saying how to install it otherwise."""
    binary = shutil.which("chromium")
    if binary is None:
        raise FileNotFoundError(f"chromium not found: install it with `{INSTALL_HINT}`")
    return binary


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
        return self.send_each([(method, session, params)], timeout)[0]

    def send_each(self, commands, timeout=30):
        """Send (method, session, params) commands at once and return their results in order.

        Commands to different tabs run at the same time, each in its tab's renderer; events that
        arrive meanwhile go to ``events``. The first error reply raises RuntimeError.
        """
        waiting = {}
        for method, session, params in commands:
            self._last_id += 1
            waiting[self._last_id] = method
            message = {"id": self._last_id, "method": method, "params": params}
            if session:
                message["sessionId"] = session
            os.write(self._commands, json.dumps(message).encode() + b"\0")
        results = {}
        deadline = time.monotonic() + timeout
        while len(results) < len(waiting):
            reply = self._receive(deadline)
            if reply.get("id") in waiting:
                if "error" in reply:
                    raise RuntimeError(f"{waiting[reply['id']]} failed: {reply['error']}")
                results[reply["id"]] = reply["result"]
            else:
                self.events.append(reply)
        return [results[command_id] for command_id in waiting]

    def open_offline_tab(self, window=False):
        """A new tab with the network cut and its events recorded: returns (target, session).

        ``window=True`` opens it in a window of its own, so it stays visible (not a background
        tab, which Chromium hides and throttles) while other tabs are open at the same time.
        """
        target = self.send("Target.createTarget", url="about:blank", newWindow=window)["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Runtime", "Log", "Network", "Page"):
            self.send(f"{domain}.enable", session)
        self.send("Network.emulateNetworkConditions", session, offline=True, latency=0,
                  downloadThroughput=-1, uploadThroughput=-1)
        return target, session

    def evaluate(self, session, expression):
        result = self.send("Runtime.evaluate", session, expression=expression, returnByValue=True)
        return result["result"].get("value")

    def wait_until(self, session, expression, what, timeout=20):
        """Poll ``expression`` in the page until it is truthy; TimeoutError naming ``what`` if not."""
        deadline = time.monotonic() + timeout
        while not self.evaluate(session, expression):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what} within {timeout} s")
            time.sleep(0.1)

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

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
