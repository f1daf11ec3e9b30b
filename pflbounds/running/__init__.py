"""Running checks: seeds, tasks, the task cache, executors (local and Dask), suites and
result files."""

from pflbounds.running.aggregate import build_outcome
from pflbounds.running.atomic import OutputError
from pflbounds.running.backends import SchedulerError
from pflbounds.running.cache import CacheError, TaskCache, default_cache_dir
from pflbounds.running.config import config_hash, point_config, run_config
from pflbounds.running.executor import (
    RunSpec,
    RunStats,
    Sweep,
    execute,
    run_check,
    run_checks,
    run_specs,
    run_tasks,
    sweep,
)
from pflbounds.running.fingerprint import cache_key, check_fingerprint
from pflbounds.running.results import (
    load_outcomes,
    read_results_csv,
    read_results_parquet,
    results_rows,
    save_outcomes,
)
from pflbounds.running.seeds import task_seed
from pflbounds.running.suite import (
    Suite,
    SuiteEntry,
    SuiteError,
    SuiteNotFound,
    available_suites,
    find_suite,
    load_suite,
    run_suite,
    sweep_suite,
)
from pflbounds.running.tasks import Task, TaskResult, execute_task, plan

__all__ = [
    "CacheError",
    "OutputError",
    "RunSpec",
    "RunStats",
    "SchedulerError",
    "Suite",
    "SuiteEntry",
    "SuiteError",
    "SuiteNotFound",
    "Sweep",
    "Task",
    "TaskCache",
    "TaskResult",
    "available_suites",
    "build_outcome",
    "cache_key",
    "check_fingerprint",
    "config_hash",
    "default_cache_dir",
    "execute",
    "execute_task",
    "find_suite",
    "load_outcomes",
    "load_suite",
    "plan",
    "point_config",
    "read_results_csv",
    "read_results_parquet",
    "results_rows",
    "run_check",
    "run_checks",
    "run_config",
    "run_specs",
    "run_suite",
    "run_tasks",
    "save_outcomes",
    "sweep",
    "sweep_suite",
    "task_seed",
]
