"""Which code implements the method each hanzely2023 result is about (``pflbounds show``)."""

from __future__ import annotations

from pflbounds.papers.hanzely2023.paper import P

_A = "pflbounds.algorithms.block_pfl."
_X = "pflbounds.exact.propagator_block_pfl."
_LSGD = (_A + "run_lsgd_pfl", _X + "lsgd_pfl_schedule")
_ACD = (_A + "run_acd_pfl", _X + "acd_pfl_draws")
_ASVRCD = (_A + "run_asvrcd_pfl",)
_OBJ = ("pflbounds.problems.pfl_objectives.PFLObjective",
        "pflbounds.papers.hanzely2023.instances.build")

P.algorithms({
    **dict.fromkeys(("theorem1", "theorem2", "theorem3", "theorem4", "theorem5",
                     "theorem5_weak", "lemma5", "lemma6", "lemma7", "table1_lsgd"), _LSGD),
    **dict.fromkeys(("theorem7", "theorem7_parameters", "acd_contraction", "table1_acd"), _ACD),
    **dict.fromkeys(("theorem8", "theorem8_parameters", "theorem9", "table1_asvrcd"),
                    _ASVRCD),
    "lemma15": (_A + "svrcd_estimator", _A + "run_svrcd_pfl"),
    **dict.fromkeys(("lemma1", "lemma2", "lemma3", "lemma4", "unrescaled",
                     *(f"table2_{k}" for k in ("fl", "full", "mt2", "mx2", "apfl2", "ws2"))),
                    _OBJ),
})
