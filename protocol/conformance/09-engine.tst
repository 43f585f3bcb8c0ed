# The daemon's engine (PROTOCOL.md section 9): a bot seat, genmove, analyze and stop, in text
# then JSON mode. Budgets are playouts, so the answers are reproducible: the same position and
# budget give the same search. Only "elapsed" (milliseconds) varies, hence its placeholders.
a> new hipparchus leader=0 deal=SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME
= game=g1
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
# A spectator may not analyze from a seat's view before the game is over.
w> analyze g1
? not-seated you hold no seat in g1
w> analyze g1 seat=0
? not-seated a spectator analyzes from a seat's view once g1 is over
a> bot g1 level=ismcts:200 name=engine
= seat=1 level=ismcts:200
a< * g1 2 joined seat=1 name=engine
a< * g1 3 round-started round_number=1 leader=0 round_wins=0,0
a< * g1 3 hand round_number=1 seat=0 hand=SMSMSMSMSMEEEE
a< * g1 4 turn seat=0 lead=-
a< * g1 5 to-move seats=0
w< * g1 2 joined seat=1 name=engine
w< * g1 3 round-started round_number=1 leader=0 round_wins=0,0
w< * g1 4 turn seat=0 lead=-
w< * g1 5 to-move seats=0
a> bot g1
? seat-taken every seat of g1 is taken
a> genmove g1 99999999ms
? limit a search takes at most 10000ms here
# The engine's move for alice's seat, only named.
a> genmove g1 300 play=false
= 1M@4
# The analysis streams; interval=60000 keeps it to its final report, at the budget's end: an
# info event per move, best first, then the summary.
a> analyze g1 300 interval=60000
= seat=0 budget=300
a< * g1 5 info seat=0 order=1 move=1M@4 visits=47 value=0.6383 match=0.5691
a< * g1 5 info seat=0 order=2 move=1M@10 visits=44 value=0.6364 match=0.5682
a< * g1 5 info seat=0 order=3 move=1M@2 visits=40 value=0.65 match=0.575
a< * g1 5 info seat=0 order=4 move=1S@5 visits=24 value=0.5417 match=0.5208
a< * g1 5 info seat=0 order=5 move=1S@7 visits=24 value=0.5417 match=0.5208
a< * g1 5 info seat=0 order=6 move=1S@9 visits=21 value=0.5238 match=0.5119
a< * g1 5 info seat=0 order=7 move=1S@3 visits=21 value=0.5238 match=0.5119
a< * g1 5 info seat=0 order=8 move=1M@6 visits=19 value=0.4737 match=0.4868
a< * g1 5 info seat=0 order=9 move=1M@8 visits=17 value=0.4706 match=0.4853
a< * g1 5 info seat=0 order=10 move=3E@11 visits=17 value=0.4706 match=0.4853
a< * g1 5 info seat=0 order=11 move=1S@1 visits=11 value=0.3636 match=0.4318
a< * g1 5 info seat=0 order=12 move=2E@11 visits=9 value=0.3333 match=0.4167
a< * g1 5 info seat=0 order=13 move=1E@11 visits=6 value=0.1667 match=0.3333
a< * g1 5 analysis seat=0 best=1M@4 playouts=300 elapsed={e1} final=true reason=budget
# stop ends a stream (any request does); this one had ended.
a> stop
=
# genmove plays the move found; then the engine's seat answers (it wins the trick and leads).
a> genmove g1 200
= 1M@2
a< * g1 6 played seat=0 play=1M hand_size=13
a< * g1 7 turn seat=1 lead=1M
a< * g1 8 to-move seats=1
a< * g1 9 played seat=1 play=3M hand_size=11
a< * g1 10 trick number=1 trick.leader=0 trick.lead=1M trick.follow=3M trick.winner=1 won=0,0,0/0,4,0
a< * g1 11 turn seat=1 lead=-
a< * g1 12 to-move seats=1
a< * g1 13 played seat=1 play=2S hand_size=9
a< * g1 14 turn seat=0 lead=2S
a< * g1 15 to-move seats=0
w< * g1 6 played seat=0 play=1M hand_size=13
w< * g1 7 turn seat=1 lead=1M
w< * g1 8 to-move seats=1
w< * g1 9 played seat=1 play=3M hand_size=11
w< * g1 10 trick number=1 trick.leader=0 trick.lead=1M trick.follow=3M trick.winner=1 won=0,0,0/0,4,0
w< * g1 11 turn seat=1 lead=-
w< * g1 12 to-move seats=1
w< * g1 13 played seat=1 play=2S hand_size=9
w< * g1 14 turn seat=0 lead=2S
w< * g1 15 to-move seats=0
# Only a game whose every seat is the engine's is ended with end, and by its creator only.
a> end g1
? not-seated g1 has a player's seat: only a game the engine alone plays is ended so
w> end g1
? not-seated only the connection that created g1 may end it
# In JSON mode each report is one object per line; three moves follow suit here (the lead is
# 2 Suns, H5).
a> format json
= {"format": "json"}
a> analyze g1 100 interval=60000
= {"game": "g1", "seat": 0, "budget": "100"}
a< * {"game": "g1", "seq": 15, "kind": "info", "data": {"seat": 0, "order": 1, "move": "1S@8", "visits": 60, "value": 0.45, "match": 0.475}}
a< * {"game": "g1", "seq": 15, "kind": "info", "data": {"seat": 0, "order": 2, "move": "1S@4", "visits": 21, "value": 0.2857, "match": 0.3929}}
a< * {"game": "g1", "seq": 15, "kind": "info", "data": {"seat": 0, "order": 3, "move": "1S@6", "visits": 19, "value": 0.2632, "match": 0.3816}}
a< * {"game": "g1", "seq": 15, "kind": "analysis", "data": {"seat": 0, "best": "1S@8", "playouts": 100, "elapsed": {e2}, "final": true, "reason": "budget"}}
a> stop
= {}
a> genmove g1 100 play=false
= {"game": "g1", "move": "1S@8", "played": false, "visits": 60, "value": 0.45, "match": 0.475, "playouts": 100}
# A game whose every seat is the engine's plays by itself (followed by nobody here).
a> new hipparchus leader=0 seed=1
= {"game": "g2"}
a> bot g2 level=random
= {"game": "g2", "seat": 0, "level": "random"}
# The creator of a game whose every seat is the engine's ends it: no winner. Its seats search
# 10 s a move here, so it is ended before anything is played.
a> new hipparchus leader=0 seed=1
= {"game": "g3"}
a> watch g3
= {"game": "g3", "kind": "hipparchus", "status": "waiting", "seq": 0, "players": [null, null], "view": null}
a> bot g3 level=ismcts:10000ms
= {"game": "g3", "seat": 0, "level": "ismcts:10000ms"}
a< * {"game": "g3", "seq": 1, "kind": "joined", "data": {"seat": 0, "name": "bot-ismcts"}}
a> bot g3 level=ismcts:10000ms
= {"game": "g3", "seat": 1, "level": "ismcts:10000ms"}
a< * {"game": "g3", "seq": 2, "kind": "joined", "data": {"seat": 1, "name": "bot-ismcts-2"}}
a< * {"game": "g3", "seq": 3, "kind": "round-started", "data": {"round_number": 1, "leader": 0, "round_wins": [0, 0]}}
a< * {"game": "g3", "seq": 4, "kind": "turn", "data": {"seat": 0, "lead": null}}
a< * {"game": "g3", "seq": 5, "kind": "to-move", "data": {"seats": [0]}}
a> end g3
= {}
a< * {"game": "g3", "seq": 6, "kind": "game-over", "data": {"winners": [], "scores": [], "resigned": null, "abandoned": true}}
a> end g3
? {"code": "game-over", "message": "g3 is over"}
