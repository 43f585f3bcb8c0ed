# Seats before and after the start. Before the start, leave frees the seat ("left"). After it,
# a dropped or leaving seat is reserved for its token ("disconnected"); resume, from any
# connection, answers a snapshot of the seat's view, then events follow with the next seq.
w> watch g1
? unknown-game no game 'g1'
a> new hipparchus leader=0 deal=SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME
= game=g1
w> watch g1
= game=g1
kind=hipparchus
status=waiting
seq=0
players=-,-
view=-
b> join g1 1 name=bob
= seat=1 token={token1}
b< * g1 1 joined seat=1 name=bob
w< * g1 1 joined seat=1 name=bob
b> leave g1
=
w< * g1 2 left seat=1
a> join g1 name=alice
= seat=0 token={token2}
a< * g1 3 joined seat=0 name=alice
w< * g1 3 joined seat=0 name=alice
c> join g1 name=carol
= seat=1 token={token3}
c< * g1 4 joined seat=1 name=carol
c< * g1 5 round-started round_number=1 leader=0 round_wins=0,0
c< * g1 5 hand round_number=1 seat=1 hand=EEESSSSMMMMEES
c< * g1 6 turn seat=0 lead=-
c< * g1 7 to-move seats=0
a< * g1 4 joined seat=1 name=carol
a< * g1 5 round-started round_number=1 leader=0 round_wins=0,0
a< * g1 5 hand round_number=1 seat=0 hand=SMSMSMSMSMEEEE
a< * g1 6 turn seat=0 lead=-
a< * g1 7 to-move seats=0
w< * g1 4 joined seat=1 name=carol
w< * g1 5 round-started round_number=1 leader=0 round_wins=0,0
w< * g1 6 turn seat=0 lead=-
w< * g1 7 to-move seats=0
# Bob's token died with his seat.
b> resume {token1}
? bad-token no seat has this token
a> play g1 1S@1
= 1S@1
a< * g1 8 played seat=0 play=1S hand_size=13
a< * g1 9 turn seat=1 lead=1S
a< * g1 10 to-move seats=1
c< * g1 8 played seat=0 play=1S hand_size=13
c< * g1 9 turn seat=1 lead=1S
c< * g1 10 to-move seats=1
w< * g1 8 played seat=0 play=1S hand_size=13
w< * g1 9 turn seat=1 lead=1S
w< * g1 10 to-move seats=1
# Carol's connection drops in the middle of the trick; the seat waits for her token.
c!
a< * g1 11 disconnected seat=1
w< * g1 11 disconnected seat=1
a> play g1 1E@11
? not-your-turn it is not your turn
d> format json
= {"format": "json"}
d> resume {token3}
= {"game": "g1", "kind": "hipparchus", "status": "playing", "seq": 12, "players": ["alice", "carol"], "view": {"seat": 1, "hand": "EEESSSSMMMMEES", "hand_sizes": [13, 14], "won": [[0, 0, 0], [0, 0, 0]], "set_aside": [0, 0, 0], "leader": 0, "lead": "1S", "tricks": [], "to_move": 1, "round_number": 1, "round_wins": [0, 0], "result": null, "revealed": null, "winner": null, "resigned": null, "fixed_deal": true}, "presence": ["here", "here"]}
a< * g1 12 resumed seat=1
w< * g1 12 resumed seat=1
d> legal g1
= {"game": "g1", "moves": [{"move": "2S@4", "suit": "S", "count": 2, "position": 4, "clump": [4, 5, 6, 7]}, {"move": "3S@4", "suit": "S", "count": 3, "position": 4, "clump": [4, 5, 6, 7]}]}
d> play g1 2S@5
= {"game": "g1", "move": "2S@4"}
d< * {"game": "g1", "seq": 13, "kind": "played", "data": {"seat": 1, "play": "2S", "hand_size": 12}}
d< * {"game": "g1", "seq": 14, "kind": "trick", "data": {"number": 1, "trick": {"leader": 0, "lead": "1S", "follow": "2S", "winner": 1}, "won": [[0, 0, 0], [3, 0, 0]]}}
d< * {"game": "g1", "seq": 15, "kind": "turn", "data": {"seat": 1, "lead": null}}
d< * {"game": "g1", "seq": 16, "kind": "to-move", "data": {"seats": [1]}}
a< * g1 13 played seat=1 play=2S hand_size=12
a< * g1 14 trick number=1 trick.leader=0 trick.lead=1S trick.follow=2S trick.winner=1 won=0,0,0/3,0,0
a< * g1 15 turn seat=1 lead=-
a< * g1 16 to-move seats=1
w< * g1 13 played seat=1 play=2S hand_size=12
w< * g1 14 trick number=1 trick.leader=0 trick.lead=1S trick.follow=2S trick.winner=1 won=0,0,0/3,0,0
w< * g1 15 turn seat=1 lead=-
w< * g1 16 to-move seats=1
a> state g1
= game=g1
kind=hipparchus
status=playing
seq=16
players=alice,carol
view.seat=0
view.hand=MSMSMSMSMEEEE
view.hand_sizes=13,12
view.won=0,0,0/3,0,0
view.set_aside=0,0,0
view.leader=1
view.lead=-
view.tricks.1.leader=0
view.tricks.1.lead=1S
view.tricks.1.follow=2S
view.tricks.1.winner=1
view.to_move=1
view.round_number=1
view.round_wins=0,0
view.result=-
view.revealed=-
view.winner=-
view.resigned=-
view.fixed_deal=true
presence=here,here
