# A game in JSON mode, from creation to a record, with a seeded deal (reproducible).
a> format json
= {"format": "json"}
b> format json
= {"format": "json"}
w> format json
= {"format": "json"}
a> new hipparchus leader=1 seed=42
= {"game": "g1"}
w> watch g1
= {"game": "g1", "kind": "hipparchus", "status": "waiting", "seq": 0, "players": [null, null], "view": null}
a> join g1 name=alice
= {"game": "g1", "seat": 0, "token": "{token1}"}
a< * {"game": "g1", "seq": 1, "kind": "joined", "data": {"seat": 0, "name": "alice"}}
w< * {"game": "g1", "seq": 1, "kind": "joined", "data": {"seat": 0, "name": "alice"}}
b> join g1 name=bob
= {"game": "g1", "seat": 1, "token": "{token2}"}
b< * {"game": "g1", "seq": 2, "kind": "joined", "data": {"seat": 1, "name": "bob"}}
b< * {"game": "g1", "seq": 3, "kind": "round-started", "data": {"round_number": 1, "leader": 1, "round_wins": [0, 0]}}
b< * {"game": "g1", "seq": 3, "kind": "hand", "data": {"round_number": 1, "seat": 1, "hand": "MMESSSESMESMEE"}}
b< * {"game": "g1", "seq": 4, "kind": "turn", "data": {"seat": 1, "lead": null}}
b< * {"game": "g1", "seq": 5, "kind": "to-move", "data": {"seats": [1]}}
a< * {"game": "g1", "seq": 2, "kind": "joined", "data": {"seat": 1, "name": "bob"}}
a< * {"game": "g1", "seq": 3, "kind": "round-started", "data": {"round_number": 1, "leader": 1, "round_wins": [0, 0]}}
a< * {"game": "g1", "seq": 3, "kind": "hand", "data": {"round_number": 1, "seat": 0, "hand": "MSSEESEMMMSMSM"}}
a< * {"game": "g1", "seq": 4, "kind": "turn", "data": {"seat": 1, "lead": null}}
a< * {"game": "g1", "seq": 5, "kind": "to-move", "data": {"seats": [1]}}
w< * {"game": "g1", "seq": 2, "kind": "joined", "data": {"seat": 1, "name": "bob"}}
w< * {"game": "g1", "seq": 3, "kind": "round-started", "data": {"round_number": 1, "leader": 1, "round_wins": [0, 0]}}
w< * {"game": "g1", "seq": 4, "kind": "turn", "data": {"seat": 1, "lead": null}}
w< * {"game": "g1", "seq": 5, "kind": "to-move", "data": {"seats": [1]}}
b> state g1
= {"game": "g1", "kind": "hipparchus", "status": "playing", "seq": 5, "players": ["alice", "bob"], "view": {"seat": 1, "hand": "MMESSSESMESMEE", "hand_sizes": [14, 14], "won": [[0, 0, 0], [0, 0, 0]], "set_aside": [0, 0, 0], "leader": 1, "lead": null, "tricks": [], "to_move": 1, "round_number": 1, "round_wins": [0, 0], "result": null, "revealed": null, "winner": null, "resigned": null, "fixed_deal": true}, "presence": ["here", "here"]}
b> legal g1
= {"game": "g1", "moves": [{"move": "2M@1", "suit": "M", "count": 2, "position": 1, "clump": [1, 2]}, {"move": "1E@3", "suit": "E", "count": 1, "position": 3, "clump": [3]}, {"move": "3S@4", "suit": "S", "count": 3, "position": 4, "clump": [4, 5, 6]}, {"move": "1E@7", "suit": "E", "count": 1, "position": 7, "clump": [7]}, {"move": "1S@8", "suit": "S", "count": 1, "position": 8, "clump": [8]}, {"move": "1M@9", "suit": "M", "count": 1, "position": 9, "clump": [9]}, {"move": "1E@10", "suit": "E", "count": 1, "position": 10, "clump": [10]}, {"move": "1S@11", "suit": "S", "count": 1, "position": 11, "clump": [11]}, {"move": "1M@12", "suit": "M", "count": 1, "position": 12, "clump": [12]}, {"move": "2E@13", "suit": "E", "count": 2, "position": 13, "clump": [13, 14]}]}
a> legal g1
= {"game": "g1", "moves": []}
w> state g1
= {"game": "g1", "kind": "hipparchus", "status": "playing", "seq": 5, "players": ["alice", "bob"], "view": {"seat": null, "hand": null, "hand_sizes": [14, 14], "won": [[0, 0, 0], [0, 0, 0]], "set_aside": [0, 0, 0], "leader": 1, "lead": null, "tricks": [], "to_move": 1, "round_number": 1, "round_wins": [0, 0], "result": null, "revealed": null, "winner": null, "resigned": null, "fixed_deal": true}, "presence": ["here", "here"]}
a> resign g1
= {}
a< * {"game": "g1", "seq": 6, "kind": "match-over", "data": {"winner": 1, "round_wins": [0, 0], "resigned": 0}}
a< * {"game": "g1", "seq": 7, "kind": "game-over", "data": {"winners": [1], "scores": [0, 0], "resigned": 0}}
b< * {"game": "g1", "seq": 6, "kind": "match-over", "data": {"winner": 1, "round_wins": [0, 0], "resigned": 0}}
b< * {"game": "g1", "seq": 7, "kind": "game-over", "data": {"winners": [1], "scores": [0, 0], "resigned": 0}}
w< * {"game": "g1", "seq": 6, "kind": "match-over", "data": {"winner": 1, "round_wins": [0, 0], "resigned": 0}}
w< * {"game": "g1", "seq": 7, "kind": "game-over", "data": {"winners": [1], "scores": [0, 0], "resigned": 0}}
a> record g1
= {"game": "g1", "kind": "hipparchus", "options": {"leader": "1", "seed": "42"}, "players": ["alice", "bob"], "record": {"first_leader": 1, "rounds": [{"deal": {"hands": ["MSSEESEMMMSMSM", "MMESSSESMESMEE"], "face_down": ["E", "E"]}, "leader": 1, "plays": []}], "winner": 1, "resigned": 0, "fixed_deal": true}}
w> unwatch g1
= {}
b> leave g1
= {}
