"""The judge's JSON Schemas, shipped as the package ``judge._data.schemas``
(see ``judge._data``); this file only makes the folder a package."""
