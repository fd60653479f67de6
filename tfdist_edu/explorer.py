"""``Explorer``: a few ipywidgets controls feeding a plain function, whose answer is shown as text.

The controls are ipywidgets core widgets (ipywidgets 7, as on Colab, and 8). Without
ipywidgets, or in a frontend that cannot draw widgets (a stored notebook, nbconvert, GitHub),
an explorer shows the same answer as plain text, and ``update(...)`` drives it from code.
The panel (``Explorer.widget``) shows that text too where it cannot be drawn, never
``VBox(children=...``: its ``text/plain`` is the answer, with ipywidgets 8 (``_repr_mimebundle_``)
and 7 (``_ipython_display_``). Controls that keep their numbers: ``tfdist_edu.controls``.
"""

import functools
import html

from tfdist_edu.controls import set_control

# The answer keeps its lines and wraps at spaces only (Lab's widget CSS breaks words anywhere).
ANSWER_STYLE = ("white-space: pre-wrap; word-break: normal; overflow-wrap: normal; "
                "font-family: var(--jp-code-font-family, monospace); line-height: 1.4; margin: 0.5em 0")
VIEW = "application/vnd.jupyter.widget-view+json"


class Explorer:
    """Controls feeding a plain function, whose answer is shown as text.

    ``values`` holds the current inputs, ``result`` the function's answer for them and
    ``text`` that answer as plain text. ``controls`` maps input names to their ipywidgets
    controls (empty without ipywidgets): moving one, or calling ``update(name=value)``,
    recomputes. A notebook shows the widgets, or the text where widgets cannot be drawn;
    ``print(explorer)`` prints the text.
    """

    def __init__(self, compute, values, make_controls):
        self._compute = compute
        self.values = dict(values)
        self.result = compute(**self.values)
        self.controls, self.widget, self._syncing = {}, None, False
        try:
            import ipywidgets
        except ImportError:
            return
        self.controls = make_controls(ipywidgets, self.values)
        self._output = ipywidgets.HTML(self._html(), layout=ipywidgets.Layout(width="auto"))
        self._output.add_class("tfdist-answer")
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.widget = panel_class(ipywidgets)([*self.controls.values(), self._output],
                                              lambda: self.text)

    @property
    def text(self):
        return str(self.result)

    def update(self, **values):
        """Set some inputs (moving their controls too) and return the new result.

        Raises ValueError for inputs the function refuses, TypeError for unknown names.
        """
        unknown = set(values) - set(self.values)
        if unknown:
            raise TypeError(f"unknown input(s) {sorted(unknown)}; the inputs are {sorted(self.values)}")
        self.result = self._compute(**{**self.values, **values})
        self.values.update(values)
        self._syncing = True
        try:
            for name, value in values.items():
                if name in self.controls:
                    set_control(self.controls[name], value)
        finally:
            self._syncing = False
        self._show()
        return self.result

    def _on_change(self, change):
        if self._syncing:
            return
        self.values.update({name: c.value for name, c in self.controls.items()})
        self.result = self._compute(**self.values)  # the controls' bounds keep inputs valid
        self._show()

    def _html(self):
        return f'<div style="{ANSWER_STYLE}">{html.escape(self.text)}</div>'

    def _show(self):
        if self.widget is not None:
            self._output.value = self._html()

    def _repr_mimebundle_(self, include=None, exclude=None):
        if self.widget is not None:
            return self.widget._repr_mimebundle_()
        return {"text/plain": self.text}

    def __str__(self):
        return self.text


@functools.lru_cache(maxsize=None)
def panel_class(ipywidgets):
    """A ``VBox`` whose plain-text form is its explorer's answer, ``text()``."""

    class Panel(ipywidgets.VBox):
        """An explorer's controls and answer; shown as the answer's text where not drawn."""

        def __init__(self, children, text):
            super().__init__(children)
            self.text = text

        def __repr__(self):
            return self.text()

        def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
            return {"text/plain": self.text(),
                    VIEW: {"version_major": 2, "version_minor": 0, "model_id": self.model_id}}

        if hasattr(ipywidgets.Widget, "_ipython_display_"):  # how ipywidgets 7 displays
            def _ipython_display_(self, **kwargs):
                from IPython.display import display

                display(self._repr_mimebundle_(), raw=True)
                self._handle_displayed(**kwargs)

    return Panel
