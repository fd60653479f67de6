"""Every widget the lessons use, drawn in JupyterLab and driven in Debian's Chromium (Playwright).

A notebook holding the lessons' own widget cells (lesson 0's strategy chooser and batch
explorer, lesson 5's what-if panel, their sources read from the lessons) runs in a real kernel.
Each panel must be drawn as controls; every control is moved as a student would (keys, a menu, a
button, typing) and the answer must change, to the text the same inputs give in Python, within
a second; labels and readouts are shown whole and answers wrap only at spaces; the drawn
lesson-5 panel shows the numbers printed above it; the saved notebook shows each answer as text;
and the page logs no error and asks for nothing outside the Lab (offline).
"""

import json
import re
import types
from pathlib import Path

import ipywidgets
import jupyterlab
import nbformat
import pytest

from jupyterlab_session import CHROMIUM, KERNEL_PRINT, JupyterLab, open_notebook
from tfdist_edu import cost_model, speedup, widgets

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "notebooks"
ANSWER_WITHIN_S = 1.0
# The notebook's cells: the lessons' context, then the widget cells (CHOOSER, BATCH, SPEEDUP).
CHOOSER, BATCH, SPEEDUP = 1, 2, 4
# What the widget cells read from their lessons: lesson 0 runs on 2 replicas and 60,000 training
# examples; lesson 5 imports its modules, and its inputs come from its published-figures cell.
CONTEXT = ("import types\nstrategy = types.SimpleNamespace(num_replicas_in_sync=2)\n"
                   "course = types.SimpleNamespace(num_train=60_000)\n"
                   "from tfdist_edu import cost_model, scaling_plots  # lesson 5's imports")
pytestmark = pytest.mark.slow  # JupyterLab, a kernel and Chromium start: 30-60 s on 2 cores
WIDGET_CALL = re.compile(r"\b(\w+_(?:explorer|chooser))\(|\b(ipywidgets|interact\w*)\b")


def code_cells(lesson):
    return [c.source for c in nbformat.read(LESSONS / lesson, as_version=4).cells if c.cell_type == "code"]


def lesson_cell(lesson, text):
    """The source of the one code cell of ``lesson`` that contains ``text``."""
    found = [source for source in code_cells(lesson) if text in source]
    assert len(found) == 1, f"{lesson}: {len(found)} code cells contain {text!r}"
    return found[0]


def widgets_used():
    """{lesson: widget calls} over every lesson's code, comments left out."""
    used = {}
    for path in sorted(LESSONS.glob("[0-9][0-9]_*.ipynb")):
        for source in code_cells(path.name):
            code = "\n".join(line.split("#")[0] for line in source.splitlines())
            for call, module in WIDGET_CALL.findall(code):
                used.setdefault(path.name, set()).add(call or module)
    return used


def test_the_browser_test_draws_every_widget_the_lessons_use():
    assert widgets_used() == {"00_start_here.ipynb": {"strategy_chooser", "batch_explorer"},
                              "05_by_hand.ipynb": {"speedup_explorer"}}


def widget_notebook():
    lesson0, lesson5 = "00_start_here.ipynb", "05_by_hand.ipynb"
    cells = [CONTEXT, lesson_cell(lesson0, "strategy_chooser()"),
             lesson_cell(lesson0, "batch_explorer("),
             lesson_cell(lesson5, "def value(key") + '\nresnet_per_example = value("resnet50_step", '
             '1e-3) / value("resnet50_batch")  # as lesson 5 computes it',
             lesson_cell(lesson5, "speedup_explorer(")]
    assert cells[BATCH].rstrip().endswith("explorer") and cells[SPEEDUP].rstrip().endswith("explorer")
    cells[SPEEDUP] = re.sub(r"\bexplorer\b", "explorer5", cells[SPEEDUP])  # lesson 0's stays
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})


@pytest.fixture(scope="module")
def lab_page(tmp_path_factory):
    """The widget notebook run in JupyterLab: a namespace with page, kernel(code) -> printed
    text, problems (console errors, requests outside the Lab) and the notebook's path."""
    try:
        from playwright import sync_api as playwright_api
    except ImportError:
        pytest.fail("playwright not installed: pip install -e '.[test]' (it uses Debian's chromium)")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not found: install it with `scripts/install_slide_deps.sh chromium`")
    print(f"JupyterLab {jupyterlab.__version__}, ipywidgets {ipywidgets.__version__}, Chromium "
          f"at {CHROMIUM}")
    folder = tmp_path_factory.mktemp("lab")
    nbformat.write(widget_notebook(), folder / "widgets.ipynb")
    lab = JupyterLab(folder, env={"PYTHONPATH": str(ROOT), "TF_CPP_MIN_LOG_LEVEL": "2"})
    try:
        with playwright_api.sync_playwright() as playwright:
            browser, page, problems = open_notebook(playwright, lab, "widgets.ipynb")
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
            try:
                for cell in (CHOOSER, BATCH, SPEEDUP):
                    panel(page, cell).wait_for(timeout=90_000)
            except Exception:
                print(f"problems: {problems}\njupyter lab's log:\n{lab.log_tail()}")
                raise
            yield types.SimpleNamespace(page=page, problems=problems, path=folder / "widgets.ipynb",
                                        kernel=lambda code: page.evaluate(KERNEL_PRINT, code))
            browser.close()
    finally:
        lab.close()


