# The GTP-style commands, in text mode, on one connection "a".
# Requests may carry an id, echoed in the response.
a> protocol_version
= 1
a> 1 name
=1 hipparchusd
a> 2 version
=2 0.1.0
a> list_commands
= protocol_version
name
version
list_commands
known_command
help
quit
format
kinds
new
games
join
resume
leave
watch
unwatch
state
legal
play
resign
claim
time_left
record
bot
genmove
analyze
stop
end
a> known_command play
= true
a> known_command fly
= false
a> help play
= play <game> <move>  -- make a move: one word in the game's notation
a> help new
= new <kind> [key=value ...]  -- create a game; 'help new' lists each kind's options
hipparchus: leader=0|1|random  who leads the first round (default random)
hipparchus: seed=<integer>  deal every round reproducibly from this seed
hipparchus: deal=<hand0>/<hand1>/<face-down>  the first round's deal in hand notation, e.g. SSSSSMMMMMEEEE/SSSSSMMMMEEEEE/ME
hipparchus: clock=<bank>[+<increment>][,<cap>/move]|<cap>/move  a time control, e.g. 5m+3s, 30s/move or 3d/move (units s, m, h, d) (default untimed)
hipparchus: timeout=resign|autoplay  a seat out of time resigns, or the server plays for it and the game goes on (default resign)
hipparchus: absence=<duration>|off  how long a seat may stay away before its opponent may claim the game (default 1m timed, 5m untimed, off by days/move)
hipparchus: first_move=<duration>|off  a timed game whose seat does not make its first decision this soon is aborted (default 30s, or the first decision's time if less)
planets: players=3|4|5|6  seats at the table (default 4)
planets: galaxies=all  six players only: all six Galaxy cards in play, 10 cards each
planets: dealer=<seat>  the first dealer (default the cut: each seat draws, the highest deals)
planets: seed=<integer>  deal every hand (and draw the cut) reproducibly from this seed
planets: deal=<hand0>/<hand1>/...  the first hand's deal, each hand its cards joined by ',' (e.g. V1,JS,M7,...)
planets: exact100=reset  a total of exactly 100 drops to 0
planets: clock=<bank>[+<increment>][,<cap>/move]|<cap>/move  a time control, e.g. 5m+3s, 30s/move or 3d/move (units s, m, h, d) (default untimed)
planets: timeout=resign|autoplay  a seat out of time resigns, or the server plays for it and the game goes on (default autoplay)
planets: absence=<duration>|off  how long a seat may stay away before the engine plays for it (default 1m timed, 5m untimed, off by days/move)
planets: first_move=<duration>|off  a timed game whose seat does not make its first decision this soon is aborted (default 30s, or the first decision's time if less)
a> help
= protocol_version  -- the protocol version (1)
name  -- the server's name
version  -- the server's version
list_commands  -- every command, one per line
known_command <command>  -- true if the command exists
help [<command>]  -- usage of every command, or of one
quit  -- close the connection
format [text|json]  -- switch the output format
kinds  -- the game kinds served, with their seats and summary
new <kind> [key=value ...]  -- create a game; 'help new' lists each kind's options
games  -- the games not finished, one per line
join <game> [<seat>] [name=<name>]  -- take a seat; answers its secret token
resume <token>  -- take back a seat with its token
leave <game>  -- stop following a game
watch <game>  -- follow a game as a spectator
unwatch <game>  -- stop watching a game
state <game>  -- your view of a game
legal <game>  -- your legal moves now
play <game> <move>  -- make a move: one word in the game's notation
resign <game>  -- resign the game
claim <game>  -- win the game over a seat away for the whole absence grace (it resigns)
time_left <game>  -- each seat's clock in a timed game, in milliseconds
record <game>  -- every deal and move of a finished game
bot <game> [<seat>] [level=<level>] [name=<name>]  -- seat the engine in a free seat (a level kinds lists, or ismcts:<budget>)
genmove <game> [<budget>] [play=false]  -- the engine's move for your seat, played unless play=false (budget 200ms or 5000)
analyze <game> [<budget>] [interval=<ms>] [seat=<n>]  -- stream the engine's search for your seat as info events, until stop
stop  -- end your analysis (any request does)
end <game>  -- end a game you created whose seats are all the engine's (no winner)
a> kinds
= hipparchus seats=2 levels=random,heuristic,sampler,ismcts  -- two players, Sun, Moon and Earth clumps; the first to win two rounds wins
planets seats=3-6 levels=random,heuristic,sampler,ismcts  -- 3 to 6 players, Hearts-like: avoid Jupiter, Mars 7 and Neptune 7, or take them all
a> format
= text
a> games
=
# Blank lines and comments get no response.
a> 
a> # a comment
a> 3 quit
=3
