"""deng2023: softmax vs linear attention (toy model, Sections 3-5; self- and cross-attention datasets,
Appendices A-F; experiments, Section 7)."""
from attncheck.core.paper import Paper

PAPER = Paper(
    key="deng2023",
    title="Why Softmax Attention Outperforms Linear Attention",
    arxiv="2310.11685",
    provenance_tags=(),
    experiments="experiments.section7",
)
