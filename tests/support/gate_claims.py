"""Planted claims for the CI gate: a claim the engine cannot decide (a one-sided witness that fails is INCONCLUSIVE,
never REFUTED), beside a true and a false one."""
import textwrap

GATE_FILE = textwrap.dedent('''
    from hypothesis import strategies as st
    from attncheck import claim, le

    @claim("gate/witness/undecided", kind="inequality", statement=r"x \\le 1/2 \\text{ on } [0, 1]", source="user",
           domain=st.floats(0, 1), refutable=False)
    def witness(x, xp):
        return le(xp.asarray(x), 0.5, xp)

    @claim("gate/fact-1/true", kind="inequality", statement=r"x^2 \\ge 0", source="user", domain=st.floats(-1e3, 1e3))
    def square(x, xp):
        x = xp.asarray(x)
        return le(0.0 * x, x * x, xp)
''')
