"""Bad files, folders and sizes through the command line: suite files, results folders,
reports, the task cache, the audits, deep or long values and sizes beyond their limits. Each
exits 2 with exactly one line on stderr naming the input, never a traceback, a warning or
output, and every file that was there before is there after, unchanged.

The cases run through :func:`pflbounds.cli.main` in this process (see test_cli_fuzz.py).
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import numpy as np
import pytest
from cli_fuzz_helpers import assert_one_line_errors, run_cli

from pflbounds.cli import main
from pflbounds.limits import MAX_REPLICAS, MAX_SEED, max_jobs

LEMMA6 = ["eta=0.1", "mu=1", "L=2", "sigma2=1", "T=10"]
OUTCOME = {"check_id": "even2022.P11", "kind": "bound_holds", "verdict": "HOLDS",
           "expected": "HOLDS", "margin": 1.5, "replicas": 1, "seed": 0, "config": {},
           "config_hash": "h", "evidence": [], "detail": "", "elapsed": 0.0, "version": "0",
           "error": None, "title": "t", "fits": [], "timestamp": ""}
DEEP = 200_000


def _results(d: Path, name: str, doc=None, *, text: str | None = None,
             raw: bytes | None = None) -> Path:
    """A results folder ``d/name`` holding an outcomes.json of ``doc`` (or text, or bytes)."""
    folder = d / name
    folder.mkdir()
    f = folder / "outcomes.json"
    if raw is not None:
        f.write_bytes(raw)
    elif text is not None:
        f.write_text(text)
    else:
        f.write_text(json.dumps(doc))
    return folder


def _outcome(**changes) -> dict:
    out = {**OUTCOME, **changes}
    return {k: v for k, v in out.items() if v is not _DROP}


_DROP = object()


def _doc(*outcomes) -> dict:
    return {"format": "pflbounds.outcomes/1", "outcomes": list(outcomes)}


@pytest.fixture(scope="module")
def place(tmp_path_factory) -> Path:
    """Bad suite files, results folders, audit folders, caches and output places."""
    d = tmp_path_factory.mktemp("badfiles")
    check = '[[checks]]\nid = "even2022.P1"\n'
    suites = {
        "up.toml": f'name = "../../x"\n{check}',
        "abs.toml": f'name = "/tmp/evil"\n{check}',
        "space.toml": f'name = "a b"\n{check}',
        "dot.toml": f'name = "."\n{check}',
        "dotdot.toml": f'name = ".."\n{check}',
        "emptyname.toml": f'name = ""\n{check}',
        "intname.toml": f'name = 123\n{check}',
        "slash.toml": f'name = "a/b"\n{check}',
        "accent.toml": f'name = "r\u00e9sultats"\n{check}',
        "longname.toml": f'name = "{"x" * 101}"\n{check}',
        "bad stem.toml": check,
        "syntax.toml": 'name = "s"\n[[checks]\nid = "even2022.P1"\n',
        "dupkey.toml": f'name = "a"\nname = "b"\n{check}',
        "unknown.toml": 'name = "u"\n[[checks]]\nid = "even2022.P999"\n',
        "nomatch.toml": 'name = "g"\n[[checks]]\nid = "nopaper.*"\n',
        "nomatch2.toml": 'name = "g"\n[[checks]]\nid = "even2022.Q*"\n',
        "noid.toml": 'name = "n"\n[[checks]]\nreplicas = 3\n',
        "replicas_big.toml": f'name = "r"\n[[checks]]\nid = "even2022.P7"\nreplicas = '
                             f'{MAX_REPLICAS + 1}\n',
        "replicas_zero.toml": 'name = "r"\n[[checks]]\nid = "even2022.P7"\nreplicas = 0\n',
        "replicas_str.toml": 'name = "r"\n[[checks]]\nid = "even2022.P7"\nreplicas = "many"\n',
        "seed_neg.toml": f'name = "s"\nseed = -1\n{check}',
        "checks_table.toml": 'name = "c"\n[checks]\nid = "even2022.P1"\n',
        "checks_str.toml": 'name = "c"\nchecks = ["even2022.P1"]\n',
        "entry_key.toml": 'name = "c"\n[[checks]]\nid = "even2022.P1"\nweight = 2\n',
        "deep_array.toml": 'name = "d"\nx = ' + "[" * DEEP + "]" * DEEP + "\n",
        "deep_table.toml": 'name = "d"\nx = ' + "{a=" * 5000 + "1" + "}" * 5000 + "\n",
    }
    for name, text in suites.items():
        (d / name).write_text(text, encoding="utf-8")
    (d / "binary.toml").write_bytes(b"\x00\xff\xfe\x80binary")
    with (d / "huge.toml").open("w") as fh:
        fh.write('name = "h"\n' + check + "# " + "x" * 1_100_000 + "\n")
    (d / "empty.toml").write_text("")

    # results folders
    _results(d, "truncated", text='{"format": "pflbounds.outcomes/1", "outcomes": [{"chec')
    _results(d, "deep", text="[" * DEEP + "]" * DEEP)
    _results(d, "deep_ok_json", text='{"outcomes": ' + "[" * 500 + "]" * 500 + "}")
    _results(d, "binary", raw=b"\xff\xfe\x00\x01not json")
    _results(d, "number", text="42")
    _results(d, "string", text='"outcomes"')
    _results(d, "outcomes_dict", {"outcomes": {"a": 1}})
    _results(d, "outcome_list", _doc(1, 2))
    _results(d, "no_check_id", _doc(_outcome(check_id=_DROP)))
    _results(d, "no_kind", _doc(_outcome(kind=_DROP)))
    _results(d, "bad_verdict", _doc(_outcome(verdict="MAYBE")))
    _results(d, "bad_kind", _doc(_outcome(kind="guess")))
    _results(d, "id_number", _doc(_outcome(check_id=7)))
    _results(d, "evidence_str", _doc(_outcome(evidence="none")))
    _results(d, "evidence_item", _doc(_outcome(evidence=[3])))
    _results(d, "fits_item", _doc(_outcome(fits=["x"])))
    _results(d, "config_list", _doc(_outcome(config=[1])))
    _results(d, "replicas_str", _doc(_outcome(replicas="ten")))
    _results(d, "seed_float", _doc(_outcome(seed=1.5)))
    _results(d, "margin_dict", _doc(_outcome(margin={"a": 1})))
    _results(d, "ragged_evidence", _doc(_outcome(evidence=[{"point": 0, "params": {},
                                                            "mean": [[1, 2], [3]]}])))
    _results(d, "unknown_paper", _doc(_outcome(check_id="nopaper2031.P1")))
    _results(d, "no_outcomes", _doc())
    (d / "empty_results").mkdir()
    (d / "partial").mkdir()
    (d / "partial" / "results.csv").write_text("check_id\n")
    (d / "dir_outcomes").mkdir()
    (d / "dir_outcomes" / "outcomes.json").mkdir()
    big = _results(d, "huge_results", text="")
    os.truncate(big / "outcomes.json", 2_000_000_001)  # sparse: no disk used
    good = _results(d, "good", _doc(_outcome()))

    # report outputs
    (d / "outdir.pdf").mkdir()
    (d / "theirs.pdf").write_bytes(b"%PDF-1.7 somebody's paper")
    (d / "occupied" / "figures").mkdir(parents=True)
    (d / "occupied" / "figures" / "photo.jpg").write_bytes(b"jpg")
    (d / "mine").mkdir()
    (d / "mine" / "notes.txt").write_text("mine")
    (d / "afile").write_text("a file, not a folder")

    # audit folders
    (d / "audit_empty").mkdir()
    for name, text in {
        "audit_trunc/mutants-x.json": '{"paper": "x", "rows": [',
        "audit_deep/tightness-x.json": "[" * DEEP + "]" * DEEP,
        "audit_list/mutants-x.json": "[1, 2]",
        "audit_fields/tightness-x.json": json.dumps({"paper": "x", "cases": [{"rows": [{}]}]}),
        "audit_types/false-alarms-x.json": json.dumps({"suite": "q", "runs": "many"}),
    }.items():
        (d / name).parent.mkdir(exist_ok=True)
        (d / name).write_text(text)

    # caches that are not caches
    for name in ("notcache/notes.txt", "notcache2/tasks/data.csv",
                 "notcache3/shared/plot.png", "cargo/CACHEDIR.TAG"):
        (d / name).parent.mkdir(parents=True, exist_ok=True)
        (d / name).write_text("Signature: 8a477f597d28d172789f06886806bc55\n# cargo\n"
                              if name.endswith("TAG") else "user data")
    (d / "emptycache").mkdir()

    # matrices
    np.savetxt(d / "b_huge.csv", np.array([[0, 1e200], [1e200, 0]]), delimiter=",")
    np.savetxt(d / "lam2.csv", np.full((2, 2), 0.5), delimiter=",")
    with (d / "big.csv").open("wb") as fh:
        fh.truncate(60_000_000)
    m = np.lib.format.open_memmap(d / "big.npy", mode="w+", dtype=float, shape=(5000, 5000))
    del m
    (d / "README").write_text(str(good))
    return d


def _snapshot(root: Path) -> dict[str, tuple[int, float]]:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime)
            for p in sorted(root.rglob("*")) if p.is_file()}


def _cases(d: Path) -> list[tuple[list[str], str]]:
    """(argv, a piece of the one error line)."""
    c: list[tuple[list[str], str]] = []
    add = c.append
    out = ["--out", str(d / "new.pdf")]

    # suite files: names
    for name, piece in [("up", "name '../../x' is not a suite name"),
                        ("abs", "name '/tmp/evil'"), ("space", "name 'a b'"),
                        ("dot", "name '.'"), ("dotdot", "name '..'"), ("emptyname", "name ''"),
                        ("intname", "name 123 is not a string"), ("slash", "name 'a/b'"),
                        ("accent", "r\u00e9sultats"), ("longname", "at most 100 characters"),
                        ("bad stem", "the file name gives the suite name 'bad stem'")]:
        f = str(d / f"{name}.toml")
        add((["validate", f, "--out", str(d / "o")], piece))
        if name in ("up", "abs", "bad stem"):
            add((["report", f, *out], piece))
            add((["audit", "false-alarms", f, "--out", str(d / "a")], piece))
    # suite files: content
    for name, piece in [("syntax", "invalid TOML"), ("dupkey", "invalid TOML"),
                        ("unknown", "even2022.P999"), ("nomatch", "'nopaper.*' matches no"),
                        ("nomatch2", "'even2022.Q*' matches no registered check"),
                        ("noid", "checks entry 1 needs an id"),
                        ("replicas_big", f"replicas must be an integer in [1, 1e+07], got "
                                         f"{MAX_REPLICAS + 1}"),
                        ("replicas_zero", "replicas must be an integer in [1"),
                        ("replicas_str", "got 'many'"), ("seed_neg", "seed must be an integer"),
                        ("checks_table", "at least one [[checks]] entry"),
                        ("checks_str", "checks entry 1 must be a table"),
                        ("entry_key", "unknown keys ['weight']"),
                        ("deep_array", "nest too deeply"), ("deep_table", "nest too deeply"),
                        ("binary", "is not text"), ("huge", "larger than 1 MB"),
                        ("empty", "at least one [[checks]] entry")]:
        add((["validate", str(d / f"{name}.toml"), "--out", str(d / "o")], piece))
    add((["report", str(d / "deep_array.toml"), *out], "nest too deeply"))
    add((["validate", str(d / "nosuch.toml")], "not found"))
    add((["report", str(d / "nosuch.toml"), *out], "not found"))

    # results folders
    for name, piece in [
        ("truncated", "is truncated or not valid JSON"), ("deep", "nests deeper than 64"),
        ("deep_ok_json", "nests deeper than 64"), ("binary", "is not text (not UTF-8)"),
        ("number", "not a pflbounds results file"), ("string", "not a pflbounds results file"),
        ("outcomes_dict", "not a pflbounds results file"),
        ("outcome_list", "outcome 1 is 1, not a record"),
        ("no_check_id", "outcome 1 has no field 'check_id'"),
        ("no_kind", "outcome 1 (even2022.P11) has no field 'kind'"),
        ("bad_verdict", "outcome 1 (even2022.P11) has a bad value: 'MAYBE'"),
        ("bad_kind", "'guess'"), ("id_number", "field 'check_id' is 7; expected a string"),
        ("evidence_str", "field 'evidence' is \"none\"; expected a list"),
        ("evidence_item", "evidence entry 1 is not a record"),
        ("fits_item", "fits entry 1 is not a record"),
        ("config_list", "field 'config' is [1]; expected a record"),
        ("replicas_str", "field 'replicas' is \"ten\"; expected an integer"),
        ("seed_float", "field 'seed' is 1.5; expected an integer"),
        ("margin_dict", "field 'margin'"), ("ragged_evidence", "outcome 1 (even2022.P11)"),
        ("unknown_paper", "'nopaper2031.P1' is of paper 'nopaper2031', which is not in the "
                          "catalog"),
        ("no_outcomes", "holds no outcomes"), ("empty_results", "is empty"),
        ("partial", "holds results.csv but no outcomes.json"),
        ("dir_outcomes", "outcomes.json is a folder"), ("huge_results", "larger than the 2 GB"),
    ]:
        add((["report", str(d / name), *out], piece))
    add((["report", str(d / "deep" / "outcomes.json"), *out], "nests deeper than 64"))
    add((["validate", str(d / "deep")], "nests deeper than 64"))
    add((["validate", str(d / "bad_verdict" / "outcomes.json")], "'MAYBE'"))

    # report outputs
    good = str(d / "good")
    for target, piece in [("new.txt", "must name a .pdf file"),
                          ("outdir.pdf", "is an existing folder"),
                          ("theirs.pdf", "is an existing file that pflbounds did not write"),
                          ("nofolder/r.pdf", "does not exist"),
                          ("occupied.pdf", "occupied holds files the report did not write "
                                           "(figures/photo.jpg)"),
                          ("mine.pdf", "holds files the report did not write (notes.txt)"),
                          ("afile.pdf", "afile is a file, not a folder; the report puts"),
                          ("afile/r.pdf", "is a file, not a folder")]:
        add((["report", good, "--out", str(d / target)], piece))
    add((["report", good, "--out", "/proc/pflbounds-r.pdf"], "cannot write in folder /proc"))

    # report --audit
    for name, piece in [("nosuch", "does not exist"), ("afile", "is a file; expected the folder"),
                        ("audit_empty", "holds no audit file"),
                        ("audit_trunc", "mutants-x.json cannot be read"),
                        ("audit_deep", "nests too deeply"),
                        ("audit_list", "does not hold an audit document"),
                        ("audit_fields", "tightness-x.json is not an audit document"),
                        ("audit_types", "false-alarms-x.json is not an audit document")]:
        add((["report", good, *out, "--audit", str(d / name)], piece))

    # the task cache
    for name in ("notcache", "notcache2", "notcache3"):
        for action in (["clear"], ["info"], ["clear", "--stale"], ["clear", "--check", "*"]):
            add((["cache", *action, "--cache-dir", str(d / name)],
                 f"cache folder {d / name} is not a pflbounds task cache"))
    add((["cache", "clear", "--cache-dir", str(d / "cargo")], "CACHEDIR.TAG"))
    add((["cache", "info", "--cache-dir", str(d / "emptycache")], "an empty folder"))
    add((["cache", "clear", "--cache-dir", str(d / "afile")], "is a file, not a folder"))
    add((["check", "even2022.P11", "--cache-dir", str(d / "notcache")],
         "is not a pflbounds task cache"))
    add((["validate", str(d / "up.toml"), "--cache-dir", str(d / "notcache")], "'../../x'"))

    # audits: the output place, checked before any work, and sizes
    for sub in (["tightness", "--paper", "even2022"], ["mutants", "--paper", "even2022"],
                ["false-alarms", "validation/quick.toml"]):
        for target, piece in [(str(d / "afile"), "is a file; expected a folder"),
                              (str(d / "afile" / "x"), "is a file, not a folder"),
                              (str(d / "nofolder" / "x"), "does not exist"),
                              ("/proc/pflbounds-audit", "cannot write in folder /proc")]:
            add((["audit", *sub, "--out", target], piece))
    add((["audit", "tightness", "--paper", "even2022", "--horizons", "5,5000",
          "--out", str(d / "a")], "--horizons 5000 is too large: at most K = 200"))
    add((["audit", "tightness", "--paper", "even2022", "--horizons", ",".join(["1"] * 60),
          "--out", str(d / "a")], "lists 60 iteration counts: at most 50"))
    add((["audit", "tightness", "--paper", "even2022", "--horizons", "a,b"],
         "--horizons 'a,b': expected integers"))
    add((["audit", "false-alarms", "--seeds", "1000000"], "--seeds: 1000000 is too large"))
    add((["audit", "false-alarms", "--first-seed", str(MAX_SEED), "--seeds", "2",
          "--out", str(d / "a")], "goes past the largest seed"))
    add((["audit", "mutants", "--paper", "even2022", "--jobs", "100000"],
         "--jobs: 100000 is too large"))
    add((["audit", "mutants", "--paper", "even2022", "--seed", "1e30"],
         "--seed: 1e30 is too large"))

    # sizes of the runs
    add((["check", "even2022.P7", "--replicas", "1e20"], "--replicas: 1e20 is too large: at "
                                                          f"most {MAX_REPLICAS}"))
    add((["check", "even2022.P7", "--replicas", str(MAX_REPLICAS + 1)], "is too large"))
    add((["check", "even2022.P7", "--replicas", "1e400"], "expected an integer >= 1"))
    add((["check", "even2022.P7", "--replicas", "9" * 5000], "expected an integer >= 1"))
    add((["check", "even2022.P7", "--jobs", str(max_jobs() + 1)],
         f"--jobs: {max_jobs() + 1} is too large: at most {max_jobs()}"))
    add((["check", "even2022.P7", "--seed", str(MAX_SEED + 1)], "--seed: "))
    add((["validate", "--jobs", "10000"], "--jobs: 10000 is too large"))
    add((["report", "--jobs", "10000"], "--jobs: 10000 is too large"))

    # values: depth, length, overflow; matrices too large in size or entries
    deep = "(" * 400 + "1" + ")" * 400
    for value, piece in [(deep, "expression nesting deeper than 100"),
                         ("^".join(["2"] * 150), "expression nesting deeper than 100"),
                         ("^".join(["2"] * 600), "value longer than 1000 characters"),
                         ("-" * 3000 + "1", "value longer than 1000 characters"),
                         ("-" * 300 + "1", "expression nesting deeper than 100"),
                         ("1e400", "1e400 overflows double precision"),
                         ("exp(710)", "exp(710) overflows double precision"),
                         ("10^400", "10^400 overflows double precision"),
                         ("1e200*1e200", "the product of 1e+200 and 1e+200 overflows"),
                         ("1/(1/0)", "division by zero")]:
        add((["eval", "even2022.lemma6", *LEMMA6, f"Delta0={value}"], "Delta0: " + piece))
    add((["eval", "even2022.lemma6", *LEMMA6[1:], f"eta={deep}", "Delta0=1"], "eta: "))
    add((["solve", "even2022.lemma6", "--for", "T", "--target", deep, *LEMMA6[:4],
          "Delta0=1"], "--target: expression nesting deeper than 100"))
    add((["eval", "even2022.lemma4", "b=1e300", "mu=1"],
         "even2022.lemma4 [printed] overflows double precision"))
    add((["eval", "even2022.theorem3", "--form", "explicit", "BiasSum=1", "DeltaLam0=1", "K=1",
          "L=1", "N=1", "SumLam2=1", "mu=1", "sigma2=0"],
         "even2022.theorem3 [explicit] is undefined at sigma2=0"))
    add((["eval", "even2022.corollary2", "--elasticities", "Delta2=1", "L=1", "d_eff=1", "eps=1",
          "mu=1", "nu2=1", "sigma2=1"], "has parts S, C, KC, K: name the one whose "
                                        "elasticities to compute with --part"))
    add((["eval", "erickson2025.ifca_collapse", "x=1"], "it takes no inputs"))
    add((["solve", "erickson2025.ifca_collapse", "--for", "x", "--target", "1"],
         "it takes no inputs"))
    add((["eval", "even2022.theorem2", "--form", "explicit", "eta=0.1", "mu=1", "L=2",
          "sigma2=0.5", "K=20", "Delta0=1", f"b={d / 'b_huge.csv'}", f"Lambda={d / 'lam2.csv'}"],
         "entry (0, 1) is 1e+200; expected numbers of magnitude at most 1e+100"))
    add((["complexity", "--paper", "even2022", "mu=1", "L=2", "sigma2=1", "eps=0.01",
          "Delta0=1", f"b={d / 'b_huge.csv'}"], "b file"))
    add((["eval", "even2022.theorem3", "--form", "corrected", f"Lambda={d / 'big.csv'}",
          "eta=0.1", "mu=1", "L=2", "sigma2=1", "K=10", "F0=1", "BiasSum=0"],
         "big.csv' is larger than 50 MB"))
    add((["eval", "even2022.theorem3", "--form", "corrected", f"Lambda={d / 'big.npy'}",
          "eta=0.1", "mu=1", "L=2", "sigma2=1", "K=10", "F0=1", "BiasSum=0"],
         "has 5000 clients: at most 4000"))
    add((["eval", "even2022.eq6", "eta=0.1", "mu=1", "L=2", "sigma2=0.25000001"],
         "even2022.eq6"))
    # a paper's calculator: domains checked before it reads them, sizes it would allocate
    calc = ["complexity", "--paper", "philippenko2025", "mu=1", "beta=1", "eps=0.1",
            "sigma2=1", "b_between=1"]
    add(([*calc, "N=4", "clusters=2", "C=0"], "C=0 is outside its domain"))
    add(([*calc[:3], *calc[4:], "mu=0", "N=4", "clusters=2"], "mu=0 is outside its domain"))
    add(([*calc, "N=4", "clusters=1.5"], "clusters=1.5 is outside its domain"))
    add(([*calc, "N=1e20", "clusters=2"], "N=100000000000000000000 is too large: at most 4000"))
    add(([*calc, "N=1e9", "clusters=2"], "N=1000000000 is too large: at most 4000"))
    return c


def test_at_least_80_bad_files_and_sizes(place):
    assert len(_cases(place)) >= 80


def test_every_bad_file_or_size_is_one_line_exit_2_and_touches_nothing(place, capsys):
    before = _snapshot(place)
    assert_one_line_errors(_cases(place), capsys)
    assert _snapshot(place) == before  # no file written, changed or removed
    assert not (place / "o").exists() and not (place / "a").exists()


def test_numbers_keep_the_digits_that_show_why_they_fail(capsys):
    code, out, err, caught = run_cli(["eval", "even2022.lemma6", "eta=0.25000001", "mu=1", "L=2",
                                      "sigma2=1", "T=10", "Delta0=1"], capsys)
    assert code == 2 and not caught
    assert "eta=0.25000001 (left side 0.25000001, right side 0.25)" in err
    code, out, err, caught = run_cli(["eval", "scott2024.theoremB1_part1", "delta=1.0000001",
                                      "KLsum=1", "M=2", "m=2", "n=10"],
                                     capsys)
    assert code == 2 and "delta=1.0000001 is outside its domain" in err, err


def test_elasticities_say_why_an_entry_is_undefined(capsys):
    code, out, err, caught = run_cli(["eval", "even2022.theorem1", "eps=0.01", "r=1",
                                      "sigma2=0", "Neps=2", "--elasticities", "--json"], capsys)
    assert code == 0 and not caught and err == ""
    el = json.loads(out)["elasticities"]
    assert el["sigma2"] == "undefined at sigma2=0"
    assert el["eps"] == "undefined where the value is 0"
    assert "nan" not in out


COMMANDS = [
    ["eval", "even2022.lemma6", *LEMMA6, "Delta0=0", "--elasticities"],
    ["eval", "even2022.theorem1", "eps=0.01", "r=1", "sigma2=0", "Neps=2", "--elasticities"],
    ["eval", "even2022.theorem4", "C=1", "D_star=1", "Delta2=1", "F0=1", "K=1", "L=1",
     "S=1e300", "b_max=1", "d_eff=1", "mu=1", "nu2=1", "sigma2=1", "u=1", "--elasticities"],
    ["eval", "even2022.corollary1", "--form", "corrected", "F0=1e300", "L=1", "eps=1",
     "invN_mean=1", "mu=1", "rho_W=1", "sigma2=1", "--elasticities"],
    ["eval", "even2022.lemma4", "b=1e300", "mu=1", "--elasticities"],
    ["eval", "even2022.theorem3", "--form", "explicit", "BiasSum=1", "DeltaLam0=1", "K=1",
     "L=1", "N=1", "SumLam2=1", "mu=1", "sigma2=0"],
    ["eval", "even2022.lemma6", *LEMMA6, "Delta0=1e308"],
    ["solve", "even2022.lemma6", "--for", "T", "--target", "1e-300", *LEMMA6[:4], "Delta0=1"],
    ["solve", "even2022.lemma6", "--for", "eta", "--target", "1e300", "mu=1", "L=2",
     "sigma2=1", "T=10", "Delta0=1"],
    ["complexity", "--paper", "even2022", "mu=1", "L=2", "sigma2=1", "eps=1e-300",
     "Delta0=1e300", "N=4", "Neps=2", "invN_mean=0.5", "rho_W=1"],
    ["complexity", "--paper", "hanzely2023", "mu=1e-300", "L=1e300"],
    ["check", "even2022.P11", "--quick", "--no-cache"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a)[:60])
def test_no_warning_escapes_a_command(argv, capsys):
    """Any Python warning raised while a command runs is an error here (the console script
    silences the rest; these must not need it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code = main(argv)
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), err
    assert "Traceback" not in err and "Warning" not in err and "nan" not in out + err
    if code == 2:
        assert len(err.splitlines()) == 1


def test_the_console_script_shows_no_warning(tmp_path):
    """The console script silences warnings that escape, in this process and its workers."""
    import subprocess
    import sys

    code = ("import warnings, sys\n"
            "import pflbounds.cli as c\n"
            "real = c.cmd_list\n"
            "def noisy(args):\n"
            "    warnings.warn('a stray warning', RuntimeWarning)\n"
            "    return real(args)\n"
            "c.cmd_list = noisy\n"
            "c.build_parser.__globals__['cmd_list'] = noisy\n"
            "sys.argv = ['pflbounds', 'list', '--paper', 'even2022']\n"
            "sys.exit(c.main())\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, env={**os.environ, "PYTHONWARNINGS": "always"})
    assert r.returncode == 0 and "even2022.theorem2" in r.stdout
    assert r.stderr == "", r.stderr
