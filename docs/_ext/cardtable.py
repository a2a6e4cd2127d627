"""Sphinx extension: the ``fly-table`` directive, a picture drawn by :mod:`fly_rules.svg` at build time.

The directive's content is one Python expression, evaluated with the names of ``fly_rules``,
``fly_rules.svg.table``/``card``/``deal_picture``, the game packages ``fly`` and ``dreyfus`` and
``parse_position`` in scope; its value (an SVG string) is embedded in the HTML page, in
a figure with the ``:caption:``. A failing expression is a build error.
"""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

import fly_rules
from fly_rules import dreyfus, fly, svg
from fly_rules.notation import parse_position


class FlyTable(SphinxDirective):
    """Evaluate the content and embed the SVG it returns."""

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {"caption": directives.unchanged_required}

    def run(self) -> list[nodes.Node]:
        namespace: dict[str, Any] = {name: getattr(fly_rules, name) for name in fly_rules.__all__}
        namespace.update(
            table=svg.table,
            card=svg.card,
            deal_picture=svg.deal_picture,
            fly=fly,
            dreyfus=dreyfus,
            parse_position=parse_position,
        )
        source = "\n".join(self.content)
        try:
            picture = eval(source, namespace)
        except Exception as error:
            raise self.error(f"fly-table: the expression failed: {error!r}") from error
        if not isinstance(picture, str) or not picture.startswith("<svg"):
            raise self.error("fly-table: the expression must return an SVG string")
        figure = nodes.figure(classes=["fly-table"])
        figure += nodes.raw("", picture, format="html")
        if "caption" in self.options:
            figure += nodes.caption(self.options["caption"], self.options["caption"])
        return [figure]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the ``fly-table`` directive."""
    app.add_directive("fly-table", FlyTable)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
