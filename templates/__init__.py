"""The judge's Jinja2 templates, shipped as the package ``judge._data.templates``
(see ``judge._data``); this file only makes the folder a package."""
