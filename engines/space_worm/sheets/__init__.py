"""Space Worm sheets as data: one JSON file per sheet, found by name.

A file ``<name>.json`` in this folder is a sheet named ``<name>``; dropping in another
file makes it selectable through the game option ``sheet`` with no code change
(``engines/space_worm/sheet.py`` reads and checks every file here at import).
"""
