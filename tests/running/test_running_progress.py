"""Progress on stderr: a bar on a terminal (cached tasks apart, time left), a line per check
in logs."""

from __future__ import annotations

import io
import re

import pytest

from pflbounds.running import plan, progress
from pflbounds.running.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def tasks(toys):
    return plan(toys["toy.mc_true"]) + plan(toys["toy.exact_true"])  # 8 + 2


def test_lines_name_each_check_when_its_last_task_ends(tasks):
    out = io.StringIO()
    p = Progress("lines", out)
    p.start(tasks, tasks[:3])
    assert out.getvalue() == ""  # no check is complete yet
    for t in tasks[3:8]:
        p.update(t)
    p.update(tasks[8], ok=False)
    p.update(tasks[9])
    p.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("pflbounds: toy.mc_true done (8 tasks, 3 cached); 8/10 tasks, "
                               "3 cached, about ")
    assert re.search(r"about \d+:\d\d left$", lines[0])
    assert lines[1] == ("pflbounds: toy.exact_true done (2 tasks, 0 cached); 10/10 tasks, "
                        "3 cached, 1 failed")


def test_bar_on_a_terminal_counts_cached_tasks_apart(tasks, monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.0)
    term = Terminal()
    p = Progress("auto", term)
    p.start(tasks, tasks[:4])
    p.update(tasks[4])
    p.bar.refresh()
    text = term.getvalue()
    p.close()
    assert "5/10" in text and "4 cached" in text
    assert p.eta() is not None and p.eta() >= 0


def test_auto_is_silent_off_a_terminal_and_modes_are_checked(tasks):
    out = io.StringIO()
    p = Progress(True, out)
    p.start(tasks, [])
    for t in tasks:
        p.update(t)
    p.close()
    assert out.getvalue() == "" and p.mode == "none"
    with pytest.raises(ValueError, match="progress mode"):
        Progress("loud")
