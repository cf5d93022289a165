"""An OpenAI-compatible completions server on 127.0.0.1 whose answers come from a script.

``answer(prompt, sample)`` decides each reply; ``sample`` counts the requests seen for that prompt,
so the five repeats of a document get five different answers. Like real servers, it honours the
request's ``seed``: with a seed, every repeat gets sample 0 (identical samples). It records every
request body for inspection.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ScriptedServer:
    def __init__(self, answer: Callable[[str, int], str]) -> None:
        self.answer = answer
        self.requests: list[dict] = []
        self.counts: Counter = Counter()
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output quiet
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                choices = server.reply(self.path, body)
                payload = json.dumps({"id": "scripted", "object": "list", "model": body.get("model"), "choices": choices,
                                      "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload.encode())

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def _sample(self, prompt: str, seed) -> int:
        with self.lock:
            sample = self.counts[prompt]
            self.counts[prompt] += 1
        return 0 if seed is not None else sample

    def reply(self, path: str, body: dict) -> list[dict]:
        with self.lock:
            self.requests.append(body)
        if path.endswith("/chat/completions"):
            prompt = body["messages"][-1]["content"]
            text = self.answer(prompt, self._sample(prompt, body.get("seed")))
            return [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]
        prompts = body["prompt"] if isinstance(body["prompt"], list) else [body["prompt"]]
        return [
            {"index": i, "text": self.answer(p, self._sample(p, body.get("seed"))), "finish_reason": "stop",
             "logprobs": None}
            for i, p in enumerate(prompts)
        ]

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
