"""scott2024's tests, one module per topic of the paper (a package: its module names, such as
``test_experiments``, may recur in other papers' test folders)."""
