"""Run one piece of work in many threads at once, each with its own database connection (a real client each)."""

import threading

from django.db import connection


def run_in_threads(count: int, work, *, timeout: float = 120) -> list:
    """``work(index)`` in ``count`` threads released together; each result, or the exception it raised."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except BaseException as exc:  # handed back to the test, which asserts on it
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return results
