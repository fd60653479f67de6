"""axe-core (installed from the npm registry by ``scripts/install_slide_deps.sh``) run inside a
page opened in the course's headless Chromium: the accessibility audit of the decks and site.

axe runs the rules of WCAG 2.0 and 2.1 at levels A and AA (the standard the ADA Title II rule holds
public universities' web content to), not its best-practice rules: that halves its time on a
lesson page. Only violations of impact "serious" or "critical" fail the tests; ``summary`` lists
them as readable lines (rule, impact, how many elements, the first element and axe's help text).
"""

import json

import pytest

from tfdist_instructor import REPO_ROOT

AXE = REPO_ROOT / "build" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]  # axe-core's tags for those rules


def source():
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: install it with `scripts/install_slide_deps.sh reveal`")
    return AXE.read_text(encoding="utf-8")


def run(browser, session, axe_source, context="document"):
    """Inject axe into the open page and return its violations (a list of axe result dicts)."""
    return run_each(browser, [session], axe_source, context)[0]


def run_each(browser, sessions, axe_source, context="document"):
    """``run`` in several open pages at once (each tab's renderer runs its own axe): their violations."""
    missing = [session for session in sessions if not browser.evaluate(session, "typeof axe !== 'undefined'")]
    browser.send_each([("Runtime.evaluate", session, {"expression": axe_source}) for session in missing])
    options = json.dumps({"resultTypes": ["violations"], "runOnly": {"type": "tag", "values": WCAG_21_AA}})
    run = {"awaitPromise": True, "returnByValue": True,
           "expression": f"axe.run({context}, {options}).then(r => r.violations)"}
    replies = browser.send_each([("Runtime.evaluate", session, run) for session in sessions], timeout=120)
    for reply in replies:
        if "exceptionDetails" in reply:
            raise RuntimeError(f"axe failed: {reply['exceptionDetails']}")
    return [reply["result"]["value"] for reply in replies]


def blocking(violations):
    return [v for v in violations if v["impact"] in BLOCKING]


def summary(violations):
    return [f"{v['id']} ({v['impact']}, {len(v['nodes'])} elements, e.g. "
            f"{v['nodes'][0]['html'][:120]!r}): {v['help']}" for v in violations]
