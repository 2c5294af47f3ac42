"""Run many simulations in parallel, each result kept in the result store the moment it finishes.

Sweeps and paper reproductions are hundreds of independent runs; this module is the one place
that decides how they are scheduled (in-process, a local process pool, or a Dask cluster) and
how finished work is kept. A run is identified by its store key (``tcpsim.store.key``: the
canonical scenario's hash, the seed, and the digest of the engine's sources): the scenario
loader has already applied overrides and units, so two spellings of the same set-up share one
entry, and a changed engine never serves stale numbers. The parent process stores each run as
it completes (data files, then the catalog row), so an interrupted sweep keeps everything
already computed and a re-run recomputes nothing.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import sys
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tcpsim.progress import track as progress_track
from tcpsim.store import Store, StoreUnavailable, run_key, store_root, warn

if TYPE_CHECKING:
    from tcpsim.result import RunResult

log = logging.getLogger(__name__)

Scenario = Mapping[str, Any] | str | os.PathLike[str]
RunFn = Callable[["RunSpec"], "RunResult"]


@dataclass(frozen=True)
class RunSpec:
    """One simulation to run.

    ``key`` is the caller's label for the run (any hashable value; sweeps and reproductions use
    :class:`tcpsim.tidy.RunKey`, e.g. ``RunKey(buffer=42, seed=3)``) and is how results come
    back; ``scenario`` is a user-format dict (or a path to a scenario file); ``overrides`` are
    ``(path, value)`` pairs applied on top of it, such as ``("links[0].rate", "5Mbps")``,
    with values used as they are (not parsed from text). ``force`` runs it even if its estimated
    cost exceeds the scenario's limits (it does not change the result, so not the cache key).
    """

    key: Hashable
    scenario: Scenario = field(hash=False)
    seed: int = 1
    overrides: tuple[tuple[str, Any], ...] = ()
    force: bool = False


class RunFailed(RuntimeError):
    """Some runs raised. The others finished and were cached; they are kept in ``results`` so a
    caller such as the repro framework can still use them."""

    def __init__(self, failures: dict[Any, str], results: dict[Any, RunResult]):
        self.failures = failures
        self.results = results
        lines = [f"{len(failures)} of {len(failures) + len(results)} runs failed:"]
        lines += [f"  {key!r}: {error}" for key, error in failures.items()]
        super().__init__("\n".join(lines))


class DaskUnavailable(RuntimeError):
    """A Dask address was given but dask.distributed cannot be imported, or no scheduler answers
    there."""


def _run_one(spec: RunSpec) -> RunResult:
    """Execute one spec with the compiled core (in whichever process the scheduler chose).
    Scenario warnings are for one run at a time (`tcpsim run`); a sweep does not repeat them."""
    import warnings

    from tcpsim.api import run
    from tcpsim.limits import ScenarioWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScenarioWarning)
        return run(spec.scenario, seed=spec.seed, force=spec.force, **dict(spec.overrides))


_canonical_hashes: dict[str, str] = {}
"""sha256 of a dict scenario's JSON text → its canonical hash. Loading a large scenario costs
~0.3 s (400 flows), and a sweep asks for the same scenario once per seed, so remember it."""


def _scenario_hash(spec: RunSpec) -> str:
    """Hash of the canonical scenario after overrides; also validates the scenario early, in the
    parent, so a typo fails before any worker starts instead of halfway through a sweep."""
    from tcpsim.scenario import load_scenario

    def load() -> str:
        return load_scenario(spec.scenario, dict(spec.overrides)).hash()

    if not isinstance(spec.scenario, Mapping):
        return load()  # a file may change between calls; files are small, so just reload
    try:
        text = json.dumps([spec.scenario, spec.overrides], sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return load()  # values JSON cannot spell (e.g. a Path), or absurdly deep ones: no memo
    key = hashlib.sha256(text.encode()).hexdigest()
    if key not in _canonical_hashes:
        _canonical_hashes[key] = load()
    return _canonical_hashes[key]


def _canonical_text(spec: RunSpec) -> str:
    """The canonical scenario text whose sha256 is :func:`_scenario_hash`, kept in the store."""
    from tcpsim.scenario import load_scenario

    return load_scenario(spec.scenario, dict(spec.overrides)).canonical_text()


def run_digest(spec: RunSpec) -> str:
    """Store key of a run (see ``tcpsim.store.key.run_key``)."""
    return run_key(_scenario_hash(spec), spec.seed)


def _open_store(cache_dir: str | os.PathLike[str] | None) -> Store | None:
    """The result store at ``cache_dir`` (see ``tcpsim.store.store_root``); None, after a
    warning, when it cannot be used: the runs still run, their results are just not kept."""
    try:
        return Store(store_root(cache_dir))
    except StoreUnavailable as error:
        warn(f"{error}; results are not kept")
        return None


Completion = tuple[str, "RunResult | BaseException"]
Work = Sequence[tuple[str, RunSpec]]


def _outcome(future: Any) -> RunResult | BaseException:
    """The result of a finished future, or the exception it raised (works for concurrent.futures
    and dask futures alike)."""
    error = future.exception()
    return error if error is not None else future.result()


# Each backend is a context manager that submits all work on entry and yields an iterator of
# completions. Submitting before the progress bar starts matters: forking worker processes
# while rich's refresh thread holds a lock is how children deadlock.


@contextmanager
def _in_process(fn: RunFn, work: Work) -> Iterator[Iterator[Completion]]:
    def completions() -> Iterator[Completion]:
        for digest, spec in work:
            try:
                yield digest, fn(spec)
            except Exception as error:  # noqa: BLE001 - reported per run by run_many
                yield digest, error

    yield completions()


def _die_with_parent(parent_pid: int) -> None:
    """Worker initializer: on Linux, ask the kernel to SIGKILL this worker when the process that
    started it dies (``prctl(PR_SET_PDEATHSIG)``), so a killed sweep leaves no orphans running.
    Elsewhere a no-op: the parent still terminates its workers when it is interrupted."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    pr_set_pdeathsig = 1
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)


