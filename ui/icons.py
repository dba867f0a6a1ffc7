"""Icons drawn by CSS from inline SVG, so they show on a machine without an emoji font (a Space's, a kiosk's).

An emoji (a paperclip, a page, a lock) is a glyph: where no font has it the browser draws an empty box. These are masks over the
text colour instead: `icon(name)` is the span for an HTML panel, `ICON_CSS` the rules the theme adds. Places
that take plain text only (chat titles, selector labels, table cells) use no icon, or a symbol DejaVu Sans has
(✓ ✗ ⚠ →).
"""
from __future__ import annotations

from types import MappingProxyType
from urllib.parse import quote

# Stroke outlines on a 24×24 grid (the Feather set's shapes, MIT licensed).
_SHAPES = MappingProxyType({
    "clip": '<path d="M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19'
            'a2 2 0 0 1-2.83-2.83l8.49-8.48"/>',
    "doc": '<path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z"/><path d="M14 2v6h6M16 13H8M16 17H8"/>',
    "lock": '<rect x="3" y="11" width="18" height="11" rx="2"/><path d="M7 11V7a5 5 0 0 1 10 0v4"/>',
    "book": '<path d="M4 19.5A2.5 2.5 0 0 1 6.5 17H20"/>'
            '<path d="M6.5 2H20v20H6.5A2.5 2.5 0 0 1 4 19.5v-15A2.5 2.5 0 0 1 6.5 2z"/>',
    "search": '<circle cx="11" cy="11" r="8"/><path d="M21 21l-4.35-4.35"/>',
    "layers": '<path d="M12 2L2 7l10 5 10-5-10-5zM2 17l10 5 10-5M2 12l10 5 10-5"/>',
    "link": '<path d="M10 13a5 5 0 0 0 7.54.54l3-3a5 5 0 0 0-7.07-7.07l-1.72 1.71"/>'
            '<path d="M14 11a5 5 0 0 0-7.54-.54l-3 3a5 5 0 0 0 7.07 7.07l1.71-1.71"/>',
    "chat": '<path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/>',
    "alert": '<path d="M10.29 3.86L1.82 18a2 2 0 0 0 1.71 3h16.94a2 2 0 0 0 1.71-3L13.71 3.86a2 2 0 0 0-3.42 0z"/>'
             '<path d="M12 9v4M12 17h.01"/>',
    "cross": '<path d="M18 6L6 18M6 6l12 12"/>',
    "dot": '<circle cx="12" cy="12" r="3"/>',
})


def _mask(shape: str) -> str:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="black" stroke-width="2" '
           f'stroke-linecap="round" stroke-linejoin="round">{shape}</svg>')
    return f'url("data:image/svg+xml,{quote(svg)}")'


def icon(name: str) -> str:
    """The span that shows icon `name` in an HTML panel (decorative: screen readers skip it)."""
    if name not in _SHAPES:
        raise KeyError(f"unknown icon {name!r}; the icons are {sorted(_SHAPES)}")
    return f'<span class="annex-icon annex-icon-{name}" aria-hidden="true"></span>'


ICON_CSS = (
    ".annex-icon { display: inline-block; width: 1em; height: 1em; vertical-align: -0.14em; margin-right: 0.25em;"
    " background-color: currentColor; -webkit-mask: var(--annex-icon) center / contain no-repeat;"
    " mask: var(--annex-icon) center / contain no-repeat; flex: none; }\n"
    + "".join(f".annex-icon-{name} {{ --annex-icon: {_mask(shape)}; }}\n" for name, shape in _SHAPES.items())
    # the page title's paperclip: the title is Markdown, which keeps no <span>, so the heading draws it itself
    + f"#annex-header h1::before {{ content: ''; display: inline-block; width: 0.9em; height: 0.9em;"
      f" margin-right: 0.3em; vertical-align: -0.08em; background-color: var(--color-accent);"
      f" -webkit-mask: {_mask(_SHAPES['clip'])} center / contain no-repeat;"
      f" mask: {_mask(_SHAPES['clip'])} center / contain no-repeat; }}\n"
)
