"""A real headless Chromium, driven over the DevTools protocol through a pipe.

``--remote-debugging-pipe`` speaks the protocol as NUL-terminated JSON on file descriptors
3 (commands in) and 4 (replies and events out), so no websocket client (and no new
dependency) is needed. The browser records every console message, uncaught exception, log
entry and network request, so a test can insist that a page loads cleanly and fetches
nothing from outside.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
]


LAUNCHER = (
    "import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); "
    "os.execv(sys.argv[3], sys.argv[3:])"
)
"""Puts the two pipe ends where the browser expects them, fds 3 and 4, then becomes it."""


class BrowserError(Exception):
    pass


class Browser:
    """One browser with one page; use as a context manager."""

    def __init__(self, timeout: float = 30) -> None:
        self.timeout = timeout
        self.events: list[dict[str, Any]] = []
        self._next = 0
        self._buffer = b""

    def __enter__(self) -> Browser:
        if not Path(CHROMIUM).exists():
            raise BrowserError(f"{CHROMIUM} not found: install Debian's chromium package")
        self._profile = tempfile.mkdtemp(prefix="pbem-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        command = [CHROMIUM, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"]
        self._process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(to_browser_r), str(from_browser_w), *command],
            pass_fds=(to_browser_r, from_browser_w),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(BrowserError, OSError):
            self.call("Browser.close")
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        shutil.rmtree(self._profile, ignore_errors=True)

    # ----- the protocol ---------------------------------------------------------------------

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """A browser-level command, waiting for its reply."""
        return self._request({"method": method, "params": params})

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """A command to the page, waiting for its reply."""
        return self._request({"method": method, "params": params, "sessionId": self._session})

    def _request(self, message: dict[str, Any]) -> dict[str, Any]:
        self._next += 1
        ident = self._next
        os.write(self._to_browser, json.dumps({"id": ident, **message}).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == ident:
                if "error" in reply:
                    raise BrowserError(f"{message['method']}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise BrowserError("the browser did not answer in time")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise BrowserError("the browser closed the connection")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    # ----- what tests use --------------------------------------------------------------------

    def open(self, path: Path, width: int = 1400, height: int = 1000) -> None:
        self.goto(path.resolve().as_uri(), width, height)

    def goto(self, url: str, width: int = 1400, height: int = 1000) -> None:
        """Load ``url`` and wait for its load event (after any redirect)."""
        self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )
        loads = sum(e["method"] == "Page.loadEventFired" for e in self.events)
        self.send("Page.navigate", url=url)
        self.wait_for(
            lambda: sum(e["method"] == "Page.loadEventFired" for e in self.events) > loads
        )

    def click(self, selector: str) -> None:
        """A real click (mouse pressed and released) at the middle of ``selector``'s
        element (of its first line box, for a link that wraps), scrolled into view first:
        what the page receives is what a hand makes."""
        found = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " if (!e) return null; e.scrollIntoView({block: 'center', inline: 'center'});"
            " const r = e.getClientRects()[0] || e.getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        if found is None:
            raise BrowserError(f"nothing on the page matches {selector}")
        x, y = found
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def type(self, selector: str, text: str) -> None:
        """Focus ``selector``'s field and type ``text`` into it, as a keyboard would."""
        self.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")
        self.send("Input.insertText", text=text)

    def evaluate(self, expression: str) -> Any:
        result = self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, condition: Any, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise BrowserError("timed out waiting for the page")
            self.evaluate("1")  # a round trip, collecting events meanwhile
            time.sleep(0.05)

    def problems(self, own: str = "") -> list[str]:
        """Console messages, uncaught exceptions, log entries, and requests for anything
        but the page's own file (or, with ``own``, addresses starting with it): a clean
        page has none."""
        out = []
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.consoleAPICalled":
                texts = [str(a.get("value", a.get("description"))) for a in params["args"]]
                out.append(f"console.{params['type']}: {' '.join(texts)}")
            elif method == "Runtime.exceptionThrown":
                out.append(f"exception: {params['exceptionDetails']}")
            elif method == "Log.entryAdded":
                entry = params["entry"]
                out.append(f"log {entry['level']}: {entry['text']} {entry.get('url', '')}")
            elif method == "Network.requestWillBeSent":
                url = params["request"]["url"]
                if not url.startswith(("file:", "data:", "about:", *([own] if own else []))):
                    out.append(f"request: {url}")
        return out

    def screenshot(self, selector: str, target: Path) -> bytes:
        """A PNG of the element ``selector`` (its whole box, even below the fold); a
        selector matching several elements: the box around them all."""
        self.evaluate("scrollTo(0, 0)")  # a sticky bar then stays where it belongs
        box = self.evaluate(
            f"(() => {{ const rs = [...document.querySelectorAll({json.dumps(selector)})]"
            ".map(e => e.getBoundingClientRect());"
            " const x = Math.min(...rs.map(r => r.left)), y = Math.min(...rs.map(r => r.top));"
            " const w = Math.max(...rs.map(r => r.right)) - x;"
            " const h = Math.max(...rs.map(r => r.bottom)) - y;"
            " return [x + scrollX, y + scrollY, w, h]; })()"
        )
        x, y, width, height = box
        shot = self.send(
            "Page.captureScreenshot",
            format="png",
            captureBeyondViewport=True,
            clip={"x": x, "y": y, "width": width, "height": height, "scale": 1},
        )
        data = base64.b64decode(shot["data"])
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        return data
