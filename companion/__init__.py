"""The Sugar Table Companion (see README.md and docs/design.md).

Importing the package (or any of its modules) changes nothing outside it (issue 35): the
start-up speed-ups that patch the standard library are switched on by the programs that
run the table, with :func:`companion.core.startup.speed_ups`.
"""