def panel(page, cell):
    """The drawn panel (a VBox) in the output of the notebook's cell ``cell`` (0-based)."""
    return page.locator(".jp-Notebook .jp-Cell").nth(cell).locator(".jp-OutputArea .widget-vbox")


def answer(page, cell):
    return panel(page, cell).locator(".widget-html-content").inner_text()


def values(lab_page, name):
    """The explorer's inputs as its kernel holds them."""
    return json.loads(lab_page.kernel(f"import json; print(json.dumps({name}.values))"))


# Times, in the page, a student's last input (key, mouse, menu, typing) before the answer changes
# and the change itself: the latency a student sees, without Playwright's own round trips.
WATCH = """(shown) => {
  const times = window.__answerTimes = {input: null, answer: null};
  const mark = () => { if (times.answer === null) times.input = performance.now(); };
  const types = ["keydown", "mousedown", "input", "change"];
  types.forEach(type => document.addEventListener(type, mark, true));
  new MutationObserver((records, observer) => {
    times.answer = performance.now();
    observer.disconnect();
    types.forEach(type => document.removeEventListener(type, mark, true));
  }).observe(shown, {childList: true, subtree: true, characterData: true});
}"""


def move(lab_page, cell, act):
    """Do ``act()`` to a control of the panel in ``cell``: seconds from the last input to the
    answer's change, as the page saw them."""
    page = lab_page.page
    panel(page, cell).locator(".widget-html-content").evaluate(WATCH)
    act()
    page.wait_for_function("() => window.__answerTimes.answer !== null", timeout=10_000)
    times = page.evaluate("() => window.__answerTimes")
    seconds = (times["answer"] - times["input"]) / 1e3
    print(f"cell {cell}: answered in {1e3 * seconds:.0f} ms")
    return seconds


def press(lab_page, cell, slider, key="ArrowRight"):
    """Focus the handle of the ``slider``-th slider of the panel and press ``key``."""
    handle = panel(lab_page.page, cell).locator(".widget-slider .noUi-handle").nth(slider)
    return lambda: (handle.focus(), handle.press(key))


def answers_each_move(lab_page, cell, name, moves, expected):
    """Make the ``moves`` ({control: act}) in turn on the panel in ``cell``: each must change
    that control of the kernel's ``name`` and nothing else, the answer within
    ANSWER_WITHIN_S, to ``expected(values)``. The values after the last move."""
    before = values(lab_page, name)
    for control, act in moves.items():
        seconds = move(lab_page, cell, act)
        now = values(lab_page, name)
        changed = {k for k in now if now[k] != before[k]}
        assert changed == {control} and seconds < ANSWER_WITHIN_S, (control, changed, seconds)
        assert answer(lab_page.page, cell).strip() == expected(now).strip()
        before = now
    return before


def test_each_panel_is_drawn_as_its_controls(lab_page):
    counts = {cell: {kind: panel(lab_page.page, cell).locator(selector).count() for kind, selector in (
        ("sliders", ".widget-slider"), ("menus", "select"), ("buttons", ".widget-toggle-button"),
        ("boxes", "input[type=number]"))} for cell in (CHOOSER, BATCH, SPEEDUP)}
    assert counts == {CHOOSER: {"sliders": 2, "menus": 1, "buttons": 2, "boxes": 0},
                      BATCH: {"sliders": 2, "menus": 0, "buttons": 0, "boxes": 1},
                      SPEEDUP: {"sliders": 4, "menus": 0, "buttons": 0, "boxes": 0}}


def test_the_drawn_lesson5_panel_shows_the_numbers_printed_above_it(lab_page):
    printed = lab_page.page.locator(".jp-Notebook .jp-Cell").nth(SPEEDUP).locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stdout']").inner_text()
    assert answer(lab_page.page, SPEEDUP).strip() == printed.strip()
    assert "4 GPUs 186.0 ms (all-reduce 14.8 ms)" in printed
    readouts = panel(lab_page.page, SPEEDUP).locator(".widget-readout").all_inner_texts()
    assert readouts == ["25.6 M", "64", "10.4 GB/s", "4"]
    assert values(lab_page, "explorer5") == dict(parameters_m=25.6, per_device_batch=64,
                                                 link_gb_s=10.4, devices=4)


