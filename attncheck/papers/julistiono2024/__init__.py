"""julistiono2024: ell_p mirror descent on attention (Appendix A.2-A.5, the main theorem, Section 4).
Its formulas were lost in extraction: statements are restated (docs/papers/julistiono2024.md), each with a
provenance tag."""
from attncheck.core.paper import Paper

PAPER = Paper(
    key="julistiono2024",
    title="Optimizing Attention with Mirror Descent: Generalized Max-Margin Token Selection",
    arxiv="2410.14581",
    provenance_tags=('CODE', 'DERIVED-UNCERTAIN', 'DERIVED', 'MISSING'),
    experiments="experiments.synthetic",
)