def _stop_workers(pool: Any) -> None:
    """Terminate a pool's worker processes now: shutdown() alone waits for the runs in progress,
    which may take hours."""
    if hasattr(pool, "terminate_workers"):  # Python >= 3.14
        pool.terminate_workers()
        return
    for process in list((pool._processes or {}).values()):  # CPython's pid → Process map
        process.terminate()


@contextmanager
def _process_pool(fn: RunFn, work: Work, jobs: int) -> Iterator[Iterator[Completion]]:
    from concurrent.futures import ProcessPoolExecutor, as_completed

    pool = ProcessPoolExecutor(max_workers=min(jobs, len(work)), initializer=_die_with_parent, initargs=(os.getpid(),))
    try:
        # ``fn`` travels with each task (pickled by reference) rather than being looked up in
        # the worker, so whatever function the parent holds is the one that runs.
        futures = {pool.submit(fn, spec): digest for digest, spec in work}
        yield ((futures[f], _outcome(f)) for f in as_completed(futures))
    except BaseException:
        # Ctrl-C or an error: stop the runs in progress instead of waiting for them.
        _stop_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


DASK_CONNECT_TIMEOUT_S = 30
"""How long to wait for the scheduler before giving up (distributed's default)."""


def check_dask_address(address: str) -> str:
    """A scheduler address a client can reach across machines: ``tcp://`` or ``tls://``
    (``tcp://`` assumed when there is no scheme), a host, a port in 1–65535; an IPv6 host in
    brackets. Checked before anything runs, so a typo is an error line, not a traceback from
    deep inside distributed (or, for a port where something else answers, an attempt to read
    an absurd message length)."""
    scheme, sep, rest = address.strip().partition("://")
    if not sep:
        scheme, rest = "tcp", address.strip()
    problem = None
    if scheme not in ("tcp", "tls"):
        problem = f"the scheme {scheme!r} is not one a cluster is reached by; use tcp:// or tls://"
    else:
        host, colon, port = rest.rpartition(":")
        if not colon or not host:
            problem = "give host and port, e.g. tcp://scheduler:8786"
        elif host.startswith("[") != host.endswith("]") or (":" in host and not host.startswith("[")):
            problem = "an IPv6 host goes in brackets, e.g. tcp://[::1]:8786"
        elif not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
            problem = f"port {port!r} is not a port number (1-65535)"
    if problem:
        raise DaskUnavailable(f"--dask {address!r}: {problem}")
    return f"{scheme}://{rest}"


@contextmanager
def _dask(fn: RunFn, work: Work, address: str) -> Iterator[Iterator[Completion]]:
    """Each run goes to the cluster with its scenario's content (overrides applied), not a path:
    workers may run in another directory or on machines that share no filesystem with this one.
    A worker lost mid-run is replaced by the scheduler, which runs its tasks elsewhere."""
    address = check_dask_address(address)
    try:
        from dask.distributed import Client, as_completed
    except ImportError as error:
        raise DaskUnavailable(
            "a Dask address was given but dask.distributed is not installed; "
            "install it with: pip install 'tcpsim[dask]'"
        ) from error
    from tcpsim.sweeps.resolve import resolved

    shipped = [
        (digest, RunSpec(spec.key, resolved(spec.scenario, spec.overrides), spec.seed, (), spec.force))
        for digest, spec in work
    ]
    try:
        client = Client(address, timeout=DASK_CONNECT_TIMEOUT_S)
    except (Exception, MemoryError) as error:  # noqa: BLE001 - whatever answers there, it is no scheduler
        raise DaskUnavailable(
            f"cannot connect to a Dask scheduler at {address}: {type(error).__name__}: {error}"
        ) from None
    with client:
        futures = {client.submit(fn, spec, key=f"tcpsim-{digest}", pure=False): digest for digest, spec in shipped}
        try:
            yield ((futures[f], _outcome(f)) for f in as_completed(futures))
        finally:
            client.cancel(list(futures))


