"""Typer commands: parse options, load settings, call the library, render."""
