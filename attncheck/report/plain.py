"""A statement's LaTeX as plain Unicode text, for the terminal: symbols for the macros, fractions and roots written
out, fonts and the braces of groups dropped ("x \\le \\tfrac12 \\text{ on } [0, 1]" reads "x ≤ 1/2 on [0, 1]").
A macro it does not know stays as written, so nothing is lost."""
from __future__ import annotations

import re

SYMBOLS = {
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "in": "∈", "notin": "∉", "subset": "⊂",
    "subseteq": "⊆", "cup": "∪", "cap": "∩", "times": "×", "cdot": "·", "otimes": "⊗", "pm": "±", "sim": "~",
    "approx": "≈", "equiv": "≡", "succeq": "⪰", "preceq": "⪯", "gtrsim": "≳", "lesssim": "≲", "perp": "⊥", "top": "⊤",
    "infty": "∞", "partial": "∂", "nabla": "∇", "sum": "Σ", "prod": "Π", "to": "→", "rightarrow": "→",
    "Rightarrow": "⇒", "iff": "⇔", "mapsto": "↦", "forall": "∀", "exists": "∃", "wedge": "∧", "vee": "∨",
    "langle": "⟨", "rangle": "⟩", "dots": "…", "ldots": "…", "cdots": "⋯", "ell": "ℓ", "quad": "  ", "qquad": "    ",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε", "zeta": "ζ", "eta": "η",
    "theta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ",
    "sigma": "σ", "tau": "τ", "phi": "ϕ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ",
    "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ",
    "Omega": "Ω",
}
#: macros written as their own name (operators)
WORDS = {"log", "ln", "exp", "min", "max", "sup", "inf", "det", "tanh", "sinh", "cosh", "sin", "cos", "Pr", "arg",
         "lim", "tr", "rank", "sgn"}
#: one-argument macros that only change the font: their argument as it is
FONTS = {"text", "textrm", "mathrm", "mathsf", "mathcal", "mathbf", "mathit", "boldsymbol", "operatorname", "rm"}
BLACKBOARD = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ", "E": "E", "P": "P", "1": "1"}
#: macros that size a delimiter: dropped, the delimiter kept
SIZES = {"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr"}
SPACES = {",": " ", ";": " ", ":": " ", "!": "", " ": " "}
ACCENTS = {"bar": "\u0304", "hat": "\u0302", "tilde": "\u0303", "vec": "\u20d7", "dot": "\u0307"}
_ATOM = re.compile(r"[\w.′]+|[^\s]")


def plain(tex: str) -> str:
    """The text of ``tex`` (see the module docstring); runs of spaces become one."""
    text, _ = _sequence(tex, 0, closing=None)
    return re.sub(r" {2,}", " ", text).strip()


def _sequence(s: str, i: int, closing: str | None) -> tuple[str, int]:
    """The text up to ``closing``; a script is parted from a letter after it (x_i x_j), and a fraction followed by
    a factor is parenthesised ((1/2)(a + b))."""
    out, last = [], None
    while i < len(s):
        if closing is not None and s[i] == closing:
            return "".join(out), i + 1
        start = i
        piece, i = _token(s, i)
        if not piece:  # a size macro (\left, \big): nothing to part or parenthesise
            continue
        if s[start].isalnum() and last in ("^", "_"):
            out.append(" ")
        if (piece[:1].isalnum() or piece[:1] == "(") and last == "/":
            out[-1] = f"({out[-1]})"
        out.append(piece)
        last = s[start] if s[start] in "^_" else "/" if re.match(r"\\[td]?frac(?![A-Za-z])", s[start:]) else ""
    return "".join(out), i


def _argument(s: str, i: int) -> tuple[str, int]:
    """One macro argument: a {group}, a macro, or one character (spaces before it skipped)."""
    while i < len(s) and s[i] == " ":
        i += 1
    if i < len(s) and s[i] == "{":
        return _sequence(s, i + 1, "}")
    if i < len(s):
        return _token(s, i)
    return "", i


def _wrapped(text: str) -> str:
    """A fraction's part or a script: parenthesised unless one atom (x, 12, W_mm is not one)."""
    return text if len(_ATOM.findall(text)) <= 1 else f"({text})"


def _token(s: str, i: int) -> tuple[str, int]:
    c = s[i]
    if c == "{":
        return _sequence(s, i + 1, "}")
    if c in "^_":
        arg, j = _argument(s, i + 1)
        if c == "^" and arg == SYMBOLS["top"]:
            return "ᵀ", j
        return c + _wrapped(arg), j
    if c != "\\":
        return c, i + 1
    m = re.match(r"[A-Za-z]+", s[i + 1:])
    if not m:  # \{ \} \| \, \; \! "\ "
        nxt = s[i + 1:i + 2]
        return ("‖" if nxt == "|" else SPACES.get(nxt, nxt)), i + 2
    name, j = m.group(0), i + 1 + len(m.group(0))
    if name in SYMBOLS:
        return SYMBOLS[name], j
    if name in WORDS:
        return name, j
    if name in SIZES:
        return "", j
    if name == "not":
        nxt, k = _argument(s, j)
        return {"∈": "∉", "=": "≠", "⊂": "⊄"}.get(nxt, "not " + nxt), k
    if name in FONTS:
        return _argument(s, j)
    if name == "mathbb":
        arg, k = _argument(s, j)
        return BLACKBOARD.get(arg, arg), k
    if name in ACCENTS:
        arg, k = _argument(s, j)
        return (arg + ACCENTS[name] if len(arg) == 1 else f"{name}({arg})"), k
    if name in ("frac", "tfrac", "dfrac"):
        num, k = _argument(s, j)
        den, k = _argument(s, k)
        return f"{_wrapped(num)}/{_wrapped(den)}", k
    if name == "sqrt":
        arg, k = _argument(s, j)
        return "√" + _wrapped(arg), k
    return "\\" + name, j


_OPERATORS = {">=": "≥", "<=": "≤", "!=": "≠", "->": "→", "=>": "⇒", "+-": "±"}
_GREEK_WORD = re.compile(r"\b(" + "|".join(k for k in SYMBOLS if k[0].isalpha() and SYMBOLS[k].isalpha()
                                           and len(SYMBOLS[k]) == 1 and k not in ("ell",) and len(k) > 2) + r")\b")


def note(text: str) -> str:
    """An erratum's note, written in ASCII with LaTeX scripts (f_{j2,j3} >= n^{1+a}), as Unicode text: grouped
    scripts parenthesised unless one atom (f_(j2,j3), n^(1+a)), comparison operators and Greek names as symbols, any
    LaTeX macro as :func:`plain` reads it. Words stay words: f_exp is f_exp, not f_e xp."""
    text = re.sub(r"\\[A-Za-z]+", lambda m: plain(m.group(0)), text)
    out, i = [], 0
    while i < len(text):
        if text[i] in "^_" and text[i + 1:i + 2] == "{":
            inner, j = _sequence(text, i + 2, "}")
            out.append(text[i] + _wrapped(inner))
            i = j
            continue
        two = text[i:i + 2]
        if two in _OPERATORS:
            out.append(_OPERATORS[two])
            i += 2
            continue
        out.append(text[i])
        i += 1
    return _GREEK_WORD.sub(lambda m: SYMBOLS[m.group(1)], "".join(out)).replace("sqrt(", "√(")
