"""Computer players at the table: bot seats, stand-ins for absent players, and the thinkers that
search their moves off the event loop. Imports ``table.core`` only; the tables hold a thinker through
``table.core.tables.Thinker`` without importing this package.
"""
