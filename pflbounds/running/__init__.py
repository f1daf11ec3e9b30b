"""Running checks: seeds, tasks, executors, suites and result files."""

from pflbounds.running.aggregate import build_outcome
from pflbounds.running.config import config_hash, point_config, run_config
from pflbounds.running.executor import RunSpec, run_check, run_checks, run_specs, run_tasks
from pflbounds.running.results import (
    load_outcomes,
    read_results_csv,
    results_rows,
    save_outcomes,
)
from pflbounds.running.seeds import task_seed
from pflbounds.running.suite import Suite, SuiteEntry, SuiteError, load_suite, run_suite
from pflbounds.running.tasks import Task, TaskResult, execute_task, plan

__all__ = [
    "RunSpec",
    "Suite",
    "SuiteEntry",
    "SuiteError",
    "Task",
    "TaskResult",
    "build_outcome",
    "config_hash",
    "execute_task",
    "load_outcomes",
    "load_suite",
    "plan",
    "point_config",
    "read_results_csv",
    "results_rows",
    "run_check",
    "run_checks",
    "run_config",
    "run_specs",
    "run_suite",
    "run_tasks",
    "save_outcomes",
    "task_seed",
]
