# Every error code a request can provoke (line-too-long and invalid UTF-8 cannot be written in
# a text file; limit, shutting-down and internal need a server set up for them: the pytest
# suite covers those). A failed request changes nothing.
a> frobnicate
? unknown-command unknown command 'frobnicate'
a> PLAY g1 1S@1
? syntax 'PLAY' is not a command (commands are lower-case words)
a> 1234567890 name
? syntax a request id has at most 9 digits
a> 12
?12 syntax a command is missing after the id
a> join
? syntax too few arguments; usage: join <game> [<seat>] [name=<name>]
a> state g1 extra
? syntax too many arguments; usage: state <game>
a> play g1 pick 3 E1 E5 VS
? syntax too many arguments; usage: play <game> <move>; a move is one word: a choice's items are joined by ',' (play g1 E1,E5,VS)
a> format yaml
? syntax format is text or json
a> help frobnicate
? unknown-command unknown command 'frobnicate'
a> new chess
? unknown-kind no game kind 'chess' (hipparchus, planets)
a> new hipparchus leader=2
? bad-option leader must be 0, 1 or random, not '2'
a> new hipparchus colour=red
? bad-option unknown option 'colour' for hipparchus (known: leader, seed, deal, clock, timeout, absence, first_move)
a> new hipparchus deal=SSS/MMM/EE
? bad-option bad deal: 'SSS/MMM/EE': seat 0's hand has 3 cards, not 14
a> state g9
? unknown-game no game 'g9'
a> new hipparchus leader=0 deal=SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME
= game=g1
a> join g1 name=this-name-is-far-too-long-for-a-seat
? bad-option a name is 1-32 characters of A-Z a-z 0-9 _ . -
a> join g1 7
? syntax '7' is not a seat of g1 (0-1)
a> legal g1
? not-seated you hold no seat in g1
a> play g1 1S@1
? not-seated you hold no seat in g1
a> join g1 0 name=alice
= seat=0 token={token1}
a< * g1 1 joined seat=0 name=alice
a> join g1 1
? already-seated you hold seat 0 in g1
a> watch g1
? already-seated you hold seat 0 in g1
b> join g1 0
? seat-taken seat 0 of g1 is taken
a> legal g1
? not-started g1 waits for players
a> play g1 1S@1
? not-started g1 waits for players
a> resign g1
? not-started g1 waits for players
b> leave g1
? not-following you do not follow g1
b> unwatch g1
? not-following you do not watch g1
b> resume 0123456789abcdef0123456789abcdef
? bad-token no seat has this token
b> join g1
= seat=1 token={token2}
b< * g1 2 joined seat=1 name=player1
b< * g1 3 round-started round_number=1 leader=0 round_wins=0,0
b< * g1 3 hand round_number=1 seat=1 hand=EEESSSSMMMMEES
b< * g1 4 turn seat=0 lead=-
b< * g1 5 to-move seats=0
a< * g1 2 joined seat=1 name=player1
a< * g1 3 round-started round_number=1 leader=0 round_wins=0,0
a< * g1 3 hand round_number=1 seat=0 hand=SMSMSMSMSMEEEE
a< * g1 4 turn seat=0 lead=-
a< * g1 5 to-move seats=0
b> play g1 1E@1
? not-your-turn it is not your turn
a> play g1 2S@1
? illegal-move a clump of 1 is played whole
a> play g1 1M@1
? illegal-move '1M@1': card 1 of your hand is Sun, not Moon
a> play g1 1S@99
? illegal-move '1S@99': position 99 is outside your hand of 14 cards
a> play g1 lots
? illegal-move 'lots': a play starts with how many cards, 1, 2 or 3 (2E@5 plays two Earths from the clump that holds your 5th card)
a> record g1
? game-not-over g1 is not over
a> 5 resign g1
=5
a< * g1 6 match-over winner=1 round_wins=0,0 resigned=0
a< * g1 7 game-over winners=1 scores=0,0 resigned=0
b< * g1 6 match-over winner=1 round_wins=0,0 resigned=0
b< * g1 7 game-over winners=1 scores=0,0 resigned=0
a> play g1 1S@1
? game-over g1 is over
b> resign g1
? game-over g1 is over
# In JSON mode a failure is one object with its code and message.
b> format json
= {"format": "json"}
b> 6 play g1 1E@1
?6 {"code": "game-over", "message": "g1 is over"}
