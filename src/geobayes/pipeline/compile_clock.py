"""Seconds a block spends in JAX's tracing, lowering and XLA compilation.

A pipeline step's wall time mixes one-off compilation with the work itself; the leaderboard
reports them apart (compile seconds of a method on a posterior, and seconds per sample without
them). JAX reports each phase through :mod:`jax.monitoring` duration events; this clock sums the
ones a block emits, as the wall time their intervals cover: tracing nests (an inner ``jit`` is
traced inside the outer one's trace, and both report), so a plain sum would count nested time
twice and could exceed the block's own wall time. With the persistent compilation cache (``compilation_cache`` in the config)
an executable loaded from disk emits no backend compile event, so a cached job records only
its tracing and lowering: the compile time that job actually paid.
"""

from __future__ import annotations

import time

import jax.monitoring

__all__ = ["COMPILE_EVENTS", "CompileClock"]

#: The duration events of one compilation, in the order JAX runs them.
COMPILE_EVENTS = (
    "/jax/core/compile/jaxpr_trace_duration",
    "/jax/core/compile/jaxpr_to_mlir_module_duration",
    "/jax/core/compile/backend_compile_duration",
)


class CompileClock:
    """Context manager summing the compile events of JAX inside its block.

    Attributes
    ----------
    seconds : float
        Wall seconds of the block covered by tracing, lowering and backend compilation (the union
        of the events' intervals, each ending when JAX reports it); at most the block's own.
    backend_compiles : int
        XLA compilations in the block (executables loaded from the persistent cache excluded).

    Examples
    --------
    >>> import jax, jax.numpy as jnp
    >>> with CompileClock() as clock:
    ...     _ = jax.jit(lambda x: jnp.sin(x) * 2.0)(1.0)
    >>> clock.backend_compiles >= 1 and clock.seconds > 0.0
    True
    """

    def __init__(self) -> None:
        self.backend_compiles = 0
        self._intervals: list[tuple[float, float]] = []
        self._listening = False

    @property
    def seconds(self) -> float:
        covered, reach = 0.0, float("-inf")
        for start, end in sorted(self._intervals):
            if end > reach:
                covered += end - max(start, reach)
                reach = end
        return covered

    def _listen(self, event: str, duration: float, **_kwargs) -> None:
        if event in COMPILE_EVENTS:
            end = time.perf_counter()
            self._intervals.append((end - float(duration), end))
            self.backend_compiles += event == COMPILE_EVENTS[-1]

    def __enter__(self) -> CompileClock:
        if self._listening:
            raise RuntimeError("a CompileClock cannot be entered twice at once")
        jax.monitoring.register_event_duration_secs_listener(self._listen)
        self._listening = True
        return self

    def __exit__(self, *exc_info) -> None:
        jax.monitoring.unregister_event_duration_listener(self._listen)
        self._listening = False
