"""Compiled engines: one extension module per game, private to boardcore."""
