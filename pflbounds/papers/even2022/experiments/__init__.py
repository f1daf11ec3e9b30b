"""even2022's own experiments: Figure 1 (Appendix A, "All-for-all algorithm in practice")."""
