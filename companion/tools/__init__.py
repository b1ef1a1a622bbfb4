"""Tools for the people who work on the companion: the layers of the code read from its
imports (``python -m companion.tools.layers``)."""
