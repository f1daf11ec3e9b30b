"""philippenko2025's own experiments: the synthetic least squares of Appendix A, with Figure 2
regenerated and the exact mean-square dynamics of its fixed-weight runs."""
