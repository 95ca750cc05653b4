"""Browser tier: every notebook opened in a real JupyterLab, run, and its widgets moved.

For each notebook (on its defaults: ``DATA_SIZE="small"``, ``INTERACTIVE=True``) the test

1. opens it in JupyterLab in headless Chromium and runs all cells (Lab's
   ``notebook:run-all-cells`` command), waiting until the kernel is idle and every code cell has
   an execution count;
2. asserts that no cell raised: no ``error`` message from the kernel, no rendered
   ``Traceback`` in any output, and at least as many rendered, loaded images as the notebook has
   cells that save a figure;
3. finds every control of every widget the notebook displays (sliders, dropdowns, multiple
   selections, text and number fields, comboboxes, toggle buttons, checkboxes) and moves each
   one in turn, as a reader would: a slider handle by the keyboard, another option, another
   word. After each move it waits for the kernel and asserts that the widget's result (the text
   and images of its ``Output`` and ``HTML`` parts) changed, is not empty, and shows no
   traceback, and that the kernel reported no error. A control whose effect waits for a button
   (the "fit" of the MVLSA explorer) is followed by a click on the widget's buttons;
   It also asserts, on the defaults and after each move that changed the result, that nothing
   of the widget hides behind an inner vertical scroll box (a list control excepted) and that
   every control has a label or a tooltip;
4. saves a screenshot of each widget cell to ``results/screenshots/<notebook>.png``.

A notebook without widgets only gets steps 1-2. Run the tier alone with
``.venv/bin/pytest -m browser tests/browser``.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
import pytest

from workbench.runner import list_notebooks

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = list_notebooks(ROOT / "notebooks")

#: Opening a notebook and starting its kernel.
OPEN_TIMEOUT = 120.0
#: Running all cells of one notebook on small data (most take well under a minute).
RUN_TIMEOUT = 600.0
#: One widget interaction (a refit of the MVLSA explorer is the slowest).
MOVE_TIMEOUT = 180.0
#: The kernel counts as settled once idle with no message for this long (seconds).
QUIET = 1.0
#: A move that changed nothing is recognised after this long with a settled kernel.
NO_CHANGE_AFTER = 4.0
#: Words typed into free-text fields (the first one not already there is used).
WORDS = ("city", "house", "water", "time")

TRACEBACK = "Traceback (most recent call last)"
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

# --------------------------------------------------------------------------- page scripts

_ATTACH = """async (name) => {
  const app = window.jupyterapp;
  const panel = app.shell.currentWidget;
  if (!panel || !panel.context || !panel.context.path.endsWith(name)) {
    throw new Error('current widget is not ' + name);
  }
  await panel.context.ready;
  await panel.sessionContext.ready;
  const wb = {panel, errors: [], last: Date.now(), count: 0};
  window.__wb = wb;
  panel.sessionContext.iopubMessage.connect((_, msg) => {
    wb.last = Date.now();
    wb.count += 1;
    const type = msg.header.msg_type;
    const c = msg.content;
    if (type === 'error') {
      wb.errors.push(c.ename + ': ' + c.evalue + '\\n' + (c.traceback || []).join('\\n'));
    } else if (type === 'stream' && c.name === 'stderr' && c.text.includes('Traceback (most')) {
      wb.errors.push(c.text);
    }
  });
  return panel.id;
}"""

_STATE = """() => {
  const wb = window.__wb;
  const session = wb.panel.sessionContext.session;
  const kernel = session ? session.kernel : null;
  const counts = [];
  for (const cell of wb.panel.content.model.cells) {
    if (cell.type === 'code' && cell.sharedModel.getSource().trim()) counts.push(cell.executionCount);
  }
  const prompts = [...wb.panel.node.querySelectorAll('.jp-InputPrompt')].map(n => n.textContent);
  return {
    status: kernel ? kernel.status : 'no kernel',
    quiet: (Date.now() - wb.last) / 1000,
    count: wb.count,
    pending: counts.filter(c => c === null).length,
    running: prompts.filter(t => t.includes('*')).length,
    errors: wb.errors,
  };
}"""

_IMAGES = """(root) => [...root.querySelectorAll('.jp-OutputArea-output img')].map(
  img => ({loaded: img.complete && img.naturalWidth > 0, w: img.naturalWidth}))"""

#: Text and images of the results of one widget (its Output and HTML parts).
_RESULT = """(view) => {
  const parts = [];
  for (const node of view.querySelectorAll('.widget-output, .widget-html, .widget-htmlmath')) {
    if (node.parentElement.closest('.widget-output')) continue;  // nested: counted with its parent
    parts.push(node.innerText.trim());
    for (const img of node.querySelectorAll('img')) parts.push('img:' + img.src.length + ':' + img.src.slice(-64));
  }
  return parts.join('\\n----\\n');
}"""

#: Parts of a widget that hide some of their content behind an inner vertical scroll bar.
_SCROLL_BOXES = """(view) => {
  const hidden = [];
  for (const node of [view, ...view.querySelectorAll('*')]) {
    const style = getComputedStyle(node);
    if (!['auto', 'scroll'].includes(style.overflowY)) continue;
    if (node.matches('select, textarea, .widget-select-multiple, .widget-select')) continue;  // lists
    if (node.scrollHeight > node.clientHeight + 2) {
      hidden.push(node.className + ': ' + node.clientHeight + ' of ' + node.scrollHeight + ' px shown');
    }
  }
  return hidden;
}"""

#: Controls of a widget with neither a visible label nor a tooltip (title).
_UNLABELLED = """(view) => {
  const bare = [];
  const controls = view.querySelectorAll(
    '.widget-slider, .widget-dropdown, .widget-select, .widget-text, .widget-textarea,'
    + ' .widget-toggle-buttons, .widget-checkbox, .widget-radio-box, .widget-button');
  for (const c of controls) {
    const label = c.querySelector(':scope > .widget-label, :scope > label');
    const text = (label ? label.innerText : '') + (c.matches('.widget-button') ? c.innerText : '');
    const title = c.getAttribute('title') || (c.querySelector('[title]') || {}).title || '';
    if (!text.trim() && !title.trim()) bare.push(c.className.split(' ').slice(0, 3).join(' '));
  }
  return bare;
}"""

#: Hide (True) or show again (False) the outputs of a cell that are not widgets.
_ONLY_WIDGETS = """(area, hide) => {
  for (const child of area.querySelectorAll(':scope > .jp-OutputArea-child')) {
    if (!child.querySelector(':scope > .jp-OutputArea-output > .jupyter-widgets')) {
      child.style.display = hide ? 'none' : '';
    }
  }
}"""

# The controls of a widget, by kind (each kind is moved by MOVERS[kind]).
CONTROLS = {
    "slider": ".widget-slider .noUi-handle",
    "dropdown": ".widget-dropdown select",
    "select": ".widget-select select",
    "text": ".widget-text input:not([type=number]), .widget-textarea textarea",
    "number": ".widget-text input[type=number]",
    "toggle-buttons": ".widget-toggle-buttons",
    "checkbox": ".widget-checkbox input[type=checkbox]",
    "radio": ".widget-radio-box",
}
BUTTONS = "button.widget-button"
#: A top-level widget shown by a cell (widgets nested in it are its parts).
TOP = ".jp-Cell-outputArea > .jp-OutputArea-child > .jp-OutputArea-output > .jupyter-widgets"
#: How many moves of one control are tried before its result is said not to change.
ATTEMPTS = 3


@dataclass
class Notebook:
    """One notebook opened in JupyterLab (``page`` is a Playwright page)."""

    page: Any = field(repr=False)
    name: str
    problems: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    # ---- opening and running

    def open(self, lab: Any) -> None:
        # a workspace of its own: Lab restores nothing from another test
        self.page.goto(lab.url(f"/lab/workspaces/t{self.name}/tree/{self.name}.ipynb"))
        self.page.wait_for_function(
            "(name) => window.jupyterapp && window.jupyterapp.shell.currentWidget"
            " && window.jupyterapp.shell.currentWidget.context"
            " && window.jupyterapp.shell.currentWidget.context.path.endsWith(name)",
            arg=f"{self.name}.ipynb",
            timeout=OPEN_TIMEOUT * 1000,
        )
        panel_id = self.page.evaluate(_ATTACH, f"{self.name}.ipynb")
        self.panel = self.page.locator(f"[id='{panel_id}']")
        self.wait_settled(OPEN_TIMEOUT, "the kernel to start")

    def state(self) -> dict[str, Any]:
        return self.page.evaluate(_STATE)

    def errors(self) -> list[str]:
        return [ANSI.sub("", e) for e in self.state()["errors"]]

    def wait_settled(self, timeout: float, what: str) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            st = self.state()
            self._check_alive(st)
            if st["status"] == "idle" and st["quiet"] >= QUIET and not st["running"]:
                return st
            if time.monotonic() > deadline:
                pytest.fail(
                    f"{self.name}: timed out after {timeout:.0f} s waiting for {what}: {st}"
                )
            time.sleep(0.25)

    def run_all(self) -> None:
        self.page.evaluate(
            "() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }"
        )
        deadline = time.monotonic() + RUN_TIMEOUT
        while True:
            time.sleep(1.0)
            st = self.wait_settled(max(1.0, deadline - time.monotonic()), "all cells to run")
            if st["errors"]:  # Lab stops at the failing cell: the rest stays without a count
                break
            if not st["pending"]:
                # idle with every count set; check once more (a queued cell may not have started)
                time.sleep(QUIET)
                st = self.state()
                if st["status"] == "idle" and not st["pending"] and not st["running"]:
                    break
            if time.monotonic() > deadline:
                pytest.fail(f"{self.name}: cells still not run after {RUN_TIMEOUT:.0f} s: {st}")
        self.assert_no_errors("running all cells")

    # ---- page checks

    def assert_no_errors(self, when: str) -> None:
        errors = self.errors()
        if errors:
            pytest.fail(
                f"{self.name}: the kernel reported an error {when}:\n"
                + "\n\n".join(_shorten(e) for e in errors),
                pytrace=False,
            )
        shown = self.panel.locator(".jp-OutputArea-output").filter(has_text=TRACEBACK)
        if shown.count():
            pytest.fail(
                f"{self.name}: a traceback is shown {when}:\n{_shorten(shown.first.inner_text())}",
                pytrace=False,
            )

    def images(self) -> list[dict[str, Any]]:
        return self.panel.evaluate(_IMAGES)

    def widget_cells(self) -> list[Any]:
        """Cells that display at least one widget."""
        cells = self.panel.locator(".jp-Notebook .jp-Cell")
        return [cells.nth(i) for i in range(cells.count()) if cells.nth(i).locator(TOP).count()]

    # ---- widgets

    def result(self, view: Any) -> str:
        return view.evaluate(_RESULT)

    def await_change(self, view: Any, before: str, count: int) -> tuple[bool, str]:
        """Wait for the kernel to act on a move; (did the widget's result change, the result).

        ``count`` is the number of kernel messages seen before the move: the kernel has acted
        once it has sent more and is idle again.
        """
        start = time.monotonic()
        deadline = start + MOVE_TIMEOUT
        while True:
            time.sleep(0.25)
            st = self.state()
            self._check_alive(st)
            heard = st["count"] > count
            settled = st["status"] == "idle" and st["quiet"] >= QUIET
            now = self.result(view)
            waited = time.monotonic() - start
            if settled and (now != before or st["errors"]):
                time.sleep(0.3)  # let the widget views render the last message
                return now != before, self.result(view)
            if settled and waited >= (NO_CHANGE_AFTER if heard else 3 * NO_CHANGE_AFTER):
                return False, now  # (not heard: the move did not reach the kernel)
            if time.monotonic() > deadline:
                pytest.fail(f"{self.name}: no answer {MOVE_TIMEOUT:.0f} s after a move: {st}")

    def _check_alive(self, st: dict[str, Any]) -> None:
        if st["status"] in ("dead", "no kernel"):
            pytest.fail(f"{self.name}: the kernel is {st['status']}\n{st}", pytrace=False)

    def check_presentation(self, view: Any, where: str) -> None:
        """The widget's results are visible without an inner scroll box, and every control has
        a label or a tooltip."""
        for box in view.evaluate(_SCROLL_BOXES):
            self.problems.append(f"{where}: a result hides behind an inner scroll box ({box})")
        for control in view.evaluate(_UNLABELLED):
            self.problems.append(
                f"{where}: a control has neither a label nor a tooltip ({control})"
            )

    def move_all(self, view: Any, where: str) -> int:
        """Move every control of one widget in turn; returns how many were moved.

        A control is moved up to ``ATTEMPTS`` times (another option, further along) until the
        widget's result changes: a single step may legitimately give the same result (two tests
        that agree, a cut-off between two items). When nothing changes and the widget has
        buttons, they are clicked (settings that take effect on "fit").
        """
        moved = 0
        buttons = view.locator(BUTTONS)
        for kind, css in CONTROLS.items():
            controls = view.locator(css)
            for i in range(controls.count()):
                control = controls.nth(i)
                label = f"{kind} {describe(control)!r}"
                if control.is_disabled():
                    self.log.append(f"{where}: {label} is disabled, not moved")
                    continue
                t0 = time.monotonic()
                changed, after, tried = False, "", []
                for attempt in range(ATTEMPTS):
                    before, count = self.result(view), self.state()["count"]
                    what = MOVERS[kind](self.page, control, attempt)
                    if what is None:  # no other value to choose
                        break
                    tried.append(what)
                    changed, after = self.await_change(view, before, count)
                    if not changed and buttons.count():
                        count = self.state()["count"]
                        for j in range(buttons.count()):
                            buttons.nth(j).click()
                        tried[-1] += f" + click {buttons.count()} button(s)"
                        changed, after = self.await_change(view, before, count)
                    step = f"{where}: {label} -> {what}"
                    self.assert_no_errors(f"after {step}")
                    if TRACEBACK in after:
                        pytest.fail(f"{self.name}: traceback after {step}:\n{_shorten(after)}")
                    if changed:
                        break
                step = f"{where}: {label} -> {'; '.join(tried) or 'nothing'}"
                if not tried:
                    self.log.append(f"{step}: offers no other value, not moved")
                    continue
                moved += 1
                if not after.strip():
                    self.problems.append(f"{step}: the widget shows no result")
                elif not changed:
                    self.problems.append(f"{step}: the widget's result did not change")
                elif kind == "text":  # the result is about the words typed
                    words = [w.strip() for w in control.input_value().split(",") if w.strip()]
                    missing = [w for w in words if w.lower() not in after.lower()]
                    if missing:
                        self.problems.append(f"{step}: the result does not show {missing}")
                status = "changed" if changed else "UNCHANGED"
                self.log.append(f"{step}: {status} ({time.monotonic() - t0:.1f} s)")
                if changed:
                    self.check_presentation(view, f"{step}")
        for j in range(buttons.count()):  # and every button once more, on the last settings
            button = buttons.nth(j)
            label = f"button {button.inner_text().strip()!r}"
            t0 = time.monotonic()
            before, count = self.result(view), self.state()["count"]
            button.click()
            changed, after = self.await_change(view, before, count)
            self.assert_no_errors(f"after {where}: click {label}")
            if TRACEBACK in after or not after.strip():
                pytest.fail(f"{self.name}: {where}: click {label} shows:\n{_shorten(after)}")
            status = "changed" if changed else "same result"
            self.log.append(f"{where}: click {label}: {status} ({time.monotonic() - t0:.1f} s)")
        return moved


def _shorten(text: str, head: int = 400, tail: int = 2500) -> str:
    """The start (exception name and message) and the end (innermost frames) of a traceback."""
    return text if len(text) <= head + tail else f"{text[:head]}\n[...]\n{text[-tail:]}"


def describe(control: Any) -> str:
    """The label of a control's widget ('' for none)."""
    return control.evaluate(
        "(n) => { const box = n.closest('.widget-inline-hbox, .widget-toggle-buttons,"
        " .widget-radio-box'); const l = box ? box.querySelector('.widget-label') : null;"
        " return l ? l.textContent.trim() : ''; }"
    )


