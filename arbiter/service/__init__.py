"""The service layer: everything the API and the workers do to a game.

Views and tasks are thin adapters over these functions: create a game, submit a
move, resign, advance chance, read views, events and records.
"""
