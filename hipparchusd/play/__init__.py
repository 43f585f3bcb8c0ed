"""``hipparchus-play``: a terminal client for people, over the protocol only (PROTOCOL.md).

:mod:`.table` turns what the server sends (views, legal moves, events) into text and rich
renderables, with no I/O; :mod:`.app` is the command line and the loop that reads events and
asks the player for moves, through :mod:`hipparchusd.client`.
"""
