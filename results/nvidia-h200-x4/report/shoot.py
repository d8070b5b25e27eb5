#!/usr/bin/env python3
"""shoot.py - screenshots of an HTML report as headless Chromium draws it.

usage: shoot.py REPORT.html OUTDIR [PART...]

Opens the report at 1400 px wide (the page's own width) and writes a PNG of each
PART to OUTDIR as report-PART.png: top (the heading, the summary table and its
note), node (the node's peer-copy heatmaps and host scaling, from the first document
of several GPUs), or a module's name (its section of charts: memcpy, overlap,
managed, xnack, pool, vmm; node's module charts as node-module). Without PART: top,
memcpy and node. Needs Chromium, its driver and Selenium (Debian: chromium
chromium-driver python3-selenium) and Pillow (python3-pil)."""
import pathlib
import shutil
import sys

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

WIDTH = 1400

# each screenshot: from the top of the first element to the bottom of the last
FIXED = {
    "top": ("h1", "table.summary + p.note"),
    "node": ("#node", "#node ~ div.plots svg.plot.bars"),
    "node-module": ("#module-node", "#module-node + div.plots"),
}


def region(part):
    return FIXED.get(part) or (f"#module-{part}", f"#module-{part} + div.plots")


BOX = """
const a = document.querySelector(arguments[0]), b = document.querySelector(arguments[1]);
if (!a || !b) return null;
const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
return [ra.top + window.scrollY, rb.bottom + window.scrollY];
"""


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.split("\n\n")[1])
    html, out = pathlib.Path(argv[1]).resolve(), pathlib.Path(argv[2])
    parts = argv[3:] or ["top", "memcpy", "node"]
    out.mkdir(parents=True, exist_ok=True)
    options = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--hide-scrollbars", "--force-device-scale-factor=1", f"--window-size={WIDTH},1000"):
        options.add_argument(a)
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        driver.get(html.as_uri())
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(WIDTH, height + 200)
        whole = out / "page.png"
        driver.save_screenshot(str(whole))
        page = Image.open(whole)
        for part in parts:
            first, last = region(part)
            box = driver.execute_script(BOX, first, last)
            if not box:
                print(f"shoot.py: {html}: no {first} .. {last}", file=sys.stderr)
                continue
            top, bottom = max(0, int(box[0]) - 12), min(page.height, int(box[1]) + 16)
            shot = page.crop((0, top, min(page.width, WIDTH), bottom)).convert("RGB")
            # 256 colours: a sharp page at a fraction of the size
            shot.quantize(256, method=Image.Quantize.MEDIANCUT).save(out / f"report-{part}.png",
                                                                        optimize=True)
            print(out / f"report-{part}.png")
        whole.unlink()
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
