"""Venue mode: a café's tables on one live dashboard, through an MQTT broker (Mosquitto).

A table publishes what its shared screen shows, never hidden information
(:mod:`companion.venue.publish`), from an outbox kept in its game store
(:mod:`companion.venue.outbox`); the host's dashboard subscribes to every table and serves
one live web page (:mod:`companion.venue.dashboard`, :mod:`companion.venue.web`).

Topics (``site/kind/id/aspect``, as Mosquitto's and paho-mqtt's examples lay them out)::

    sugar/<venue>/tables/<table>/status   retained, QoS 1: the table now; the broker's
                                           last will sets "online" false
    sugar/<venue>/tables/<table>/events   QoS 1: one message per input verdict, numbered
    sugar/<venue>/tables/<table>/result   retained, QoS 1: the last finished game's result
"""
