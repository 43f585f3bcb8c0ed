"""Several daemons, one service (issue 28): a daemon's part among those that share a
PostgreSQL store. :mod:`.node` joins the server, the store's node and the bus; :mod:`.bus`
is the Redis pub/sub between the daemons, :mod:`.wire` what they send one another;
:mod:`.forwarding` sends the requests for games another daemon holds there, and
:mod:`.proxies` serves here the sessions of other daemons acting on games held here."""
