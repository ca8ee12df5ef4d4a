"""Where the tasks of a simulation or a tournament run: here, in worker processes, or on a Dask
cluster; their results come back in the order of the tasks, whatever finishes first.

However many tasks there are (``tonk simulate -n 1000000000`` makes four million), only a window
of them is in flight at any time: a few per worker process, or per thread of the cluster. Memory
and the scheduler's load stay flat, and the tasks themselves are made as they are sent (an
iterator), never listed all at once."""
from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import Future

T = TypeVar("T")
R = TypeVar("R")

# Tasks in flight per worker process, or per thread of a Dask cluster: enough that no worker
# waits for its next task while the results are taken in order.
IN_FLIGHT_PER_WORKER = 4


def ordered_results(fn: Callable[[T], R], tasks: Iterable[T], *, workers: int = 1,
                    scheduler: str | None = None) -> Iterator[R]:
    """``fn`` of each task, in the tasks' order: on the Dask scheduler at ``scheduler`` (the 'dask'
    extra), else in ``workers`` processes, else here."""
    if scheduler is not None:
        yield from _on_dask(fn, tasks, scheduler)
        return
    if workers <= 1:
        yield from map(fn, tasks)
        return
    from concurrent.futures import ProcessPoolExecutor  # only here: 12 ms of every start otherwise

    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from _window(lambda task: pool.submit(fn, task), tasks, IN_FLIGHT_PER_WORKER * workers)


def _window(submit: Callable[[T], "Future[R]"], tasks: Iterable[T], size: int) -> Iterator[R]:
    """Results in order, with at most ``size`` tasks submitted and not yet taken."""
    window: deque[Future[R]] = deque()
    pending = iter(tasks)
    for task in pending:
        window.append(submit(task))
        if len(window) >= size:
            break
    while window:
        result = window.popleft().result()
        following = next(pending, None)
        if following is not None:
            window.append(submit(following))
        yield result


def _on_dask(fn: Callable[[T], R], tasks: Iterable[T], scheduler: str) -> Iterator[R]:
    from dask.distributed import Client  # the 'dask' extra

    with Client(scheduler) as client:  # type: ignore[no-untyped-call]
        threads = sum(client.nthreads().values()) or 1
        # Dask's futures are concurrent.futures-like (result()): the same window, sized by the
        # cluster's threads when the run starts.
        yield from _window(lambda task: client.submit(fn, task, pure=False), tasks, IN_FLIGHT_PER_WORKER * threads)
