"""scott2024's own experiments, small and synthetic (population C): each module declares the
paper's claims about an experiment as results and the runs that check them as ``CHECKS``."""