# --------------------------------------------------------------------------- movers
# mover(page, control, attempt) makes the attempt-th move of a control (each from where the
# previous one left it) and describes it, or returns None when there is nothing else to try.


def _move_slider(page: Any, handle: Any, attempt: int) -> str | None:
    def readout() -> str:
        return handle.evaluate(
            "(n) => { const r = n.closest('.widget-slider').querySelector('.widget-readout');"
            " return r ? r.textContent.trim() : n.getAttribute('aria-valuenow'); }"
        )

    start = readout()
    handle.focus()
    for key in ("ArrowRight", "ArrowLeft"):
        for _ in range(1 if attempt == 0 else 4):
            handle.press(key)
        page.wait_for_timeout(200)
        if readout() != start:
            return f"{start} to {readout()} ({key})"
    return None


def _select_index(select: Any, index: int | list[int]) -> str:
    select.select_option(index=index)
    return select.evaluate(
        "(s) => [...s.selectedOptions].map(o => o.textContent.trim().replace(/\\s+/g, ' ')).join(', ')"
    )


def _move_dropdown(page: Any, select: Any, attempt: int) -> str | None:
    n = select.locator("option").count()
    if attempt >= n - 1:
        return None
    current = select.evaluate("(s) => s.selectedIndex")
    return f"option {_select_index(select, (current + 1) % n)!r}"


