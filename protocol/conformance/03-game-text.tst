# A game in text mode: alice (a) and bob (b) play a trick while w watches; then bob resigns.
# The first round's deal is fixed: seat 0 holds SMSMSMSMSMEEEE, seat 1 EEESSSSMMMMEES, and the
# face-down cards are Moon, Earth. Seat 0 leads. Tokens vary: {token1} matches any token.
a> new hipparchus leader=0 deal=SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME
= game=g1
a> games
= game=g1 kind=hipparchus status=waiting players=-,- fixed_deal=true
w> watch g1
= game=g1
kind=hipparchus
status=waiting
seq=0
players=-,-
view=-
a> join g1 name=alice
= seat=0 token={token1}
a< * g1 1 joined seat=0 name=alice
w< * g1 1 joined seat=0 name=alice
a> state g1
= game=g1
kind=hipparchus
status=waiting
seq=1
players=alice,-
view=-
b> join g1 1 name=bob
= seat=1 token={token2}
b< * g1 2 joined seat=1 name=bob
b< * g1 3 round-started round_number=1 leader=0 round_wins=0,0
b< * g1 3 hand round_number=1 seat=1 hand=EEESSSSMMMMEES
b< * g1 4 turn seat=0 lead=-
b< * g1 5 to-move seats=0
a< * g1 2 joined seat=1 name=bob
a< * g1 3 round-started round_number=1 leader=0 round_wins=0,0
a< * g1 3 hand round_number=1 seat=0 hand=SMSMSMSMSMEEEE
a< * g1 4 turn seat=0 lead=-
a< * g1 5 to-move seats=0
w< * g1 2 joined seat=1 name=bob
w< * g1 3 round-started round_number=1 leader=0 round_wins=0,0
w< * g1 4 turn seat=0 lead=-
w< * g1 5 to-move seats=0
a> state g1
= game=g1
kind=hipparchus
status=playing
seq=5
players=alice,bob
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
presence=here,here
w> state g1
= game=g1
kind=hipparchus
status=playing
seq=5
players=alice,bob
view.seat=-
view.hand=-
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
presence=here,here
a> legal g1
= 1S@1 1M@2 1S@3 1M@4 1S@5 1M@6 1S@7 1M@8 1S@9 1M@10 1E@11 2E@11 3E@11
b> legal g1
=
# Any card of the clump may be named; the answer is canonical. The events show the play as
# count and suit only, for everyone: hand positions are private (RULINGS H13).
a> play g1 1M@2
= 1M@2
a< * g1 6 played seat=0 play=1M hand_size=13
a< * g1 7 turn seat=1 lead=1M
a< * g1 8 to-move seats=1
b< * g1 6 played seat=0 play=1M hand_size=13
b< * g1 7 turn seat=1 lead=1M
b< * g1 8 to-move seats=1
w< * g1 6 played seat=0 play=1M hand_size=13
w< * g1 7 turn seat=1 lead=1M
w< * g1 8 to-move seats=1
b> legal g1
= 2M@8 3M@8
b> play g1 3M@10
= 3M@8
b< * g1 9 played seat=1 play=3M hand_size=11
b< * g1 10 trick number=1 trick.leader=0 trick.lead=1M trick.follow=3M trick.winner=1 won=0,0,0/0,4,0
b< * g1 11 turn seat=1 lead=-
b< * g1 12 to-move seats=1
a< * g1 9 played seat=1 play=3M hand_size=11
a< * g1 10 trick number=1 trick.leader=0 trick.lead=1M trick.follow=3M trick.winner=1 won=0,0,0/0,4,0
a< * g1 11 turn seat=1 lead=-
a< * g1 12 to-move seats=1
w< * g1 9 played seat=1 play=3M hand_size=11
w< * g1 10 trick number=1 trick.leader=0 trick.lead=1M trick.follow=3M trick.winner=1 won=0,0,0/0,4,0
w< * g1 11 turn seat=1 lead=-
w< * g1 12 to-move seats=1
# Bob won the trick (three Moons beat one, RULINGS H7) and leads; alice need not move.
a> legal g1
=
b> legal g1
= 3E@1 1S@4 2S@4 3S@4 1M@8 2E@9 1S@11
b> play g1 3E@1
= 3E@1
b< * g1 13 played seat=1 play=3E hand_size=8
b< * g1 14 turn seat=0 lead=3E
b< * g1 15 to-move seats=0
a< * g1 13 played seat=1 play=3E hand_size=8
a< * g1 14 turn seat=0 lead=3E
a< * g1 15 to-move seats=0
w< * g1 13 played seat=1 play=3E hand_size=8
w< * g1 14 turn seat=0 lead=3E
w< * g1 15 to-move seats=0
a> legal g1
= 1E@10 2E@10
a> play g1 2E@13
= 2E@10
a< * g1 16 played seat=0 play=2E hand_size=11
a< * g1 17 trick number=2 trick.leader=1 trick.lead=3E trick.follow=2E trick.winner=1 won=0,0,0/0,4,5
a< * g1 18 turn seat=1 lead=-
a< * g1 19 to-move seats=1
b< * g1 16 played seat=0 play=2E hand_size=11
b< * g1 17 trick number=2 trick.leader=1 trick.lead=3E trick.follow=2E trick.winner=1 won=0,0,0/0,4,5
b< * g1 18 turn seat=1 lead=-
b< * g1 19 to-move seats=1
w< * g1 16 played seat=0 play=2E hand_size=11
w< * g1 17 trick number=2 trick.leader=1 trick.lead=3E trick.follow=2E trick.winner=1 won=0,0,0/0,4,5
w< * g1 18 turn seat=1 lead=-
w< * g1 19 to-move seats=1
a> state g1
= game=g1
kind=hipparchus
status=playing
seq=19
players=alice,bob
view.seat=0
view.hand=SSMSMSMSMEE
view.hand_sizes=11,8
view.won=0,0,0/0,4,5
view.set_aside=0,0,0
view.leader=1
view.lead=-
view.tricks.1.leader=0
view.tricks.1.lead=1M
view.tricks.1.follow=3M
view.tricks.1.winner=1
view.tricks.2.leader=1
view.tricks.2.lead=3E
view.tricks.2.follow=2E
view.tricks.2.winner=1
view.to_move=1
view.round_number=1
view.round_wins=0,0
view.result=-
view.revealed=-
view.winner=-
view.resigned=-
view.fixed_deal=true
presence=here,here
b> resign g1
=
b< * g1 20 match-over winner=0 round_wins=0,0 resigned=1
b< * g1 21 game-over winners=0 scores=0,0 resigned=1
a< * g1 20 match-over winner=0 round_wins=0,0 resigned=1
a< * g1 21 game-over winners=0 scores=0,0 resigned=1
w< * g1 20 match-over winner=0 round_wins=0,0 resigned=1
w< * g1 21 game-over winners=0 scores=0,0 resigned=1
w> record g1
= game=g1
kind=hipparchus
options.leader=0
options.deal=SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME
players=alice,bob
record.first_leader=0
record.rounds.1.deal.hands=SMSMSMSMSMEEEE,EEESSSSMMMMEES
record.rounds.1.deal.face_down=M,E
record.rounds.1.leader=0
record.rounds.1.plays=1M@2,3M@8,3E@1,2E@10
record.winner=0
record.resigned=1
record.fixed_deal=true
w> unwatch g1
=
a> leave g1
=
