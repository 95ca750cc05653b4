"""Screenshot of a results site's index page (the README's picture of the site).

Usage: ``.venv/bin/python tools/site_screenshot.py RESULTS_DIR OUT.png [--page NAME.html]``
after ``python -m workbench report RESULTS_DIR``. Opens ``RESULTS_DIR/site/<page>`` from disk
in headless Chromium (Debian's ``chromium``, or ``$WORKBENCH_CHROMIUM``) through Playwright's
``executable_path`` and writes the first screen of it to ``OUT.png``; refuses to overwrite a
file that exists.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--page", default="index.html")
    args = parser.parse_args(argv)
    page_path = (args.results / "site" / args.page).resolve()
    if not page_path.is_file():
        print(f"error: no site page {page_path}; run `python -m workbench report {args.results}`",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.out.exists():
        print(
            f"error: {args.out} exists; choose another name or remove it yourself", file=sys.stderr
        )
        return 2
    chromium = os.environ.get("WORKBENCH_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        print("error: no chromium found (install Debian's chromium or set WORKBENCH_CHROMIUM)",
              file=sys.stderr)  # fmt: skip
        return 2
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True,
                                     args=["--no-sandbox"])  # fmt: skip
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(page_path.as_uri())
        page.wait_for_load_state("load")
        page.screenshot(path=str(args.out))
        browser.close()
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