def _move_select(page: Any, select: Any, attempt: int) -> str | None:
    if not select.evaluate("(s) => s.multiple"):
        return _move_dropdown(page, select, attempt)
    n = select.locator("option").count()
    chosen: list[int] = select.evaluate(
        "(s) => [...s.options].map((o, i) => (o.selected ? i : -1)).filter(i => i >= 0)"
    )
    if n < 2 or attempt >= 2:
        return None
    if attempt == 0 and len(chosen) > 1:
        target = chosen[:-1]  # drop the last selected option
    elif attempt == 0:
        target = sorted(set(chosen) | {1 if chosen == [0] else 0})
    else:
        target = [n - 1 if chosen == [0] else 0]  # one other option alone
    return f"selection [{_select_index(select, target)}]"


def _move_text(page: Any, field_: Any, attempt: int) -> str | None:
    value = field_.input_value()
    options: list[str] = field_.evaluate(
        "(n) => (n.list ? [...n.list.options].map(o => o.value) : [])"
    )
    if options:  # a combobox: another of its options
        others = [o for o in options if o != value]
    elif "," in value and attempt == 0:  # a list of words: drop the last one
        others = [", ".join(w.strip() for w in value.split(",")[:-1] if w.strip())]
    else:
        others = [w for w in WORDS if w != value.strip()]
    if attempt >= len(others):
        return None
    new = others[attempt] if options else others[0]
    field_.fill(new)
    field_.press("Enter")
    return repr(new)


