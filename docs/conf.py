"""Sphinx configuration of the boardcore documentation site (``make docs``).

The site documents the *installed* boardcore (a wheel in a venv, never the source
tree): the API reference is read from the compiled modules' docstrings with the
signatures of their stubs, and the pictures and rules pages are made by the installed
package at build time (``_ext/boardcore_docs.py``).  It builds offline, with warnings as
errors.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Autodoc would otherwise document a compiled module from its .pyi stub and lose the
# docstrings; the stubs' typed signatures are put back by _ext/boardcore_docs.py.
os.environ["SPHINX_AUTODOC_IGNORE_NATIVE_MODULE_TYPE_STUBS"] = "1"

import boardcore

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "boardcore"
author = "the boardcore developers"
copyright = "the boardcore developers"
release = version = boardcore.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "boardcore_docs",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# MyST: ```{directive} fences, $ math off, anchors for every heading down to ###.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# Autodoc: members in source order, type hints in the signature, Google docstrings.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autodoc_default_options = {"show-inheritance": True}
# boardcore.envs needs the rl extra, boardcore.openspiel the openspiel extra; the site
# documents them without installing them.
autodoc_mock_imports = ["gymnasium", "pettingzoo", "pyspiel"]
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False
# A dataclass's Attributes section is a field list of the class (its fields are not
# documented a second time as separate objects).
napoleon_use_ivar = True
napoleon_preprocess_types = True
# The game classes list their options like arguments.
napoleon_custom_sections = [("Options", "params_style")]

html_theme = "furo"
html_title = f"boardcore {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
