# planets in text mode (protocol/games/planets.md): three seats (a, b, c) and a spectator (w).
# The first deal is fixed: seat 0 holds all of Venus and Earth, seat 1 all of Jupiter and Mars,
# seat 2 all of Neptune and Saturn; seat 2 deals. Hand 1 passes four cards to the left.
a> new planets players=3 dealer=2 deal=V1,V2,V3,V4,V5,V6,V7,VM,VS,E1,E2,E3,E4,E5,E6,E7,EM,ES/J1,J2,J3,J4,J5,J6,J7,JM,JS,M1,M2,M3,M4,M5,M6,M7,MM,MS/N1,N2,N3,N4,N5,N6,N7,NM,NS,S1,S2,S3,S4,S5,S6,S7,SM,SS
= game=g1
a> games
= game=g1 kind=planets status=waiting players=-,-,- fixed_deal=true
w> watch g1
= game=g1
kind=planets
status=waiting
seq=0
players=-,-,-
view=-
a> join g1 name=ann
= seat=0 token={token1}
a< * g1 1 joined seat=0 name=ann
w< * g1 1 joined seat=0 name=ann
b> join g1 name=bob
= seat=1 token={token2}
b< * g1 2 joined seat=1 name=bob
a< * g1 2 joined seat=1 name=bob
w< * g1 2 joined seat=1 name=bob
c> join g1 name=cat
= seat=2 token={token3}
c< * g1 3 joined seat=2 name=cat
c< * g1 4 hand-started hand_number=1 dealer=2 pass_name=left pass_count=4 hand_sizes=18,18,18
c< * g1 4 hand hand_number=1 seat=2 hand=N1,N2,N3,N4,N5,N6,N7,NM,NS,S1,S2,S3,S4,S5,S6,S7,SM,SS
c< * g1 5 to-move seats=0,1,2
a< * g1 3 joined seat=2 name=cat
a< * g1 4 hand-started hand_number=1 dealer=2 pass_name=left pass_count=4 hand_sizes=18,18,18
a< * g1 4 hand hand_number=1 seat=0 hand=E1,E2,E3,E4,E5,E6,E7,EM,ES,V1,V2,V3,V4,V5,V6,V7,VM,VS
a< * g1 5 to-move seats=0,1,2
b< * g1 3 joined seat=2 name=cat
b< * g1 4 hand-started hand_number=1 dealer=2 pass_name=left pass_count=4 hand_sizes=18,18,18
b< * g1 4 hand hand_number=1 seat=1 hand=J1,J2,J3,J4,J5,J6,J7,JM,JS,M1,M2,M3,M4,M5,M6,M7,MM,MS
b< * g1 5 to-move seats=0,1,2
w< * g1 3 joined seat=2 name=cat
w< * g1 4 hand-started hand_number=1 dealer=2 pass_name=left pass_count=4 hand_sizes=18,18,18
w< * g1 5 to-move seats=0,1,2
# The pass: every seat moves at once. legal describes the choice (pick 4 of the hand, each
# to seat 1) instead of listing combinations; a spectator has no moves.
a> legal g1
= pick 4 E1 E2 E3 E4 E5 E6 E7 EM ES V1 V2 V3 V4 V5 V6 V7 VM VS to=1,1,1,1
w> legal g1
? not-seated you hold no seat in g1
# bob passes first, in lower case and any order; the answer is canonical. A second pass is
# refused. Everyone hears that bob has passed, never what.
b> play g1 m4,m3,m2,m1
= M1,M2,M3,M4
b< * g1 6 passed seat=1
b< * g1 7 to-move seats=0,2
a< * g1 6 passed seat=1
a< * g1 7 to-move seats=0,2
c< * g1 6 passed seat=1
c< * g1 7 to-move seats=0,2
w< * g1 6 passed seat=1
w< * g1 7 to-move seats=0,2
b> play g1 M5,M6,M7,MM
? not-your-turn you have already passed this hand
a> state g1
= game=g1
kind=planets
status=playing
seq=7
players=ann,bob,cat
view.seat=0
view.hand=E1,E2,E3,E4,E5,E6,E7,EM,ES,V1,V2,V3,V4,V5,V6,V7,VM,VS
view.hand_sizes=18,18,18
view.phase=pass
view.passed=1
view.pass_name=left
view.pass_count=4
view.my_pass=-
view.received=-
view.trick=-
view.tricks=-
view.points_taken=0,0,0
view.totals=0,0,0
view.jupiter_broken=false
view.dealer=2
view.hand_number=1
view.to_move=0,2
view.shoot_pending=-
view.winners=-
view.resigned=-
view.fixed_deal=true
view.exact100=false
presence=here,here,here
w> state g1
= game=g1
kind=planets
status=playing
seq=7
players=ann,bob,cat
view.seat=-
view.hand=-
view.hand_sizes=18,18,18
view.phase=pass
view.passed=1
view.pass_name=left
view.pass_count=4
view.my_pass=-
view.received=-
view.trick=-
view.tricks=-
view.points_taken=0,0,0
view.totals=0,0,0
view.jupiter_broken=false
view.dealer=2
view.hand_number=1
view.to_move=0,2
view.shoot_pending=-
view.winners=-
view.resigned=-
view.fixed_deal=true
view.exact100=false
presence=here,here,here
b> state g1
= game=g1
kind=planets
status=playing
seq=7
players=ann,bob,cat
view.seat=1
view.hand=J1,J2,J3,J4,J5,J6,J7,JM,JS,M1,M2,M3,M4,M5,M6,M7,MM,MS
view.hand_sizes=18,18,18
view.phase=pass
view.passed=1
view.pass_name=left
view.pass_count=4
view.my_pass=M1,M2,M3,M4
view.received=-
view.trick=-
view.tricks=-
view.points_taken=0,0,0
view.totals=0,0,0
view.jupiter_broken=false
view.dealer=2
view.hand_number=1
view.to_move=0,2
view.shoot_pending=-
view.winners=-
view.resigned=-
view.fixed_deal=true
view.exact100=false
presence=here,here,here
# Refusals say why and change nothing.
a> play g1 E1,E2,E3
? illegal-move pass exactly 4 cards, in one word, their names joined by commas
a> play g1 E1,E2,E3,J1
? illegal-move you do not hold J1
a> play g1 E1,E1,E2,E3
? illegal-move E1 is named twice
a> play g1 self
? illegal-move no shooting choice is pending
a> play g1 E1,E2,E3,E4
= E1,E2,E3,E4
a< * g1 8 passed seat=0
a< * g1 9 to-move seats=2
b< * g1 8 passed seat=0
b< * g1 9 to-move seats=2
c< * g1 8 passed seat=0
c< * g1 9 to-move seats=2
w< * g1 8 passed seat=0
w< * g1 9 to-move seats=2
c> play g1 S1,S2,S3,S4
= S1,S2,S3,S4
c< * g1 10 passed seat=2
c< * g1 10 received hand_number=1 seat=2 cards=M1,M2,M3,M4 from_seats=1,1,1,1
c< * g1 11 to-move seats=0
a< * g1 10 passed seat=2
a< * g1 10 received hand_number=1 seat=0 cards=S1,S2,S3,S4 from_seats=2,2,2,2
a< * g1 11 to-move seats=0
b< * g1 10 passed seat=2
b< * g1 10 received hand_number=1 seat=1 cards=E1,E2,E3,E4 from_seats=0,0,0,0
b< * g1 11 to-move seats=0
w< * g1 10 passed seat=2
w< * g1 11 to-move seats=0
# Every seat has passed: each privately received its cards. ann holds Venus 1 and leads it.
b> legal g1
=
a> legal g1
= V1
a> play g1 VS
? illegal-move V1 leads the first trick
b> play g1 E1
? not-your-turn it is not your turn
a> play g1 V1
= V1
a< * g1 12 played seat=0 card=V1 trick_number=1
a< * g1 13 to-move seats=1
b< * g1 12 played seat=0 card=V1 trick_number=1
b< * g1 13 to-move seats=1
c< * g1 12 played seat=0 card=V1 trick_number=1
c< * g1 13 to-move seats=1
w< * g1 12 played seat=0 card=V1 trick_number=1
w< * g1 13 to-move seats=1
b> play g1 E1
= E1
b< * g1 14 played seat=1 card=E1 trick_number=1
b< * g1 15 to-move seats=2
a< * g1 14 played seat=1 card=E1 trick_number=1
a< * g1 15 to-move seats=2
c< * g1 14 played seat=1 card=E1 trick_number=1
c< * g1 15 to-move seats=2
w< * g1 14 played seat=1 card=E1 trick_number=1
w< * g1 15 to-move seats=2
c> play g1 M1
= M1
c< * g1 16 played seat=2 card=M1 trick_number=1
c< * g1 17 trick number=1 leader=0 cards=V1,E1,M1 winner=0 points=0 jupiter_broken=false
c< * g1 18 to-move seats=0
a< * g1 16 played seat=2 card=M1 trick_number=1
a< * g1 17 trick number=1 leader=0 cards=V1,E1,M1 winner=0 points=0 jupiter_broken=false
a< * g1 18 to-move seats=0
b< * g1 16 played seat=2 card=M1 trick_number=1
b< * g1 17 trick number=1 leader=0 cards=V1,E1,M1 winner=0 points=0 jupiter_broken=false
b< * g1 18 to-move seats=0
w< * g1 16 played seat=2 card=M1 trick_number=1
w< * g1 17 trick number=1 leader=0 cards=V1,E1,M1 winner=0 points=0 jupiter_broken=false
w< * g1 18 to-move seats=0
# Trick 2: bob must follow Earth; cat has none and throws Neptune 7 (7 points) to ann.
a> play g1 E5
= E5
a< * g1 19 played seat=0 card=E5 trick_number=2
a< * g1 20 to-move seats=1
b< * g1 19 played seat=0 card=E5 trick_number=2
b< * g1 20 to-move seats=1
c< * g1 19 played seat=0 card=E5 trick_number=2
c< * g1 20 to-move seats=1
w< * g1 19 played seat=0 card=E5 trick_number=2
w< * g1 20 to-move seats=1
b> play g1 J1
? illegal-move you must follow Earth
b> play g1 E2
= E2
b< * g1 21 played seat=1 card=E2 trick_number=2
b< * g1 22 to-move seats=2
a< * g1 21 played seat=1 card=E2 trick_number=2
a< * g1 22 to-move seats=2
c< * g1 21 played seat=1 card=E2 trick_number=2
c< * g1 22 to-move seats=2
w< * g1 21 played seat=1 card=E2 trick_number=2
w< * g1 22 to-move seats=2
c> play g1 N7
= N7
c< * g1 23 played seat=2 card=N7 trick_number=2
c< * g1 24 trick number=2 leader=0 cards=E5,E2,N7 winner=0 points=7 jupiter_broken=false
c< * g1 25 to-move seats=0
a< * g1 23 played seat=2 card=N7 trick_number=2
a< * g1 24 trick number=2 leader=0 cards=E5,E2,N7 winner=0 points=7 jupiter_broken=false
a< * g1 25 to-move seats=0
b< * g1 23 played seat=2 card=N7 trick_number=2
b< * g1 24 trick number=2 leader=0 cards=E5,E2,N7 winner=0 points=7 jupiter_broken=false
b< * g1 25 to-move seats=0
w< * g1 23 played seat=2 card=N7 trick_number=2
w< * g1 24 trick number=2 leader=0 cards=E5,E2,N7 winner=0 points=7 jupiter_broken=false
w< * g1 25 to-move seats=0
w> state g1
= game=g1
kind=planets
status=playing
seq=25
players=ann,bob,cat
view.seat=-
view.hand=-
view.hand_sizes=16,16,16
view.phase=play
view.passed=0,1,2
view.pass_name=left
view.pass_count=4
view.my_pass=-
view.received=-
view.trick.leader=0
view.trick.cards=-
view.tricks.1.number=1
view.tricks.1.leader=0
view.tricks.1.cards=V1,E1,M1
view.tricks.1.winner=0
view.tricks.1.points=0
view.tricks.2.number=2
view.tricks.2.leader=0
view.tricks.2.cards=E5,E2,N7
view.tricks.2.winner=0
view.tricks.2.points=7
view.points_taken=7,0,0
view.totals=0,0,0
view.jupiter_broken=false
view.dealer=2
view.hand_number=1
view.to_move=0
view.shoot_pending=-
view.winners=-
view.resigned=-
view.fixed_deal=true
view.exact100=false
presence=here,here,here
# cat resigns (RULINGS P16): ranked last; of the others the lowest totals (0 and 0) share the win.
c> resign g1
=
c< * g1 26 game-over winners=0,1 scores=0,0,0 resigned=2
a< * g1 26 game-over winners=0,1 scores=0,0,0 resigned=2
b< * g1 26 game-over winners=0,1 scores=0,0,0 resigned=2
w< * g1 26 game-over winners=0,1 scores=0,0,0 resigned=2
w> record g1
= game=g1
kind=planets
options.players=3
options.dealer=2
options.deal=V1,V2,V3,V4,V5,V6,V7,VM,VS,E1,E2,E3,E4,E5,E6,E7,EM,ES/J1,J2,J3,J4,J5,J6,J7,JM,JS,M1,M2,M3,M4,M5,M6,M7,MM,MS/N1,N2,N3,N4,N5,N6,N7,NM,NS,S1,S2,S3,S4,S5,S6,S7,SM,SS
players=ann,bob,cat
record.players=3
record.galaxies=false
record.exact100=false
record.cut=-
record.first_dealer=2
record.hands.1.deal=E1,E2,E3,E4,E5,E6,E7,EM,ES,V1,V2,V3,V4,V5,V6,V7,VM,VS/J1,J2,J3,J4,J5,J6,J7,JM,JS,M1,M2,M3,M4,M5,M6,M7,MM,MS/N1,N2,N3,N4,N5,N6,N7,NM,NS,S1,S2,S3,S4,S5,S6,S7,SM,SS
record.hands.1.passes=E1,E2,E3,E4/M1,M2,M3,M4/S1,S2,S3,S4
record.hands.1.plays=V1,E1,M1,E5,E2,N7
record.hands.1.choice=-
record.resigned=2
record.winners=0,1
record.totals=0,0,0
record.fixed_deal=true
a> quit
=
