"""A minimal headless Chromium driver over the DevTools protocol on a pipe (no extra packages).

Chromium started with ``--remote-debugging-pipe`` reads JSON commands on fd 3 and writes
replies and events on fd 4, each message ending in a NUL byte.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import time


def chromium_binary() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    def __init__(self, width: int = 1280, height: int = 900):
        binary = chromium_binary()
        if binary is None:
            raise RuntimeError("no chromium binary")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # the child sees the pipes as fds 3 (commands in) and 4 (messages out)
        self.proc = subprocess.Popen(
            ["bash", "-c", f'exec "$0" "$@" 3<&{to_chrome_r} 4>&{from_chrome_w}', binary, "--headless=new", "--remote-debugging-pipe",
             "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--no-default-browser-check", "--allow-file-access-from-files",
             f"--window-size={width},{height}", "about:blank"],
            pass_fds=(to_chrome_r, from_chrome_w),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict] = []
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)

    def _send(self, msg: dict) -> None:
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")

    def _read(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buf:
            if time.monotonic() > deadline:
                raise TimeoutError("no message from chromium")
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, session: bool = False, timeout: float = 60, **params) -> dict:
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        self._send(msg)
        while True:
            reply = self._read(timeout)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method: str, timeout: float = 60) -> dict:
        for ev in self.events:
            if ev.get("method") == method:
                self.events.remove(ev)
                return ev
        deadline = time.monotonic() + timeout
        while True:
            ev = self._read(max(deadline - time.monotonic(), 0.01))
            if ev.get("method") == method:
                return ev
            self.events.append(ev)

    def open(self, url: str) -> float:
        """Navigate and wait for the load event; return the seconds it took."""
        t0 = time.perf_counter()
        self.call("Page.navigate", session=True, url=url)
        self.wait_event("Page.loadEventFired")
        return time.perf_counter() - t0

    def js(self, expression: str):
        res = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True,
                        awaitPromise=True)
        if "exceptionDetails" in res:
            raise RuntimeError(f"javascript failed: {res['exceptionDetails']}")
        return res["result"].get("value")

    def screenshot(self, path) -> None:
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def console_errors(self) -> list[str]:
        """Console errors, uncaught exceptions and failed loads seen so far."""
        out = []
        for ev in self.events:
            m, p = ev.get("method"), ev.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append(p["exceptionDetails"].get("text", "exception"))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description"))) for a in p.get("args", [])))
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append(f"{p['entry'].get('text')} {p['entry'].get('url', '')}")
        return out

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=10)
        except Exception:  # already gone
            pass
        self.proc.wait(timeout=20)
        os.close(self._to_chrome)
        os.close(self._from_chrome)
