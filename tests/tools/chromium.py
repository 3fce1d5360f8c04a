"""A real browser for the report's tests: Debian's headless Chromium driven over its DevTools
protocol (python3-websocket). It loads a page, records script errors, console errors and every
request the page makes, evaluates JavaScript in it and takes a full-page screenshot."""
import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request

import websocket

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--mute-audio", "--remote-debugging-port=0"]


def binary():
    """The chromium executable, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """`with Browser() as b: b.load(path); b.evaluate(js); b.screenshot(png)`."""

    def __init__(self, timeout=60):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="pio-chromium-")
        self.errors, self.requests, self.failed = [], [], []
        self._id = 0

    def __enter__(self):
        self.proc = subprocess.Popen([binary(), *FLAGS, f"--user-data-dir={self.profile}",
                                      "about:blank"], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        end = time.time() + self.timeout
        while not os.path.exists(port_file) or os.path.getsize(port_file) == 0:
            if time.time() > end or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("chromium did not open its DevTools port")
            time.sleep(0.1)
        time.sleep(0.2)
        with open(port_file, encoding="utf-8") as f:
            port = int(f.readline())
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
            pages = [t for t in json.load(r) if t.get("type") == "page"]
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"],
                                              timeout=self.timeout)
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if getattr(self, "ws", None):
            self.ws.close()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def _event(self, msg):
        method, params = msg.get("method"), msg.get("params") or {}
        if method == "Runtime.exceptionThrown":
            d = params["exceptionDetails"]
            self.errors.append(f"{d.get('text', 'exception')} "
                               f"{(d.get('exception') or {}).get('description', '')}".strip())
        elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
            self.errors.append(f"console.error: {params.get('args')}")
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            self.errors.append(params["entry"].get("text", "log error"))
        elif method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        elif method == "Network.loadingFailed":
            self.failed.append(params.get("errorText", "failed"))
        return method

    def call(self, method, **params):
        """Sends one DevTools command and returns its result (events on the way recorded)."""
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self._id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self._event(msg)

    def load(self, path):
        """Opens a local file and waits for its load event."""
        self.call("Page.navigate", url="file://" + os.path.abspath(path))
        end = time.time() + self.timeout
        while time.time() < end:
            if self._event(json.loads(self.ws.recv())) == "Page.loadEventFired":
                return
        raise RuntimeError("page did not load")

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page (JSON-serialisable)."""
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"evaluate: {r['exceptionDetails']}")
        return r["result"].get("value")

    def screenshot(self, path, width=1280):
        """A PNG of the whole page (at most 16000 pixels tall) at `width` CSS pixels."""
        height = min(16000, int(self.evaluate("document.documentElement.scrollHeight")))
        self.call("Emulation.setScrollbarsHidden", hidden=True)
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        with open(path, "wb") as f:
            f.write(base64.b64decode(data["data"]))
        return path
