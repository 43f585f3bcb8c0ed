"""Games in PostgreSQL (issue 28): the store that several daemons share, each game owned by
one daemon at a time and every write fenced by the database.

:mod:`.schema` the tables and their migrations, :mod:`.sql` the operations the writer process
runs, :mod:`.writer` that process (psycopg 3, synchronous), :mod:`.store` the daemon's side
(:class:`~.store.PostgresStore`, a :class:`~hipparchusd.store.base.GameStore` and the node's
lease), :mod:`.export` the finished games for ``hipparchusd export``. psycopg is imported by
the writer process and the export only, never by the daemon's trio thread.
"""
