# Timed games and absent seats (PROTOCOL.md section 10). A clock in `new`, shown in `games` and
# `state`; `to-move` with the time each seat to move has left; `time_left`; a flag; an abort; an
# absent seat announced and claimed. Only times a clock has run vary, hence their placeholders.
a> new hipparchus leader=0 deal=SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME clock=5m+3s
= game=g1
a> new hipparchus clock=5
? bad-option bad clock '5': '5' is not a duration (a number and s, m, h or d, e.g. 30s, 5m, 0.5s)
a> new hipparchus clock=5m timeout=lose
? bad-option timeout must be resign or autoplay, not 'lose'
a> games
= game=g1 kind=hipparchus status=waiting players=-,- fixed_deal=true clock=5m+3s
a> join g1 name=alice
= seat=0 token={token1}
a< * g1 1 joined seat=0 name=alice
b> join g1 name=bob
= seat=1 token={token2}
b< * g1 2 joined seat=1 name=bob
b< * g1 3 round-started round_number=1 leader=0 round_wins=0,0
b< * g1 3 hand round_number=1 seat=1 hand=EEESSSSMMMMEES
b< * g1 4 turn seat=0 lead=-
b< * g1 5 to-move seats=0 left_ms=300000
a< * g1 2 joined seat=1 name=bob
a< * g1 3 round-started round_number=1 leader=0 round_wins=0,0
a< * g1 3 hand round_number=1 seat=0 hand=SMSMSMSMSMEEEE
a< * g1 4 turn seat=0 lead=-
a< * g1 5 to-move seats=0 left_ms=300000
a> play g1 1S@1
= 1S@1
a< * g1 6 played seat=0 play=1S hand_size=13
a< * g1 7 turn seat=1 lead=1S
a< * g1 8 to-move seats=1 left_ms=300000
b< * g1 6 played seat=0 play=1S hand_size=13
b< * g1 7 turn seat=1 lead=1S
b< * g1 8 to-move seats=1 left_ms=300000
# The time each seat has left, its bank and its lag allowance: seat 1's clock runs.
a> time_left g1
= game=g1
control=5m+3s
running=1
left_ms={bank0},{left1}
bank_ms={bank0},300000
lag_ms=1000,1000
b> state g1
= game=g1
kind=hipparchus
status=playing
seq=8
players=alice,bob
view.seat=1
view.hand=EEESSSSMMMMEES
view.hand_sizes=13,14
view.won=0,0,0/0,0,0
view.set_aside=0,0,0
view.leader=0
view.lead=1S
view.tricks=-
view.to_move=1
view.round_number=1
view.round_wins=0,0
view.result=-
view.revealed=-
view.winner=-
view.resigned=-
view.fixed_deal=true
presence=here,here
clock.control=5m+3s
clock.timeout=resign
clock.absence_ms=60000
clock.first_move_ms=30000
clock.running=1
clock.left_ms={bank0},{left2}
clock.bank_ms={bank0},300000
clock.lag_ms=1000,1000
# Seat 1 takes the trick and leads: its clock runs on from its bank, its increment added.
b> format json
= {"format": "json"}
b> play g1 2S@4
= {"game": "g1", "move": "2S@4"}
b< * {"game": "g1", "seq": 9, "kind": "played", "data": {"seat": 1, "play": "2S", "hand_size": 12}}
b< * {"game": "g1", "seq": 10, "kind": "trick", "data": {"number": 1, "trick": {"leader": 0, "lead": "1S", "follow": "2S", "winner": 1}, "won": [[0, 0, 0], [3, 0, 0]]}}
b< * {"game": "g1", "seq": 11, "kind": "turn", "data": {"seat": 1, "lead": null}}
b< * {"game": "g1", "seq": 12, "kind": "to-move", "data": {"seats": [1], "left_ms": [{left3}]}}
a< * g1 9 played seat=1 play=2S hand_size=12
a< * g1 10 trick number=1 trick.leader=0 trick.lead=1S trick.follow=2S trick.winner=1 won=0,0,0/3,0,0
a< * g1 11 turn seat=1 lead=-
a< * g1 12 to-move seats=1 left_ms={left3}
# Seat 1's bank is what its to-move said it had; its clock has run since.
b> time_left g1
= {"game": "g1", "control": "5m+3s", "running": [1], "left_ms": [{bank0}, {left4}], "bank_ms": [{bank0}, {left3}], "lag_ms": [1000, 1000]}
b> resign g1
= {}
b< * {"game": "g1", "seq": 13, "kind": "match-over", "data": {"winner": 0, "round_wins": [0, 0], "resigned": 1}}
b< * {"game": "g1", "seq": 14, "kind": "game-over", "data": {"winners": [0], "scores": [0, 0], "resigned": 1}}
a< * g1 13 match-over winner=0 round_wins=0,0 resigned=1
a< * g1 14 game-over winners=0 scores=0,0 resigned=1
# A flag (T2, T3): a bank of 0.2 s and no first-move limit; seat 0 never moves. After its bank
# and its second of lag allowance, it loses the match as a resignation.
a> new hipparchus leader=0 deal=SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME clock=0.2s first_move=off
= game=g2
a> join g2 name=alice
= seat=0 token={token3}
a< * g2 1 joined seat=0 name=alice
c> join g2 name=carol
= seat=1 token={token4}
c< * g2 2 joined seat=1 name=carol
c< * g2 3 round-started round_number=1 leader=0 round_wins=0,0
c< * g2 3 hand round_number=1 seat=1 hand=EEESSSSMMMMEES
c< * g2 4 turn seat=0 lead=-
c< * g2 5 to-move seats=0 left_ms=200
a< * g2 2 joined seat=1 name=carol
a< * g2 3 round-started round_number=1 leader=0 round_wins=0,0
a< * g2 3 hand round_number=1 seat=0 hand=SMSMSMSMSMEEEE
a< * g2 4 turn seat=0 lead=-
a< * g2 5 to-move seats=0 left_ms=200
c< * g2 6 match-over winner=1 round_wins=0,0 resigned=0
c< * g2 7 game-over winners=1 scores=0,0 resigned=0 timeout=0
a< * g2 6 match-over winner=1 round_wins=0,0 resigned=0
a< * g2 7 game-over winners=1 scores=0,0 resigned=0 timeout=0
# An abort (T5): seat 0 does not make its first decision within 0.5 s.
a> new hipparchus leader=0 deal=SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME clock=1m first_move=0.5s
= game=g3
a> join g3 name=alice
= seat=0 token={token5}
a< * g3 1 joined seat=0 name=alice
c> join g3 name=carol
= seat=1 token={token6}
c< * g3 2 joined seat=1 name=carol
c< * g3 3 round-started round_number=1 leader=0 round_wins=0,0
c< * g3 3 hand round_number=1 seat=1 hand=EEESSSSMMMMEES
c< * g3 4 turn seat=0 lead=-
c< * g3 5 to-move seats=0 left_ms=60000
a< * g3 2 joined seat=1 name=carol
a< * g3 3 round-started round_number=1 leader=0 round_wins=0,0
a< * g3 3 hand round_number=1 seat=0 hand=SMSMSMSMSMEEEE
a< * g3 4 turn seat=0 lead=-
a< * g3 5 to-move seats=0 left_ms=60000
a< * g3 6 game-over winners=- scores=- resigned=- aborted=true
c< * g3 6 game-over winners=- scores=- resigned=- aborted=true
# An absent seat (T4), untimed: carol's connection drops; after the absence grace of 0.3 s
# everyone is told, and alice claims the match.
a> new hipparchus leader=0 deal=SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME absence=0.3s
= game=g4
a> join g4 name=alice
= seat=0 token={token7}
a< * g4 1 joined seat=0 name=alice
d> join g4 name=dora
= seat=1 token={token8}
d< * g4 2 joined seat=1 name=dora
d< * g4 3 round-started round_number=1 leader=0 round_wins=0,0
d< * g4 3 hand round_number=1 seat=1 hand=EEESSSSMMMMEES
d< * g4 4 turn seat=0 lead=-
d< * g4 5 to-move seats=0
a< * g4 2 joined seat=1 name=dora
a< * g4 3 round-started round_number=1 leader=0 round_wins=0,0
a< * g4 3 hand round_number=1 seat=0 hand=SMSMSMSMSMEEEE
a< * g4 4 turn seat=0 lead=-
a< * g4 5 to-move seats=0
a> claim g4
? illegal-move nothing to claim: no seat is away
d!
a< * g4 6 disconnected seat=1
a< * g4 7 absent seat=1
a> state g4
= game=g4
kind=hipparchus
status=playing
seq=7
players=alice,dora
view.seat=0
view.hand=SMSMSMSMSMEEEE
view.hand_sizes=14,14
view.won=0,0,0/0,0,0
view.set_aside=0,0,0
view.leader=0
view.lead=-
view.tricks=-
view.to_move=0
view.round_number=1
view.round_wins=0,0
view.result=-
view.revealed=-
view.winner=-
view.resigned=-
view.fixed_deal=true
presence=here,absent
a> format json
= {"format": "json"}
a> claim g4
= {"game": "g4", "resigned": 1}
a< * {"game": "g4", "seq": 8, "kind": "match-over", "data": {"winner": 0, "round_wins": [0, 0], "resigned": 1}}
a< * {"game": "g4", "seq": 9, "kind": "game-over", "data": {"winners": [0], "scores": [0, 0], "resigned": 1, "claimed": true}}
# planets (JSON): every clock runs during the pass (T1); the seat whose time runs out is passed
# for by the server (T2), recorded as a timeout, and the game goes on with its increment.
e> format json
= {"format": "json"}
f> format json
= {"format": "json"}
g> format json
= {"format": "json"}
e> new planets players=3 seed=11 dealer=0 clock=2s+1s first_move=off
= {"game": "g5"}
e> join g5
= {"game": "g5", "seat": 0, "token": "{token9}"}
e< * {"game": "g5", "seq": 1, "kind": "joined", "data": {"seat": 0, "name": "player0"}}
f> join g5
= {"game": "g5", "seat": 1, "token": "{token10}"}
f< * {"game": "g5", "seq": 2, "kind": "joined", "data": {"seat": 1, "name": "player1"}}
e< * {"game": "g5", "seq": 2, "kind": "joined", "data": {"seat": 1, "name": "player1"}}
g> join g5
= {"game": "g5", "seat": 2, "token": "{token11}"}
g< * {"game": "g5", "seq": 3, "kind": "joined", "data": {"seat": 2, "name": "player2"}}
g< * {"game": "g5", "seq": 4, "kind": "hand-started", "data": {"hand_number": 1, "dealer": 0, "pass_name": "left", "pass_count": 4, "hand_sizes": [18, 18, 18]}}
g< * {"game": "g5", "seq": 4, "kind": "hand", "data": {"hand_number": 1, "seat": 2, "hand": ["E4", "J1", "J3", "J4", "J5", "J7", "M1", "M4", "N1", "N2", "N7", "NS", "S2", "S4", "SS", "V6", "V7", "VS"]}}
g< * {"game": "g5", "seq": 5, "kind": "to-move", "data": {"seats": [0, 1, 2], "left_ms": [2000, 2000, 2000]}}
e< * {"game": "g5", "seq": 3, "kind": "joined", "data": {"seat": 2, "name": "player2"}}
e< * {"game": "g5", "seq": 4, "kind": "hand-started", "data": {"hand_number": 1, "dealer": 0, "pass_name": "left", "pass_count": 4, "hand_sizes": [18, 18, 18]}}
e< * {"game": "g5", "seq": 4, "kind": "hand", "data": {"hand_number": 1, "seat": 0, "hand": ["E3", "E5", "E6", "J6", "JM", "JS", "M6", "MS", "N3", "N6", "NM", "S1", "S6", "S7", "SM", "V1", "V2", "V3"]}}
e< * {"game": "g5", "seq": 5, "kind": "to-move", "data": {"seats": [0, 1, 2], "left_ms": [2000, 2000, 2000]}}
f< * {"game": "g5", "seq": 3, "kind": "joined", "data": {"seat": 2, "name": "player2"}}
f< * {"game": "g5", "seq": 4, "kind": "hand-started", "data": {"hand_number": 1, "dealer": 0, "pass_name": "left", "pass_count": 4, "hand_sizes": [18, 18, 18]}}
f< * {"game": "g5", "seq": 4, "kind": "hand", "data": {"hand_number": 1, "seat": 1, "hand": ["E1", "E2", "E7", "EM", "ES", "J2", "M2", "M3", "M5", "M7", "MM", "N4", "N5", "S3", "S5", "V4", "V5", "VM"]}}
f< * {"game": "g5", "seq": 5, "kind": "to-move", "data": {"seats": [0, 1, 2], "left_ms": [2000, 2000, 2000]}}
e> play g5 JS,JM,MS,SM
= {"game": "g5", "move": "JM,JS,MS,SM"}
e< * {"game": "g5", "seq": 6, "kind": "passed", "data": {"seat": 0}}
e< * {"game": "g5", "seq": 7, "kind": "to-move", "data": {"seats": [1, 2], "left_ms": [{pass1}, {pass1}]}}
f< * {"game": "g5", "seq": 6, "kind": "passed", "data": {"seat": 0}}
f< * {"game": "g5", "seq": 7, "kind": "to-move", "data": {"seats": [1, 2], "left_ms": [{pass1}, {pass1}]}}
g< * {"game": "g5", "seq": 6, "kind": "passed", "data": {"seat": 0}}
g< * {"game": "g5", "seq": 7, "kind": "to-move", "data": {"seats": [1, 2], "left_ms": [{pass1}, {pass1}]}}
f> play g5 MM,M7,ES,EM
= {"game": "g5", "move": "EM,ES,M7,MM"}
f< * {"game": "g5", "seq": 8, "kind": "passed", "data": {"seat": 1}}
f< * {"game": "g5", "seq": 9, "kind": "to-move", "data": {"seats": [2], "left_ms": [{pass2}]}}
e< * {"game": "g5", "seq": 8, "kind": "passed", "data": {"seat": 1}}
e< * {"game": "g5", "seq": 9, "kind": "to-move", "data": {"seats": [2], "left_ms": [{pass2}]}}
g< * {"game": "g5", "seq": 8, "kind": "passed", "data": {"seat": 1}}
g< * {"game": "g5", "seq": 9, "kind": "to-move", "data": {"seats": [2], "left_ms": [{pass2}]}}
# Seat 2 never passes: after its 2 s and its second of lag allowance, the server passes for it
# (the engine's heuristic, from seat 2's view alone), and each seat gets what it received.
g< * {"game": "g5", "seq": 10, "kind": "passed", "data": {"seat": 2}}
g< * {"game": "g5", "seq": 10, "kind": "received", "data": {"hand_number": 1, "seat": 2, "cards": ["EM", "ES", "M7", "MM"], "from_seats": [1, 1, 1, 1]}}
g< * {"game": "g5", "seq": 11, "kind": "to-move", "data": {"seats": [0], "left_ms": [{bank5}]}}
e< * {"game": "g5", "seq": 10, "kind": "passed", "data": {"seat": 2}}
e< * {"game": "g5", "seq": 10, "kind": "received", "data": {"hand_number": 1, "seat": 0, "cards": ["J7", "N7", "SS", "VS"], "from_seats": [2, 2, 2, 2]}}
e< * {"game": "g5", "seq": 11, "kind": "to-move", "data": {"seats": [0], "left_ms": [{bank5}]}}
f< * {"game": "g5", "seq": 10, "kind": "passed", "data": {"seat": 2}}
f< * {"game": "g5", "seq": 10, "kind": "received", "data": {"hand_number": 1, "seat": 1, "cards": ["JM", "JS", "MS", "SM"], "from_seats": [0, 0, 0, 0]}}
f< * {"game": "g5", "seq": 11, "kind": "to-move", "data": {"seats": [0], "left_ms": [{bank5}]}}
# Seat 2's bank is spent: it has its 1 s increment for its next decision, and no lag allowance.
g> time_left g5
= {"game": "g5", "control": "2s+1s", "running": [0], "left_ms": [{left6}, {bank6}, 1000], "bank_ms": [{bank5}, {bank6}, 1000], "lag_ms": [1000, 1000, 0]}
e> resign g5
= {}
e< * {"game": "g5", "seq": 12, "kind": "game-over", "data": {"winners": [1, 2], "scores": [0, 0, 0], "resigned": 0}}
f< * {"game": "g5", "seq": 12, "kind": "game-over", "data": {"winners": [1, 2], "scores": [0, 0, 0], "resigned": 0}}
g< * {"game": "g5", "seq": 12, "kind": "game-over", "data": {"winners": [1, 2], "scores": [0, 0, 0], "resigned": 0}}
