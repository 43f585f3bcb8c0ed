//! A bot that plays uniformly random legal moves in any game the daemon serves.
//!
//! ```text
//! hipparchus-bot [--host H] [--port P] [--name NAME] [--seed N] [--verbose]
//!                (--create [--kind KIND] [--option KEY=VALUE ...] | --game ID)
//! ```
//!
//! `--create` makes a game (`new <kind> <options>`, `hipparchus` unless `--kind` says otherwise;
//! `--seed N` adds `seed=N` unless an `--option` gives one) and takes a seat in it; `--game`
//! takes a seat in that game. Once seated it prints `game=<id> seat=<n>`, then follows the
//! generic contract alone (PROTOCOL.md): whenever a `to-move` event names its seat it asks
//! `legal` (a list of moves, or a `pick` of n items) and plays one at random. At `game-over` it
//! prints the event's fields, `winners=<seats> scores=<per seat> resigned=<seat or ->`
//! (Hipparchus's scores are the round wins), and exits 0 (the contract shared by every bot in
//! clients/, see tests/clients/harness.py). `--seed` also makes its own choices
//! reproducible; `--verbose` traces the protocol on stderr. The protocol is handled by the
//! library (src/lib.rs); the decision is `choose_move` below.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::process::ExitCode;

use hipparchus_client::{int_list, Client, Error, ErrorCode, Event, Legal};

struct Options {
    host: String,
    port: u16,
    game: Option<String>, // None with --create
    name: String,
    seed: Option<i64>,
    kind: String,
    options: Vec<String>, // KEY=VALUE options of `new`
    verbose: bool,
}

const USAGE: &str = "usage: hipparchus-bot [--host HOST] [--port PORT] [--name NAME] [--seed N] \
                     [--verbose] (--create [--kind KIND] [--option KEY=VALUE ...] | --game ID)";

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut opt = Options {
        host: "127.0.0.1".into(),
        port: 7460,
        game: None,
        name: "rustbot".into(),
        seed: None,
        kind: String::new(),
        options: Vec::new(),
        verbose: false,
    };
    let mut create = false;
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--host" => opt.host = value()?,
            "--port" => opt.port = value()?.parse().map_err(|_| "--port needs a number")?,
            "--game" => opt.game = Some(value()?),
            "--name" => opt.name = value()?,
            "--seed" => opt.seed = Some(value()?.parse().map_err(|_| "--seed needs an integer")?),
            "--kind" => opt.kind = value()?,
            "--option" | "-o" => {
                let option = value()?;
                let valid = matches!(option.split_once('='), Some((k, v)) if !k.is_empty() && !v.is_empty())
                    && !option.contains(char::is_whitespace);
                if !valid {
                    return Err(format!("--option wants KEY=VALUE, not '{option}'"));
                }
                opt.options.push(option);
            }
            "--create" => create = true,
            "--verbose" => opt.verbose = true,
            _ => return Err(format!("unknown argument: {arg}")),
        }
    }
    if create == opt.game.is_some() {
        return Err("give exactly one of --create and --game".into());
    }
    if opt.game.is_some() && !(opt.kind.is_empty() && opt.options.is_empty()) {
        return Err("--kind and --option go with --create".into());
    }
    if opt.kind.is_empty() {
        opt.kind = "hipparchus".into();
    }
    Ok(opt)
}

/// xorshift64*, seeded from `--seed` or from std's per-process random hash keys: enough to pick
/// moves without a crate.
struct Rng(u64);

