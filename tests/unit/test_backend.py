"""Every xp backend offers the declared interface, and exactly one capability flag describes it."""
import pytest

from attncheck.numeric.arbfloat import ArbRun
from attncheck.numeric.backend import FUNCTIONS, Backend
from attncheck.numeric.exact import EXACT
from attncheck.numeric.interval import ARB
from attncheck.numeric.precision import F64, MP
from attncheck.numeric.symbolic import SYM

FLAGS = ("native", "precise", "enclosure", "exact")


@pytest.mark.parametrize("xp, flag", [(F64, "native"), (MP(30), "precise"), (ARB(), "enclosure"), (SYM(), "exact"),
                                     (EXACT(), "exact"), (ArbRun(30), "enclosure")])
def test_backends_offer_the_interface_and_one_flag(xp, flag):
    assert isinstance(xp, Backend)
    assert all(callable(getattr(xp, f)) for f in FUNCTIONS)
    assert [f for f in FLAGS if getattr(xp, f)] == [flag]


def test_an_object_without_the_flags_is_not_a_backend():
    class Half:
        name = "half"

        def asarray(self, a):
            return a

    assert not isinstance(Half(), Backend)
