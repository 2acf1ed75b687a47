"""The tests of paper 004: its theory (``test_theory.py``), the simulator and models it runs on
(``test_simulator.py``), and the paper itself — claims, quick run, mutants (``test_paper.py``)."""
