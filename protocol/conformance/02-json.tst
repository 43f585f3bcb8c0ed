# The same commands in JSON mode: every payload is one JSON object on one line.
a> format json
= {"format": "json"}
a> protocol_version
= {"protocol_version": 1}
a> 1 name
=1 {"name": "hipparchusd"}
a> version
= {"version": "0.1.0"}
a> list_commands
= {"commands": ["protocol_version", "name", "version", "list_commands", "known_command", "help", "quit", "format", "kinds", "new", "games", "join", "resume", "leave", "watch", "unwatch", "state", "legal", "play", "resign", "claim", "time_left", "record", "bot", "genmove", "analyze", "stop", "end"]}
a> known_command resign
= {"known": true}
a> help state
= {"help": {"state": "state <game>  -- your view of a game"}}
a> kinds
= {"kinds": ["hipparchus", "planets"], "about": {"hipparchus": {"seats": "2", "summary": "two players, Sun, Moon and Earth clumps; the first to win two rounds wins", "levels": ["random", "heuristic", "sampler", "ismcts"]}, "planets": {"seats": "3-6", "summary": "3 to 6 players, Hearts-like: avoid Jupiter, Mars 7 and Neptune 7, or take them all", "levels": ["random", "heuristic", "sampler", "ismcts"]}}}
a> games
= {"games": []}
a> frobnicate
? {"code": "unknown-command", "message": "unknown command 'frobnicate'"}
a> format text
= text
a> format json
= {"format": "json"}
a> quit
= {}