def run_many(
    specs: Iterable[RunSpec],
    jobs: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool = True,
    dask_address: str | None = None,
    progress_label: Callable[[RunSpec], str] | None = None,
    on_done: Callable[[Any, RunResult | None, str | None], None] | None = None,
) -> dict[Any, RunResult]:
    """Run every spec (cached ones are loaded, not recomputed) and return ``{key: result}`` in
    the order of ``specs``, whatever order the runs finished in.

    ``jobs`` defaults to ``os.cpu_count()``; ``jobs=1`` runs in this process (easy debugging,
    no pickling); ``dask_address`` sends the runs to a Dask scheduler instead of local
    processes. Specs whose canonical scenario and seed coincide are run once. Results are kept
    in the store at ``cache_dir`` (else ``$TCPSIM_STORE``, else a per-user cache directory;
    see ``tcpsim.store.location``). If some runs raise, the rest still finish and are kept,
    then :class:`RunFailed` is raised.

    ``progress`` shows progress on stderr (``tcpsim.progress``), naming each run by
    ``progress_label`` when given. ``on_done(key, result, error)`` is called for each spec as
    soon as its result (or error text) is known, cached ones first (once the workers have
    started), so a caller can use part of the results while the rest still run.
    """
    specs = list(specs)
    duplicates = [repr(key) for key, n in Counter(spec.key for spec in specs).items() if n > 1]
    if duplicates:
        raise ValueError(f"duplicate RunSpec keys: {', '.join(duplicates)}")
    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")

    store = _open_store(cache_dir)
    scenario_hashes = [_scenario_hash(spec) for spec in specs]
    digests = [run_key(h, spec.seed) for h, spec in zip(scenario_hashes, specs)]
    by_digest: dict[str, RunResult] = {}
    work: dict[str, RunSpec] = {}
    scenario_of = dict(zip(digests, scenario_hashes))
    for digest, spec in zip(digests, specs):
        if digest in by_digest or digest in work:
            continue
        stored = None if store is None else store.load(digest)
        if stored is None:
            work[digest] = spec
        else:
            by_digest[digest] = stored
    if store is not None and by_digest:
        store.touch(list(by_digest))

    fn = _run_one  # looked up per call so tests can substitute a fake
    pending = list(work.items())
    if dask_address is not None:
        backend = _dask(fn, pending, dask_address)
    elif jobs == 1 or len(pending) <= 1:
        backend = _in_process(fn, pending)
    else:
        backend = _process_pool(fn, pending, jobs)

    keys_of: dict[str, list[Any]] = {}
    for spec, digest in zip(specs, digests):
        keys_of.setdefault(digest, []).append(spec.key)

    def done(digest: str, result: RunResult | None, error: str | None) -> None:
        if on_done is not None:
            for key in keys_of[digest]:
                on_done(key, result, error)

    log.info("%d runs: %d cached, %d to simulate", len(specs), len(by_digest), len(pending))
    label_of = {digest: progress_label(spec) if progress_label else "" for digest, spec in pending}
    errors: dict[str, str] = {}
    with backend as completions, progress_track(progress, label_of.values(), len(by_digest)) as tracker:
        # Cached results are handed over only now, after the workers are started: a caller may
        # start threads on them, and forking a process with threads can deadlock the child.
        for digest, result in list(by_digest.items()):
            done(digest, result, None)
        for digest, outcome in completions:
            spec = work[digest]
            scenario = functools.partial(_canonical_text, spec)
            if isinstance(outcome, BaseException):
                errors[digest] = f"{type(outcome).__name__}: {outcome}"
                log.debug("run %s failed: %s", digest[:12], errors[digest])
                if store is not None:
                    store.save_failure(digest, scenario_of[digest], scenario, spec.seed, errors[digest])
            else:
                if store is not None:
                    store.save(digest, scenario_of[digest], scenario, spec.seed, outcome)
                by_digest[digest] = outcome
            tracker.advance(label_of[digest], failed=digest in errors)
            done(digest, by_digest.get(digest), errors.get(digest))

    results = {spec.key: by_digest[d] for spec, d in zip(specs, digests) if d in by_digest}
    if errors:
        failures = {spec.key: errors[d] for spec, d in zip(specs, digests) if d in errors}
        raise RunFailed(failures, results)
    return results