impl Rng {
    fn new(seed: Option<i64>) -> Rng {
        let state = match seed {
            // Spread the seed's bits (Fibonacci hashing): small seeds would start xorshift weakly.
            Some(seed) => (seed as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            None => {
                let mut hasher = RandomState::new().build_hasher();
                hasher.write_u32(std::process::id());
                hasher.finish()
            }
        };
        Rng(state | 1) // xorshift must not start at 0
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A uniform integer in `0..n` (`n > 0`): draws from the incomplete top range are thrown
    /// back, since `next() % n` would favour small values.
    fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let limit = u64::MAX - u64::MAX % n;
        loop {
            let r = self.next();
            if r < limit {
                return (r % n) as usize;
            }
        }
    }
}

/// The bot's whole strategy: one of the legal moves at random. For a list, one of its words;
/// for a pick, `count` distinct items (a partial Fisher-Yates shuffle) joined by `,`. Make it
/// play well here. `legal` must offer a move ([`Legal::can_move`]).
fn choose_move(legal: &Legal, rng: &mut Rng) -> String {
    match legal {
        Legal::Moves(moves) => moves[rng.below(moves.len())].clone(),
        Legal::Pick { count, items, .. } => {
            let mut items = items.clone();
            for i in 0..*count {
                let j = i + rng.below(items.len() - i);
                items.swap(i, j);
            }
            items[..*count].join(",")
        }
    }
}

/// Our seat is to move: ask for the legal moves, choose one, play it.
fn play_turn(client: &mut Client, game: &str, rng: &mut Rng) -> Result<(), Error> {
    let legal = Legal::parse(&client.command(&format!("legal {game}"))?)?;
    if !legal.can_move() {
        // The to-move event was stale (in a simultaneous move, others' moves announce the
        // seats still to move, ours among them until our move lands): we need not move.
        return Ok(());
    }
    let choice = choose_move(&legal, rng);
    match client.command(&format!("play {game} {choice}")) {
        // Losing a race with the end of the game is not an error.
        Err(Error::Server {
            code: ErrorCode::NotYourTurn | ErrorCode::GameOver,
            ..
        }) => Ok(()),
        other => other.map(|_| ()),
    }
}

/// A list field of an event as integers (a malformed one is a protocol error).
fn list_field(event: &Event, key: &str) -> Result<Vec<i64>, Error> {
    int_list(event.field(key).unwrap_or("-"))
        .ok_or_else(|| Error::Protocol(format!("bad {key} in {} {}", event.kind, event.fields)))
}

fn joined(values: &[i64]) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// React to one event of any game; `Ok(true)` once our game is over.
fn handle_event(
    client: &mut Client,
    game: &str,
    seat: i64,
    event: &Event,
    rng: &mut Rng,
) -> Result<bool, Error> {
    if event.game == "server" && event.kind == "shutdown" {
        return Err(Error::Protocol("the server is shutting down".into()));
    }
    if event.game != game {
        return Ok(false); // another game, or another server event
    }
    match event.kind.as_str() {
        "to-move" if list_field(event, "seats")?.contains(&seat) => play_turn(client, game, rng)?,
        "game-over" => {
            let winners = list_field(event, "winners")?;
            let scores = list_field(event, "scores")?;
            let resigned = event.field("resigned").unwrap_or("-");
            println!(
                "winners={} scores={} resigned={resigned}",
                joined(&winners),
                joined(&scores)
            );
            return Ok(true);
        }
        _ => {}
    }
    Ok(false)
}

fn run(opt: &Options) -> Result<(), Error> {
    let mut client = Client::connect((opt.host.as_str(), opt.port))?;
    client.set_trace(opt.verbose);
    let hello = client.next_event()?;
    if hello.game != "server" || hello.kind != "hello" || hello.field("protocol") != Some("1") {
        return Err(Error::Protocol(
            "not a hipparchusd protocol 1 server".into(),
        ));
    }

    let game = match &opt.game {
        Some(game) => game.clone(),
        None => {
            // `new <kind> <options>`, with seed=N from --seed unless an --option gives a seed:
            // with a seed the deal is reproducible too (the game is then marked fixed_deal).
            let mut words = vec!["new".to_string(), opt.kind.clone()];
            words.extend(opt.options.iter().cloned());
            if let Some(seed) = opt.seed {
                if !opt.options.iter().any(|option| option.starts_with("seed=")) {
                    words.push(format!("seed={seed}"));
                }
            }
            let created = client.command(&words.join(" "))?;
            let game = created
                .field("game")
                .ok_or(Error::Protocol("new: no game=".into()))?;
            game.to_string()
        }
    };
    let joined = client.command(&format!("join {game} name={}", opt.name))?;
    let seat: i64 = joined
        .field("seat")
        .and_then(|seat| seat.parse().ok())
        .ok_or(Error::Protocol("join: no seat=".into()))?;
    println!("game={game} seat={seat}");

    let mut rng = Rng::new(opt.seed);
    loop {
        let event = client.next_event()?;
        if handle_event(&mut client, &game, seat, &event, &mut rng)? {
            break;
        }
    }
    client.command("quit")?;
    Ok(())
}

fn main() -> ExitCode {
    let opt = match parse_args(std::env::args().skip(1)) {
        Ok(opt) => opt,
        Err(why) => {
            eprintln!("{why}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&opt) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hipparchus-bot: {e}");
            ExitCode::FAILURE
        }
    }
}
