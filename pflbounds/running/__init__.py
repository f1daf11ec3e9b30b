"""Running checks: seeds, tasks, the task cache, executors (local and Dask), suites and
result files.

Names load lazily (:mod:`pflbounds.lazy`): ``from pflbounds.running.locations import ...``
or ``from pflbounds.running import TaskCache`` imports only the module it needs, so that the
command line names a bad suite, or reads a cached run, without importing the executors.
"""

from pflbounds.lazy import lazy_exports

EXPORTS = {
    "CacheError": "cache",
    "OutputError": "atomic",
    "RunSpec": "executor",
    "RunStats": "executor",
    "SchedulerError": "backends",
    "Suite": "suite",
    "SuiteEntry": "suite",
    "SuiteError": "suite",
    "SuiteNotFound": "suite",
    "Sweep": "executor",
    "Task": "tasks",
    "TaskCache": "cache",
    "TaskResult": "tasks",
    "available_suites": "suite",
    "build_outcome": "aggregate",
    "cache_key": "fingerprint",
    "check_fingerprint": "fingerprint",
    "config_hash": "config",
    "default_cache_dir": "cache",
    "execute": "executor",
    "execute_task": "tasks",
    "find_suite": "suite",
    "load_outcomes": "results",
    "load_suite": "suite",
    "plan": "tasks",
    "point_config": "config",
    "read_results_csv": "results",
    "read_results_parquet": "results",
    "results_rows": "results",
    "run_check": "executor",
    "run_checks": "executor",
    "run_config": "config",
    "run_specs": "executor",
    "run_suite": "suite",
    "run_tasks": "executor",
    "save_outcomes": "results",
    "sweep": "executor",
    "sweep_suite": "suite",
    "task_seed": "seeds",
}
"""Each exported name and the submodule that defines it."""

__getattr__ = lazy_exports(__name__, EXPORTS)

__all__ = sorted(EXPORTS)
