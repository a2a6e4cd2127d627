"""Engines the conformance tests run the kit against, each a script started as its own process."""
