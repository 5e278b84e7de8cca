"""Emulated devices used by the tests and by ``--simulate``: the real drivers run on them."""
