"""``hkscore serve`` as bench_server_latency.py runs it to see where the time goes: the same
application, protocol and limits on uvicorn (one worker), with two probes that write
what they saw to a JSON file when the server stops (SIGTERM):

- the garbage collector's pauses (``gc.callbacks``): wall time, generation, seconds;
- the event loop's lag: a task that sleeps 5 ms and records by how much it woke late.

    python bench/_serve_probe.py OUT.json PORT [gc|nogc]

``nogc``: the collector disabled once the application is built (to measure what it costs).
Not part of hkcore: a tool of the benchmark only.
"""
from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import signal
import sys
import time
from collections.abc import Iterator


class _Quiet:
    """A ``uvicorn.Server`` that leaves SIGTERM to the probe (uvicorn would raise it again once stopped,
    ending the process before the probe writes its file)."""

    def __new__(cls, config: object) -> object:
        import uvicorn

        class Server(uvicorn.Server):
            @contextlib.contextmanager
            def capture_signals(self) -> Iterator[None]:
                yield

        return Server(config)  # type: ignore[arg-type]


def main() -> None:
    out, port, mode = sys.argv[1], int(sys.argv[2]), (sys.argv[3] if len(sys.argv) > 3 else "gc")
    import uvicorn

    from hkcore.server import MOST_CONNECTIONS, create_app, serving
    from hkcore.server.heads import protocol

    pauses: list[tuple[float, int, float]] = []
    lags: list[tuple[float, float]] = []
    started = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            pauses.append((time.time(), info["generation"], time.perf_counter() - started[0]))

    app = serving(create_app())
    if mode == "nogc":
        gc.disable()
    gc.callbacks.append(on_gc)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", http=protocol(),
                            limit_concurrency=MOST_CONNECTIONS, timeout_keep_alive=5)
    server = _Quiet(config)

    async def lag() -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append((time.time(), time.perf_counter() - t - 0.005))

    async def run() -> None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, lambda: setattr(server, "should_exit", True))
        task = asyncio.create_task(lag())
        await server.serve()
        task.cancel()

    try:
        import uvloop
        uvloop.run(run())
    except ImportError:
        asyncio.run(run())
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"pauses": pauses, "lags": lags, "mode": mode}, f)


if __name__ == "__main__":
    main()
