"""goel2026: softmax self-attention regression with preconditioned gradient descent (Section 3,
Appendices A, C). Its formulas were lost in extraction: statements are restated (docs/papers/goel2026.md),
each with a provenance tag."""
from attncheck.core.paper import Paper

PAPER = Paper(
    key="goel2026",
    title="Training Dynamics of Softmax Self-Attention: Fast Global Convergence via Preconditioning",
    arxiv="2603.01514",
    provenance_tags=('RECOVERED', 'DERIVED', 'RECONSTRUCTED', 'UNKNOWN'),
    experiments="experiments.training",
)
