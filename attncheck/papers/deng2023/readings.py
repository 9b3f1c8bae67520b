"""deng2023: the readings of the open phrases that more than one claim file uses (one reading
per phrase, as DESIGN.md asks). No claims are defined here."""

POLY = "1 - delta/poly(n) read as 1 - delta (poly(n) = 1, the most lenient reading)"
DELTA = ("delta drawn in [10^-3, 0.1) (the open interval (0, 0.1)); UNCHECKED: delta in (0, 10^-3), where a "
         "claimed 1 - delta > 0.999 needs more draws than the budget (16000 per case) to decide")