def _move_number(page: Any, field_: Any, attempt: int) -> str | None:
    if attempt >= 2:
        return None
    value = field_.input_value()
    try:
        number = float(value)
    except ValueError:
        number = 0.0
    new = (number * 2 if attempt == 0 else number / 4) if number else 1.0
    text = str(int(new)) if float(new).is_integer() and "." not in value else str(new)
    field_.fill(text)
    field_.press("Enter")
    return f"{value} to {text}"


def _move_toggle_buttons(page: Any, group: Any, attempt: int) -> str | None:
    buttons = group.locator("button")
    if attempt >= buttons.count() - 1:
        return None
    for i in range(buttons.count()):
        button = buttons.nth(i)
        if "mod-active" not in (button.get_attribute("class") or ""):
            button.click()
            return f"button {button.inner_text().strip()!r}"
    return None


def _move_checkbox(page: Any, box: Any, attempt: int) -> str | None:
    if attempt:
        return None
    box.click()
    return "checked" if box.is_checked() else "unchecked"


def _move_radio(page: Any, group: Any, attempt: int) -> str | None:
    radios = group.locator("input[type=radio]")
    if attempt >= radios.count() - 1:
        return None
    for i in range(radios.count()):
        if not radios.nth(i).is_checked():
            radios.nth(i).check()
            return f"option {i + 1}"
    return None


