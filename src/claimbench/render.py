"""Escaping and table rendering for Markdown, LaTeX and HTML: every name and value from data
goes through here, so a method called ``<img onerror=...>`` or ``50%_{x}`` prints as text."""
from __future__ import annotations

import html
import re

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")
_TEX_MAP = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
            "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}"}


def md_escape(text) -> str:
    s = str(text).replace("\r", " ").replace("\n", " ")
    return _MD_SPECIAL.sub(r"\\\1", s)


def tex_escape(text) -> str:
    return "".join(_TEX_MAP.get(ch, ch) for ch in str(text).replace("\n", " "))


def html_escape(text) -> str:
    return html.escape(str(text), quote=True)


def md_table(header: list[str], rows: list[list], escape: bool = True) -> str:
    esc = md_escape if escape else (lambda s: str(s).replace("|", "\\|"))
    lines = ["| " + " | ".join(esc(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
