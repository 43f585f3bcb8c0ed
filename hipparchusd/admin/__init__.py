"""The admin channel's client side (issue 26): the messages it carries (:mod:`.wire`, which
the daemon's end, :mod:`hipparchusd.server.admin`, shares) and ``hipparchusd admin ...``
(:mod:`.command_line`)."""
