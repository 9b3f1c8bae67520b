"""A claim over a declared Space through the engine: cases by stage, and the same record for the same seed."""
from attncheck import Real, Space, claim, ge
from attncheck.core.claims import Registry
from attncheck.core.profiles import PROFILES
from attncheck.run.session import run_claim as run


def test_cases_per_point_are_recorded_by_stage():
    reg = Registry()

    @claim("t/space/holds", kind="inequality", statement="x^2 + y^2 >= 0", source="test", registry=reg,
           space=Space(x=Real(-1, 1), y=Real(-1, 1)), cost="cheap")
    def ok(c, xp):
        return ge(xp.asarray(c["x"]) ** 2 + xp.asarray(c["y"]) ** 2, 0.0, xp)

    rec = run(ok, "quick", seed=3)
    ev = rec["evidence"]
    assert rec["verdict"] == "HOLDS"
    assert ev["stages"]["corners"] > 0 and ev["stages"]["hypothesis"] > 1000 and ev["stages"]["optimizer"] > 0
    assert ev["cases"] == sum(ev["stages"].values())
    assert ev["cost"] == "cheap" and ev["budget"]["examples"] == PROFILES["quick"].budget(False, "cheap").examples


def test_same_seed_same_record_apart_from_time():
    from planted_power import POWER

    for cid in ("power/tiny-region/false", "power/five-percent/twin", "power/slow-growth/false"):
        a, b = (run(POWER.get(cid), "quick", seed=5) for _ in range(2))
        a["evidence"].pop("seconds"), b["evidence"].pop("seconds")
        assert a == b, cid
