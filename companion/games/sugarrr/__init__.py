"""Sugarrr!: play fruit onto columns, gather them or attract Fruit-O-Saurs (rulebooks/sugarrr.txt)."""
