"""Tests of the terminal client's shared parts (hipparchusd/play/) and the harness that drives it
headlessly (tui_harness.py), which the games' own terminal tests use too."""