MOVERS = {
    "slider": _move_slider,
    "dropdown": _move_dropdown,
    "select": _move_select,
    "text": _move_text,
    "number": _move_number,
    "toggle-buttons": _move_toggle_buttons,
    "checkbox": _move_checkbox,
    "radio": _move_radio,
}


def _expected(path: Path) -> tuple[int, int]:
    """(code cells that save a figure, each also showing it; cells that display an explorer
    of workbench.explore under ``if INTERACTIVE:``)."""
    cells = [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    figures = sum(1 for src in cells if "save_figure(" in src)
    widgets = sum(
        1
        for src in cells
        if re.search(r"^\s*if INTERACTIVE:", src, re.M) and "workbench.explore" in src
    )
    return figures, widgets


# --------------------------------------------------------------------------- the test


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_in_jupyterlab(path: Path, lab_server: Any, page: Any, screenshots: Path) -> None:
    name = path.stem
    nb = Notebook(page, name)
    nb.open(lab_server)
    nb.run_all()

    images = nb.images()
    broken = [img for img in images if not img["loaded"]]
    assert not broken, f"{name}: {len(broken)} image(s) not loaded"
    want_images, want_widgets = _expected(path)
    assert len(images) >= want_images, (
        f"{name}: {len(images)} image(s) shown, expected at least {want_images}"
    )

    for old in screenshots.glob(f"{name}*.png"):
        old.unlink()
    cells = nb.widget_cells()
    assert len(cells) >= want_widgets, (
        f"{name}: {len(cells)} cell(s) show widgets, expected at least {want_widgets}"
    )
    moved = shots = 0
    for k, cell in enumerate(cells):
        if cell.locator(", ".join([*CONTROLS.values(), BUTTONS])).count():
            # a widget a reader works with (not, e.g., a progress bar): screenshot before moving
            shots += 1
            suffix = "" if shots == 1 else f"-{shots}"
            area = cell.locator(".jp-Cell-outputArea")
            area.evaluate(_ONLY_WIDGETS, True)  # the widgets alone, without the cell's tables
            area.screenshot(path=screenshots / f"{name}{suffix}.png")
            area.evaluate(_ONLY_WIDGETS, False)
        views = cell.locator(TOP)
        for v in range(views.count()):
            view = views.nth(v)
            where = f"cell {k + 1}/{len(cells)} widget {v + 1}/{views.count()}"
            assert nb.result(view).strip(), f"{name}: {where} shows no result before any move"
            nb.check_presentation(view, f"{where} (defaults)")
            moved += nb.move_all(view, where)
    nb.assert_no_errors("after moving the widgets")
    print(f"{name}: {len(images)} image(s), {len(cells)} widget cell(s), {moved} move(s)")
    print("\n".join(nb.log))
    if nb.problems:
        pytest.fail(f"{name}:\n" + "\n".join(nb.problems), pytrace=False)
    if cells:
        assert moved, f"{name}: widgets shown but no control could be moved"
