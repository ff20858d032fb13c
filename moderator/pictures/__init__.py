"""
Pictures of the game: the masterboard and a battleland, as SVG and as small PNGs.

``masterboard`` and ``battleland`` turn the plain view dicts of ``reporting.views`` into
SVG text, so a picture shows only what its viewer may see; they are pure, like the
views.  ``changes`` works out which lands to mark from the events a player may see.
``raster`` is the one step with a native library behind it: SVG to a palette PNG with
the fonts shipped in ``fonts/``.  The SVG is kept for print and the web; the PNG is the
size a mail can carry.
"""
