"""bombari2024: random features, random attention features and word sensitivity (Theorems 1-5,
Appendices B-F; Figures 2-4)."""
from attncheck.core.paper import Paper

PAPER = Paper(
    key="bombari2024",
    title="Towards Understanding the Word Sensitivity of Attention Layers: A Study via Random Features",
    arxiv="2402.02969",
    provenance_tags=(),
    experiments="experiments.figures",
)
