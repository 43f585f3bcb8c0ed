# planets in JSON mode (protocol/games/planets.md): four seats (a, b, c, d) and a spectator
# (w), all in JSON mode. The first deal is given (deal=, so the game is marked as a fixed deal;
# seed= would make the later deals reproducible too); seat 3 deals. Hand 1 passes three cards to
# the left.
a> format json
= {"format": "json"}
b> format json
= {"format": "json"}
c> format json
= {"format": "json"}
d> format json
= {"format": "json"}
w> format json
= {"format": "json"}
a> new planets dealer=3 deal=E3,E6,J1,J4,M2,M3,M6,N4,N6,N7,S1,S4,V3,V4/E1,J5,J6,M4,M7,S7,SM,SG,V2,V5,V7,VM,VS,VG/E2,E4,EM,ES,J3,J7,MS,N1,N3,NS,S2,S6,V1,V6/E5,E7,J2,JM,JS,M1,M5,MM,N2,N5,NM,S3,S5,SS
= {"game": "g1"}
w> watch g1
= {"game": "g1", "kind": "planets", "status": "waiting", "seq": 0, "players": [null, null, null, null], "view": null}
a> join g1 name=ann
= {"game": "g1", "seat": 0, "token": "{token1}"}
a< * {"game": "g1", "seq": 1, "kind": "joined", "data": {"seat": 0, "name": "ann"}}
w< * {"game": "g1", "seq": 1, "kind": "joined", "data": {"seat": 0, "name": "ann"}}
b> join g1 name=bob
= {"game": "g1", "seat": 1, "token": "{token2}"}
b< * {"game": "g1", "seq": 2, "kind": "joined", "data": {"seat": 1, "name": "bob"}}
a< * {"game": "g1", "seq": 2, "kind": "joined", "data": {"seat": 1, "name": "bob"}}
w< * {"game": "g1", "seq": 2, "kind": "joined", "data": {"seat": 1, "name": "bob"}}
c> join g1 name=cat
= {"game": "g1", "seat": 2, "token": "{token3}"}
c< * {"game": "g1", "seq": 3, "kind": "joined", "data": {"seat": 2, "name": "cat"}}
a< * {"game": "g1", "seq": 3, "kind": "joined", "data": {"seat": 2, "name": "cat"}}
b< * {"game": "g1", "seq": 3, "kind": "joined", "data": {"seat": 2, "name": "cat"}}
w< * {"game": "g1", "seq": 3, "kind": "joined", "data": {"seat": 2, "name": "cat"}}
d> join g1 name=dan
= {"game": "g1", "seat": 3, "token": "{token4}"}
d< * {"game": "g1", "seq": 4, "kind": "joined", "data": {"seat": 3, "name": "dan"}}
d< * {"game": "g1", "seq": 5, "kind": "hand-started", "data": {"hand_number": 1, "dealer": 3, "pass_name": "left", "pass_count": 3, "hand_sizes": [14, 14, 14, 14]}}
d< * {"game": "g1", "seq": 5, "kind": "hand", "data": {"hand_number": 1, "seat": 3, "hand": ["E5", "E7", "J2", "JM", "JS", "M1", "M5", "MM", "N2", "N5", "NM", "S3", "S5", "SS"]}}
d< * {"game": "g1", "seq": 6, "kind": "to-move", "data": {"seats": [0, 1, 2, 3]}}
a< * {"game": "g1", "seq": 4, "kind": "joined", "data": {"seat": 3, "name": "dan"}}
a< * {"game": "g1", "seq": 5, "kind": "hand-started", "data": {"hand_number": 1, "dealer": 3, "pass_name": "left", "pass_count": 3, "hand_sizes": [14, 14, 14, 14]}}
a< * {"game": "g1", "seq": 5, "kind": "hand", "data": {"hand_number": 1, "seat": 0, "hand": ["E3", "E6", "J1", "J4", "M2", "M3", "M6", "N4", "N6", "N7", "S1", "S4", "V3", "V4"]}}
a< * {"game": "g1", "seq": 6, "kind": "to-move", "data": {"seats": [0, 1, 2, 3]}}
b< * {"game": "g1", "seq": 4, "kind": "joined", "data": {"seat": 3, "name": "dan"}}
b< * {"game": "g1", "seq": 5, "kind": "hand-started", "data": {"hand_number": 1, "dealer": 3, "pass_name": "left", "pass_count": 3, "hand_sizes": [14, 14, 14, 14]}}
b< * {"game": "g1", "seq": 5, "kind": "hand", "data": {"hand_number": 1, "seat": 1, "hand": ["E1", "J5", "J6", "M4", "M7", "S7", "SM", "SG", "V2", "V5", "V7", "VM", "VS", "VG"]}}
b< * {"game": "g1", "seq": 6, "kind": "to-move", "data": {"seats": [0, 1, 2, 3]}}
c< * {"game": "g1", "seq": 4, "kind": "joined", "data": {"seat": 3, "name": "dan"}}
c< * {"game": "g1", "seq": 5, "kind": "hand-started", "data": {"hand_number": 1, "dealer": 3, "pass_name": "left", "pass_count": 3, "hand_sizes": [14, 14, 14, 14]}}
c< * {"game": "g1", "seq": 5, "kind": "hand", "data": {"hand_number": 1, "seat": 2, "hand": ["E2", "E4", "EM", "ES", "J3", "J7", "MS", "N1", "N3", "NS", "S2", "S6", "V1", "V6"]}}
c< * {"game": "g1", "seq": 6, "kind": "to-move", "data": {"seats": [0, 1, 2, 3]}}
w< * {"game": "g1", "seq": 4, "kind": "joined", "data": {"seat": 3, "name": "dan"}}
w< * {"game": "g1", "seq": 5, "kind": "hand-started", "data": {"hand_number": 1, "dealer": 3, "pass_name": "left", "pass_count": 3, "hand_sizes": [14, 14, 14, 14]}}
w< * {"game": "g1", "seq": 6, "kind": "to-move", "data": {"seats": [0, 1, 2, 3]}}
# legal during the pass: pick 3 of your hand, each to the seat on your left.
a> legal g1
= {"game": "g1", "pick": 3, "of": ["E3", "E6", "J1", "J4", "M2", "M3", "M6", "N4", "N6", "N7", "S1", "S4", "V3", "V4"], "to": [1, 1, 1]}
b> legal g1
= {"game": "g1", "pick": 3, "of": ["E1", "J5", "J6", "M4", "M7", "S7", "SM", "SG", "V2", "V5", "V7", "VM", "VS", "VG"], "to": [2, 2, 2]}
c> legal g1
= {"game": "g1", "pick": 3, "of": ["E2", "E4", "EM", "ES", "J3", "J7", "MS", "N1", "N3", "NS", "S2", "S6", "V1", "V6"], "to": [3, 3, 3]}
d> legal g1
= {"game": "g1", "pick": 3, "of": ["E5", "E7", "J2", "JM", "JS", "M1", "M5", "MM", "N2", "N5", "NM", "S3", "S5", "SS"], "to": [0, 0, 0]}
# The passes, in any order. cat passes Venus 1 to dan (RULINGS P12), who will lead it.
d> play g1 JS,JM,SS
= {"game": "g1", "move": "JM,JS,SS"}
d< * {"game": "g1", "seq": 7, "kind": "passed", "data": {"seat": 3}}
d< * {"game": "g1", "seq": 8, "kind": "to-move", "data": {"seats": [0, 1, 2]}}
a< * {"game": "g1", "seq": 7, "kind": "passed", "data": {"seat": 3}}
a< * {"game": "g1", "seq": 8, "kind": "to-move", "data": {"seats": [0, 1, 2]}}
b< * {"game": "g1", "seq": 7, "kind": "passed", "data": {"seat": 3}}
b< * {"game": "g1", "seq": 8, "kind": "to-move", "data": {"seats": [0, 1, 2]}}
c< * {"game": "g1", "seq": 7, "kind": "passed", "data": {"seat": 3}}
c< * {"game": "g1", "seq": 8, "kind": "to-move", "data": {"seats": [0, 1, 2]}}
w< * {"game": "g1", "seq": 7, "kind": "passed", "data": {"seat": 3}}
w< * {"game": "g1", "seq": 8, "kind": "to-move", "data": {"seats": [0, 1, 2]}}
c> play g1 V1,NS,J7
= {"game": "g1", "move": "J7,NS,V1"}
c< * {"game": "g1", "seq": 9, "kind": "passed", "data": {"seat": 2}}
c< * {"game": "g1", "seq": 10, "kind": "to-move", "data": {"seats": [0, 1]}}
a< * {"game": "g1", "seq": 9, "kind": "passed", "data": {"seat": 2}}
a< * {"game": "g1", "seq": 10, "kind": "to-move", "data": {"seats": [0, 1]}}
b< * {"game": "g1", "seq": 9, "kind": "passed", "data": {"seat": 2}}
b< * {"game": "g1", "seq": 10, "kind": "to-move", "data": {"seats": [0, 1]}}
d< * {"game": "g1", "seq": 9, "kind": "passed", "data": {"seat": 2}}
d< * {"game": "g1", "seq": 10, "kind": "to-move", "data": {"seats": [0, 1]}}
w< * {"game": "g1", "seq": 9, "kind": "passed", "data": {"seat": 2}}
w< * {"game": "g1", "seq": 10, "kind": "to-move", "data": {"seats": [0, 1]}}
b> play g1 M7,M7,VG
? {"code": "illegal-move", "message": "M7 is named twice"}
b> play g1 M7,VG,VS
= {"game": "g1", "move": "M7,VS,VG"}
b< * {"game": "g1", "seq": 11, "kind": "passed", "data": {"seat": 1}}
b< * {"game": "g1", "seq": 12, "kind": "to-move", "data": {"seats": [0]}}
a< * {"game": "g1", "seq": 11, "kind": "passed", "data": {"seat": 1}}
a< * {"game": "g1", "seq": 12, "kind": "to-move", "data": {"seats": [0]}}
c< * {"game": "g1", "seq": 11, "kind": "passed", "data": {"seat": 1}}
c< * {"game": "g1", "seq": 12, "kind": "to-move", "data": {"seats": [0]}}
d< * {"game": "g1", "seq": 11, "kind": "passed", "data": {"seat": 1}}
d< * {"game": "g1", "seq": 12, "kind": "to-move", "data": {"seats": [0]}}
w< * {"game": "g1", "seq": 11, "kind": "passed", "data": {"seat": 1}}
w< * {"game": "g1", "seq": 12, "kind": "to-move", "data": {"seats": [0]}}
w> state g1
= {"game": "g1", "kind": "planets", "status": "playing", "seq": 12, "players": ["ann", "bob", "cat", "dan"], "view": {"seat": null, "hand": null, "hand_sizes": [14, 14, 14, 14], "phase": "pass", "passed": [1, 2, 3], "pass_name": "left", "pass_count": 3, "my_pass": null, "received": null, "trick": null, "tricks": [], "points_taken": [0, 0, 0, 0], "totals": [0, 0, 0, 0], "jupiter_broken": false, "dealer": 3, "hand_number": 1, "to_move": [0], "shoot_pending": null, "winners": null, "resigned": null, "fixed_deal": true, "exact100": false}, "presence": ["here", "here", "here", "here"]}
b> state g1
= {"game": "g1", "kind": "planets", "status": "playing", "seq": 12, "players": ["ann", "bob", "cat", "dan"], "view": {"seat": 1, "hand": ["E1", "J5", "J6", "M4", "M7", "S7", "SM", "SG", "V2", "V5", "V7", "VM", "VS", "VG"], "hand_sizes": [14, 14, 14, 14], "phase": "pass", "passed": [1, 2, 3], "pass_name": "left", "pass_count": 3, "my_pass": ["M7", "VS", "VG"], "received": null, "trick": null, "tricks": [], "points_taken": [0, 0, 0, 0], "totals": [0, 0, 0, 0], "jupiter_broken": false, "dealer": 3, "hand_number": 1, "to_move": [0], "shoot_pending": null, "winners": null, "resigned": null, "fixed_deal": true, "exact100": false}, "presence": ["here", "here", "here", "here"]}
a> play g1 N7,J4,J1
= {"game": "g1", "move": "J1,J4,N7"}
a< * {"game": "g1", "seq": 13, "kind": "passed", "data": {"seat": 0}}
a< * {"game": "g1", "seq": 13, "kind": "received", "data": {"hand_number": 1, "seat": 0, "cards": ["JM", "JS", "SS"], "from_seats": [3, 3, 3]}}
a< * {"game": "g1", "seq": 14, "kind": "to-move", "data": {"seats": [3]}}
b< * {"game": "g1", "seq": 13, "kind": "passed", "data": {"seat": 0}}
b< * {"game": "g1", "seq": 13, "kind": "received", "data": {"hand_number": 1, "seat": 1, "cards": ["J1", "J4", "N7"], "from_seats": [0, 0, 0]}}
b< * {"game": "g1", "seq": 14, "kind": "to-move", "data": {"seats": [3]}}
c< * {"game": "g1", "seq": 13, "kind": "passed", "data": {"seat": 0}}
c< * {"game": "g1", "seq": 13, "kind": "received", "data": {"hand_number": 1, "seat": 2, "cards": ["M7", "VS", "VG"], "from_seats": [1, 1, 1]}}
c< * {"game": "g1", "seq": 14, "kind": "to-move", "data": {"seats": [3]}}
d< * {"game": "g1", "seq": 13, "kind": "passed", "data": {"seat": 0}}
d< * {"game": "g1", "seq": 13, "kind": "received", "data": {"hand_number": 1, "seat": 3, "cards": ["J7", "NS", "V1"], "from_seats": [2, 2, 2]}}
d< * {"game": "g1", "seq": 14, "kind": "to-move", "data": {"seats": [3]}}
w< * {"game": "g1", "seq": 13, "kind": "passed", "data": {"seat": 0}}
w< * {"game": "g1", "seq": 14, "kind": "to-move", "data": {"seats": [3]}}
# Play: legal lists the cards, each with its description.
d> legal g1
= {"game": "g1", "moves": [{"move": "V1", "card": "V1", "suit": "V", "rank": "1"}]}
d> play g1 V1
= {"game": "g1", "move": "V1"}
d< * {"game": "g1", "seq": 15, "kind": "played", "data": {"seat": 3, "card": "V1", "trick_number": 1}}
d< * {"game": "g1", "seq": 16, "kind": "to-move", "data": {"seats": [0]}}
a< * {"game": "g1", "seq": 15, "kind": "played", "data": {"seat": 3, "card": "V1", "trick_number": 1}}
a< * {"game": "g1", "seq": 16, "kind": "to-move", "data": {"seats": [0]}}
b< * {"game": "g1", "seq": 15, "kind": "played", "data": {"seat": 3, "card": "V1", "trick_number": 1}}
b< * {"game": "g1", "seq": 16, "kind": "to-move", "data": {"seats": [0]}}
c< * {"game": "g1", "seq": 15, "kind": "played", "data": {"seat": 3, "card": "V1", "trick_number": 1}}
c< * {"game": "g1", "seq": 16, "kind": "to-move", "data": {"seats": [0]}}
w< * {"game": "g1", "seq": 15, "kind": "played", "data": {"seat": 3, "card": "V1", "trick_number": 1}}
w< * {"game": "g1", "seq": 16, "kind": "to-move", "data": {"seats": [0]}}
a> legal g1
= {"game": "g1", "moves": [{"move": "V3", "card": "V3", "suit": "V", "rank": "3"}, {"move": "V4", "card": "V4", "suit": "V", "rank": "4"}]}
a> play g1 N4
? {"code": "illegal-move", "message": "you must follow Venus"}
a> play g1 V4
= {"game": "g1", "move": "V4"}
a< * {"game": "g1", "seq": 17, "kind": "played", "data": {"seat": 0, "card": "V4", "trick_number": 1}}
a< * {"game": "g1", "seq": 18, "kind": "to-move", "data": {"seats": [1]}}
b< * {"game": "g1", "seq": 17, "kind": "played", "data": {"seat": 0, "card": "V4", "trick_number": 1}}
b< * {"game": "g1", "seq": 18, "kind": "to-move", "data": {"seats": [1]}}
c< * {"game": "g1", "seq": 17, "kind": "played", "data": {"seat": 0, "card": "V4", "trick_number": 1}}
c< * {"game": "g1", "seq": 18, "kind": "to-move", "data": {"seats": [1]}}
d< * {"game": "g1", "seq": 17, "kind": "played", "data": {"seat": 0, "card": "V4", "trick_number": 1}}
d< * {"game": "g1", "seq": 18, "kind": "to-move", "data": {"seats": [1]}}
w< * {"game": "g1", "seq": 17, "kind": "played", "data": {"seat": 0, "card": "V4", "trick_number": 1}}
w< * {"game": "g1", "seq": 18, "kind": "to-move", "data": {"seats": [1]}}
b> play g1 VM
= {"game": "g1", "move": "VM"}
b< * {"game": "g1", "seq": 19, "kind": "played", "data": {"seat": 1, "card": "VM", "trick_number": 1}}
b< * {"game": "g1", "seq": 20, "kind": "to-move", "data": {"seats": [2]}}
a< * {"game": "g1", "seq": 19, "kind": "played", "data": {"seat": 1, "card": "VM", "trick_number": 1}}
a< * {"game": "g1", "seq": 20, "kind": "to-move", "data": {"seats": [2]}}
c< * {"game": "g1", "seq": 19, "kind": "played", "data": {"seat": 1, "card": "VM", "trick_number": 1}}
c< * {"game": "g1", "seq": 20, "kind": "to-move", "data": {"seats": [2]}}
d< * {"game": "g1", "seq": 19, "kind": "played", "data": {"seat": 1, "card": "VM", "trick_number": 1}}
d< * {"game": "g1", "seq": 20, "kind": "to-move", "data": {"seats": [2]}}
w< * {"game": "g1", "seq": 19, "kind": "played", "data": {"seat": 1, "card": "VM", "trick_number": 1}}
w< * {"game": "g1", "seq": 20, "kind": "to-move", "data": {"seats": [2]}}
c> play g1 VG
= {"game": "g1", "move": "VG"}
c< * {"game": "g1", "seq": 21, "kind": "played", "data": {"seat": 2, "card": "VG", "trick_number": 1}}
c< * {"game": "g1", "seq": 22, "kind": "trick", "data": {"number": 1, "leader": 3, "cards": ["V1", "V4", "VM", "VG"], "winner": 2, "points": 0, "jupiter_broken": false}}
c< * {"game": "g1", "seq": 23, "kind": "to-move", "data": {"seats": [2]}}
a< * {"game": "g1", "seq": 21, "kind": "played", "data": {"seat": 2, "card": "VG", "trick_number": 1}}
a< * {"game": "g1", "seq": 22, "kind": "trick", "data": {"number": 1, "leader": 3, "cards": ["V1", "V4", "VM", "VG"], "winner": 2, "points": 0, "jupiter_broken": false}}
a< * {"game": "g1", "seq": 23, "kind": "to-move", "data": {"seats": [2]}}
b< * {"game": "g1", "seq": 21, "kind": "played", "data": {"seat": 2, "card": "VG", "trick_number": 1}}
b< * {"game": "g1", "seq": 22, "kind": "trick", "data": {"number": 1, "leader": 3, "cards": ["V1", "V4", "VM", "VG"], "winner": 2, "points": 0, "jupiter_broken": false}}
b< * {"game": "g1", "seq": 23, "kind": "to-move", "data": {"seats": [2]}}
d< * {"game": "g1", "seq": 21, "kind": "played", "data": {"seat": 2, "card": "VG", "trick_number": 1}}
d< * {"game": "g1", "seq": 22, "kind": "trick", "data": {"number": 1, "leader": 3, "cards": ["V1", "V4", "VM", "VG"], "winner": 2, "points": 0, "jupiter_broken": false}}
d< * {"game": "g1", "seq": 23, "kind": "to-move", "data": {"seats": [2]}}
w< * {"game": "g1", "seq": 21, "kind": "played", "data": {"seat": 2, "card": "VG", "trick_number": 1}}
w< * {"game": "g1", "seq": 22, "kind": "trick", "data": {"number": 1, "leader": 3, "cards": ["V1", "V4", "VM", "VG"], "winner": 2, "points": 0, "jupiter_broken": false}}
w< * {"game": "g1", "seq": 23, "kind": "to-move", "data": {"seats": [2]}}
# cat won with the Venus Galaxy. Jupiter is not broken, so cat may not lead it.
c> play g1 J3
? {"code": "illegal-move", "message": "Jupiter is not broken: lead another suit"}
c> play g1 M7
= {"game": "g1", "move": "M7"}
c< * {"game": "g1", "seq": 24, "kind": "played", "data": {"seat": 2, "card": "M7", "trick_number": 2}}
c< * {"game": "g1", "seq": 25, "kind": "to-move", "data": {"seats": [3]}}
a< * {"game": "g1", "seq": 24, "kind": "played", "data": {"seat": 2, "card": "M7", "trick_number": 2}}
a< * {"game": "g1", "seq": 25, "kind": "to-move", "data": {"seats": [3]}}
b< * {"game": "g1", "seq": 24, "kind": "played", "data": {"seat": 2, "card": "M7", "trick_number": 2}}
b< * {"game": "g1", "seq": 25, "kind": "to-move", "data": {"seats": [3]}}
d< * {"game": "g1", "seq": 24, "kind": "played", "data": {"seat": 2, "card": "M7", "trick_number": 2}}
d< * {"game": "g1", "seq": 25, "kind": "to-move", "data": {"seats": [3]}}
w< * {"game": "g1", "seq": 24, "kind": "played", "data": {"seat": 2, "card": "M7", "trick_number": 2}}
w< * {"game": "g1", "seq": 25, "kind": "to-move", "data": {"seats": [3]}}
d> play g1 MM
= {"game": "g1", "move": "MM"}
d< * {"game": "g1", "seq": 26, "kind": "played", "data": {"seat": 3, "card": "MM", "trick_number": 2}}
d< * {"game": "g1", "seq": 27, "kind": "to-move", "data": {"seats": [0]}}
a< * {"game": "g1", "seq": 26, "kind": "played", "data": {"seat": 3, "card": "MM", "trick_number": 2}}
a< * {"game": "g1", "seq": 27, "kind": "to-move", "data": {"seats": [0]}}
b< * {"game": "g1", "seq": 26, "kind": "played", "data": {"seat": 3, "card": "MM", "trick_number": 2}}
b< * {"game": "g1", "seq": 27, "kind": "to-move", "data": {"seats": [0]}}
c< * {"game": "g1", "seq": 26, "kind": "played", "data": {"seat": 3, "card": "MM", "trick_number": 2}}
c< * {"game": "g1", "seq": 27, "kind": "to-move", "data": {"seats": [0]}}
w< * {"game": "g1", "seq": 26, "kind": "played", "data": {"seat": 3, "card": "MM", "trick_number": 2}}
w< * {"game": "g1", "seq": 27, "kind": "to-move", "data": {"seats": [0]}}
a> play g1 M2
= {"game": "g1", "move": "M2"}
a< * {"game": "g1", "seq": 28, "kind": "played", "data": {"seat": 0, "card": "M2", "trick_number": 2}}
a< * {"game": "g1", "seq": 29, "kind": "to-move", "data": {"seats": [1]}}
b< * {"game": "g1", "seq": 28, "kind": "played", "data": {"seat": 0, "card": "M2", "trick_number": 2}}
b< * {"game": "g1", "seq": 29, "kind": "to-move", "data": {"seats": [1]}}
c< * {"game": "g1", "seq": 28, "kind": "played", "data": {"seat": 0, "card": "M2", "trick_number": 2}}
c< * {"game": "g1", "seq": 29, "kind": "to-move", "data": {"seats": [1]}}
d< * {"game": "g1", "seq": 28, "kind": "played", "data": {"seat": 0, "card": "M2", "trick_number": 2}}
d< * {"game": "g1", "seq": 29, "kind": "to-move", "data": {"seats": [1]}}
w< * {"game": "g1", "seq": 28, "kind": "played", "data": {"seat": 0, "card": "M2", "trick_number": 2}}
w< * {"game": "g1", "seq": 29, "kind": "to-move", "data": {"seats": [1]}}
b> play g1 M4
= {"game": "g1", "move": "M4"}
b< * {"game": "g1", "seq": 30, "kind": "played", "data": {"seat": 1, "card": "M4", "trick_number": 2}}
b< * {"game": "g1", "seq": 31, "kind": "trick", "data": {"number": 2, "leader": 2, "cards": ["M7", "MM", "M2", "M4"], "winner": 3, "points": 7, "jupiter_broken": false}}
b< * {"game": "g1", "seq": 32, "kind": "to-move", "data": {"seats": [3]}}
a< * {"game": "g1", "seq": 30, "kind": "played", "data": {"seat": 1, "card": "M4", "trick_number": 2}}
a< * {"game": "g1", "seq": 31, "kind": "trick", "data": {"number": 2, "leader": 2, "cards": ["M7", "MM", "M2", "M4"], "winner": 3, "points": 7, "jupiter_broken": false}}
a< * {"game": "g1", "seq": 32, "kind": "to-move", "data": {"seats": [3]}}
c< * {"game": "g1", "seq": 30, "kind": "played", "data": {"seat": 1, "card": "M4", "trick_number": 2}}
c< * {"game": "g1", "seq": 31, "kind": "trick", "data": {"number": 2, "leader": 2, "cards": ["M7", "MM", "M2", "M4"], "winner": 3, "points": 7, "jupiter_broken": false}}
c< * {"game": "g1", "seq": 32, "kind": "to-move", "data": {"seats": [3]}}
d< * {"game": "g1", "seq": 30, "kind": "played", "data": {"seat": 1, "card": "M4", "trick_number": 2}}
d< * {"game": "g1", "seq": 31, "kind": "trick", "data": {"number": 2, "leader": 2, "cards": ["M7", "MM", "M2", "M4"], "winner": 3, "points": 7, "jupiter_broken": false}}
d< * {"game": "g1", "seq": 32, "kind": "to-move", "data": {"seats": [3]}}
w< * {"game": "g1", "seq": 30, "kind": "played", "data": {"seat": 1, "card": "M4", "trick_number": 2}}
w< * {"game": "g1", "seq": 31, "kind": "trick", "data": {"number": 2, "leader": 2, "cards": ["M7", "MM", "M2", "M4"], "winner": 3, "points": 7, "jupiter_broken": false}}
w< * {"game": "g1", "seq": 32, "kind": "to-move", "data": {"seats": [3]}}
a> state g1
= {"game": "g1", "kind": "planets", "status": "playing", "seq": 32, "players": ["ann", "bob", "cat", "dan"], "view": {"seat": 0, "hand": ["E3", "E6", "JM", "JS", "M3", "M6", "N4", "N6", "S1", "S4", "SS", "V3"], "hand_sizes": [12, 12, 12, 12], "phase": "play", "passed": [0, 1, 2, 3], "pass_name": "left", "pass_count": 3, "my_pass": ["J1", "J4", "N7"], "received": ["JM", "JS", "SS"], "trick": {"leader": 3, "cards": []}, "tricks": [{"number": 1, "leader": 3, "cards": ["V1", "V4", "VM", "VG"], "winner": 2, "points": 0}, {"number": 2, "leader": 2, "cards": ["M7", "MM", "M2", "M4"], "winner": 3, "points": 7}], "points_taken": [0, 0, 0, 7], "totals": [0, 0, 0, 0], "jupiter_broken": false, "dealer": 3, "hand_number": 1, "to_move": [3], "shoot_pending": null, "winners": null, "resigned": null, "fixed_deal": true, "exact100": false}, "presence": ["here", "here", "here", "here"]}
# bob resigns (RULINGS P16): of the others, the lowest totals share the win.
b> resign g1
= {}
b< * {"game": "g1", "seq": 33, "kind": "game-over", "data": {"winners": [0, 2, 3], "scores": [0, 0, 0, 0], "resigned": 1}}
a< * {"game": "g1", "seq": 33, "kind": "game-over", "data": {"winners": [0, 2, 3], "scores": [0, 0, 0, 0], "resigned": 1}}
c< * {"game": "g1", "seq": 33, "kind": "game-over", "data": {"winners": [0, 2, 3], "scores": [0, 0, 0, 0], "resigned": 1}}
d< * {"game": "g1", "seq": 33, "kind": "game-over", "data": {"winners": [0, 2, 3], "scores": [0, 0, 0, 0], "resigned": 1}}
w< * {"game": "g1", "seq": 33, "kind": "game-over", "data": {"winners": [0, 2, 3], "scores": [0, 0, 0, 0], "resigned": 1}}
w> record g1
= {"game": "g1", "kind": "planets", "options": {"dealer": "3", "deal": "E3,E6,J1,J4,M2,M3,M6,N4,N6,N7,S1,S4,V3,V4/E1,J5,J6,M4,M7,S7,SM,SG,V2,V5,V7,VM,VS,VG/E2,E4,EM,ES,J3,J7,MS,N1,N3,NS,S2,S6,V1,V6/E5,E7,J2,JM,JS,M1,M5,MM,N2,N5,NM,S3,S5,SS"}, "players": ["ann", "bob", "cat", "dan"], "record": {"players": 4, "galaxies": false, "exact100": false, "cut": null, "first_dealer": 3, "hands": [{"deal": [["E3", "E6", "J1", "J4", "M2", "M3", "M6", "N4", "N6", "N7", "S1", "S4", "V3", "V4"], ["E1", "J5", "J6", "M4", "M7", "S7", "SM", "SG", "V2", "V5", "V7", "VM", "VS", "VG"], ["E2", "E4", "EM", "ES", "J3", "J7", "MS", "N1", "N3", "NS", "S2", "S6", "V1", "V6"], ["E5", "E7", "J2", "JM", "JS", "M1", "M5", "MM", "N2", "N5", "NM", "S3", "S5", "SS"]], "passes": [["J1", "J4", "N7"], ["M7", "VS", "VG"], ["J7", "NS", "V1"], ["JM", "JS", "SS"]], "plays": ["V1", "V4", "VM", "VG", "M7", "MM", "M2", "M4"], "choice": null}], "resigned": 1, "winners": [0, 2, 3], "totals": [0, 0, 0, 0], "fixed_deal": true}}
