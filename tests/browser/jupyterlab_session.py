"""JupyterLab on a free loopback port, opened by Playwright in Debian's Chromium, offline.

``JupyterLab(folder)`` starts ``jupyter lab`` (a token, no browser, this interpreter's packages,
settings and workspaces in ``folder``, so nothing of the user's Lab is read or written) and
``open_notebook`` opens one notebook in Chromium with every request outside the Lab refused
and recorded, and every console error and page error recorded (``problems``).
"""

import json
import os
import secrets
import subprocess
import sys
import time
import urllib.request

import portpicker

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run"]
# Lab's own settings: every cell drawn (no windowing), no news or update checks (offline).
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false", "checkForUpdates": False},
}
# Runs code in the open notebook's kernel and returns what it printed (errors as "ERROR ...").
KERNEL_PRINT = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, store_history: false});
  let out = "";
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === "stream") out += msg.content.text;
    if (msg.header.msg_type === "error") out += `ERROR ${msg.content.ename}: ${msg.content.evalue}`;
  };
  await future.done;
  return out;
}"""


class JupyterLab:
    """``jupyter lab`` serving ``folder`` on 127.0.0.1; ``url(path)`` carries the token."""

    def __init__(self, folder, env=None, timeout=90):
        self.folder, self.port, self.token = folder, portpicker.pick_unused_port(), secrets.token_hex(16)
        for name, values in SETTINGS.items():
            path = folder / ".lab-settings" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))
        self.log = open(folder / ".jupyterlab.log", "w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
             f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
             f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={folder}",
             "--allow-root",  # CI containers run as root; the server listens on loopback only
             "--LabApp.expose_app_in_browser=True", "--LabApp.extension_manager=readonly",
             "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
            cwd=folder, stdout=self.log, stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {}), "JUPYTERLAB_SETTINGS_DIR": str(folder / ".lab-settings"),
                 "JUPYTERLAB_WORKSPACES_DIR": str(folder / ".lab-workspaces"),
                 "JUPYTER_RUNTIME_DIR": str(folder / ".jupyter-runtime")})
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = self.log_tail()
                self.close()
                raise RuntimeError(f"jupyter lab did not start: {log}")
            time.sleep(0.25)

    def url(self, path):
        return f"http://127.0.0.1:{self.port}/{path}?token={self.token}"

    def _answers(self):
        try:
            with urllib.request.urlopen(self.url("api/status"), timeout=2) as reply:
                return reply.status == 200
        except OSError:
            return False

    def log_tail(self, characters=3000):
        self.log.flush()
        return (self.folder / ".jupyterlab.log").read_text()[-characters:]

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def open_notebook(playwright, lab, name, width=1400, height=900):
    """A Chromium page showing notebook ``name`` with its kernel idle: (browser, page, problems)."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
    page = browser.new_page(viewport={"width": width, "height": height})
    problems, base = [], f"http://127.0.0.1:{lab.port}/"

    def only_the_lab(route):
        if route.request.url.startswith(base):
            route.continue_()
        else:
            problems.append(f"request outside the Lab: {route.request.url}")
            route.abort()

    page.route("**/*", only_the_lab)
    page.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.goto(lab.url(f"lab/tree/{name}"))
    page.wait_for_function("""() => {
        const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
        const kernel = panel && panel.sessionContext && panel.sessionContext.session
                       && panel.sessionContext.session.kernel;
        return kernel && kernel.status === "idle" && panel.content.widgets.length > 0;
    }""", timeout=90_000)
    return browser, page, problems
