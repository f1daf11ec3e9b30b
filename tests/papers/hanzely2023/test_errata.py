"""hanzely2023 errata: one id scheme (erratum<N>[_word], N the item of the digest's §8),
each attached to a result, and every erratum with a check pointing at a registered check."""

from __future__ import annotations

import re

from pflbounds.checking import registry
from pflbounds.papers.hanzely2023.errata import ERRATA
from pflbounds.symbolic import catalog, results
from pflbounds.symbolic.loader import load_papers

load_papers(checks=True)

def test_ids_are_the_digest_items():
    items = {int(re.fullmatch(r"erratum(\d+)(_[a-z0-9]+)?", k).group(1)) for k in ERRATA}
    assert items == set(range(1, 16))  # §8 #1-15: constants, algorithms, theorems
    assert all(e.id == f"hanzely2023.{k}" for k, e in ERRATA.items())
    assert {k for k in ERRATA if k.startswith("erratum4_")} == {
        "erratum4_ws2", "erratum4_section21", "erratum4_residual", "erratum4_mx2"}

def test_every_erratum_is_attached_to_a_result():
    attached = {e.id for r in results("hanzely2023") for e in r.errata}
    assert attached == {e.id for e in ERRATA.values()}

def test_errata_link_to_registered_checks():
    linked = 0
    for r in catalog.results("hanzely2023"):
        for e in r.errata:
            if e.check_id:
                assert registry.find(e.check_id) is not None, f"{e.id} -> {e.check_id}"
                linked += 1
    assert linked >= 9