def test_the_strategy_chooser_answers_each_control_within_a_second(lab_page):
    cell = CHOOSER
    box = panel(lab_page.page, cell)
    # In an order where each move changes the answer (several machines hide the device count).
    moves = {"devices_per_machine": press(lab_page, cell, 1), "machines": press(lab_page, cell, 0),
             "accelerator": lambda: box.locator("select").select_option(label="TPU"),
             "sync": lambda: box.get_by_role("button", name="asynchronous (parameter servers)").click()}
    last = answers_each_move(lab_page, cell, "chooser", moves,
                             lambda now: widgets.strategy_chooser(**now).text)
    assert last == dict(machines=2, accelerator="tpu", devices_per_machine=2, sync=False)


def test_the_batch_explorer_answers_each_control_within_a_second(lab_page):
    cell = BATCH
    examples = panel(lab_page.page, cell).locator("input[type=number]")
    moves = {"replicas": press(lab_page, cell, 0), "per_replica_batch": press(lab_page, cell, 1, "ArrowLeft"),
             "examples": lambda: (examples.fill("1000"), examples.press("Enter"))}
    last = answers_each_move(lab_page, cell, "explorer", moves,
                             lambda now: widgets.batch_explorer(base_learning_rate=0.01, **now).text)
    assert last == dict(replicas=3, per_replica_batch=31, examples=1000)


def test_the_speedup_explorer_answers_each_control_within_a_second(lab_page):
    cell = SPEEDUP
    published = {key: cost_model.PUBLISHED[key].value for key in ("resnet50_step", "resnet50_batch",
                                                                  "ring_latency")}
    fixed = dict(ms_per_example=published["resnet50_step"] / published["resnet50_batch"],
                 fixed_ms=0.0, latency_us=published["ring_latency"])  # as lesson 5 gives them
    moves = {name: press(lab_page, cell, slider)
             for slider, name in enumerate(("parameters_m", "per_device_batch", "link_gb_s", "devices"))}
    last = answers_each_move(lab_page, cell, "explorer5", moves, lambda now: speedup.what_if(**now, **fixed))
    assert last == dict(parameters_m=30, per_device_batch=65, link_gb_s=15, devices=5)
    assert panel(lab_page.page, cell).locator(".widget-readout").all_inner_texts() == [
        "30 M", "65", "15 GB/s", "5"]


# Visual line breaks inside the answer that do not follow a space, a newline or a hyphen.
MID_WORD_BREAKS = """(element) => {
  element.scrollIntoView();
  const chars = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rects = range.getClientRects();
      chars.push([node.data[i], rects.length ? rects[0].top : null]);
    }
  }
  const breaks = [], bad = [];
  for (let i = 1; i < chars.length; i++) {
    const [c, top] = chars[i], [p, previous] = chars[i - 1];
    if (top === null || previous === null || c === "\\n" || p === "\\n" || top <= previous + 1) continue;
    breaks.push(i);
    if (!/[\\s-]/.test(p)) bad.push(chars.slice(Math.max(0, i - 12), i + 12).map(x => x[0]).join(""));
  }
  return {breaks: breaks.length, bad, overflows: element.scrollWidth > element.clientWidth + 1};
}"""
CUT = """(element) => [...element.querySelectorAll(
    ".widget-label, .widget-readout, .widget-toggle-button, select")]
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.innerText || e.value)"""


@pytest.mark.parametrize("width", [1400, 700])
def test_labels_readouts_and_answers_are_shown_whole(lab_page, width):
    page = lab_page.page
    page.set_viewport_size({"width": width, "height": 900})
    page.wait_for_timeout(300)  # Lab lays the notebook out again
    wrapped = 0
    for cell in (CHOOSER, BATCH, SPEEDUP):
        assert panel(lab_page.page, cell).evaluate(CUT) == [], f"cut at {width} px in cell {cell}"
        found = panel(lab_page.page, cell).locator(".widget-html-content").evaluate(MID_WORD_BREAKS)
        assert found["bad"] == [] and not found["overflows"], (width, cell, found)
        wrapped += found["breaks"]
    assert width > 1000 or wrapped > 0  # at 700 px some answer lines must wrap: the check saw them
    page.set_viewport_size({"width": 1400, "height": 900})


def test_the_saved_notebook_shows_each_answer_as_text(lab_page):
    lab_page.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    lab_page.page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty")
    cells = nbformat.read(lab_page.path, as_version=4).cells
    shown = {i: [o for o in cells[i].outputs if o.output_type == "execute_result"][0].data["text/plain"]
             for i in (CHOOSER, BATCH, SPEEDUP)}
    printed = "".join(o.text for o in cells[SPEEDUP].outputs if o.output_type == "stream")
    assert shown[SPEEDUP].strip() == printed.strip()
    assert shown[CHOOSER] == widgets.strategy_chooser().text
    assert shown[BATCH] == widgets.batch_explorer(replicas=2, per_replica_batch=32, base_learning_rate=0.01,
                                              examples=60_000).text
    assert not any("VBox(" in text for text in shown.values())


def test_the_page_logs_no_error_and_asks_for_nothing_outside_the_lab(lab_page):
    assert lab_page.problems == []
