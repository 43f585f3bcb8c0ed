//! A Hipparchus bot that plays uniformly random legal moves.
//!
//! ```text
//! hipparchus-bot [--host H] [--port P] (--create | --game ID) [--name NAME] [--seed N] [--verbose]
//! ```
//!
//! `--create` makes a game (`new hipparchus`, with `seed=N` if `--seed` is given) and takes a
//! seat in it; `--game` takes a seat in that game. Once seated it prints `game=<id> seat=<n>`; it
//! plays until the match is over, prints `winner=<n> round_wins=<a>,<b>` and exits 0 (the
//! contract shared by every bot in clients/, see tests/clients/harness.py). `--seed` also makes
//! its own choices reproducible; `--verbose` traces the protocol on stderr. The protocol is
//! handled by the library (src/lib.rs); the decision is `choose_move` below.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::process::ExitCode;

use hipparchus_client::{Client, Error, ErrorCode, Event};

struct Options {
    host: String,
    port: u16,
    game: Option<String>, // None with --create
    name: String,
    seed: Option<i64>,
    verbose: bool,
}

const USAGE: &str = "usage: hipparchus-bot [--host HOST] [--port PORT] (--create | --game ID) \
                     [--name NAME] [--seed N] [--verbose]";

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut opt = Options {
        host: "127.0.0.1".into(),
        port: 7460,
        game: None,
        name: "rustbot".into(),
        seed: None,
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
            "--create" => create = true,
            "--verbose" => opt.verbose = true,
            _ => return Err(format!("unknown argument: {arg}")),
        }
    }
    if create == opt.game.is_some() {
        return Err("give exactly one of --create and --game".into());
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

/// The bot's whole strategy: pick one of the legal moves. Make it play well here.
fn choose_move<'a>(moves: &[&'a str], rng: &mut Rng) -> &'a str {
    moves[rng.below(moves.len())]
}

/// Our seat is to move: ask for the legal moves, choose one, play it.
fn play_turn(client: &mut Client, game: &str, rng: &mut Rng) -> Result<(), Error> {
    let legal = client.command(&format!("legal {game}"))?;
    let moves: Vec<&str> = legal.words().collect();
    if moves.is_empty() {
        return Ok(()); // the turn event was stale: we need not move
    }
    let choice = choose_move(&moves, rng);
    match client.command(&format!("play {game} {choice}")) {
        // Losing a race with the end of the game is not an error.
        Err(Error::Server {
            code: ErrorCode::NotYourTurn | ErrorCode::GameOver,
            ..
        }) => Ok(()),
        other => other.map(|_| ()),
    }
}

/// React to one event of any game; `Ok(true)` once our match is over.
fn handle_event(
    client: &mut Client,
    game: &str,
    seat: &str,
    event: &Event,
    rng: &mut Rng,
) -> Result<bool, Error> {
    if event.game == "server" && event.kind == "shutdown" {
        return Err(Error::Protocol("the server is shutting down".into()));
    }
    if event.game != game {
        return Ok(false); // another game, or another server event
    }
    let field = |key| event.field(key).unwrap_or("?");
    let ours = event.field("seat") == Some(seat);
    match event.kind.as_str() {
        "turn" if ours => play_turn(client, game, rng)?,
        "played" if !ours => println!("opponent played {}", field("play")),
        "round-over" => println!(
            "round {} won by seat {} (scores {})",
            field("round_number"),
            field("result.winner"),
            field("result.totals")
        ),
        "match-over" => {
            println!(
                "winner={} round_wins={}",
                field("winner"),
                field("round_wins")
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
            // With a seed the deal is reproducible too (the game is then marked fixed_deal).
            let options = opt
                .seed
                .map(|seed| format!(" seed={seed}"))
                .unwrap_or_default();
            let created = client.command(&format!("new hipparchus{options}"))?;
            let game = created
                .field("game")
                .ok_or(Error::Protocol("new: no game=".into()))?;
            game.to_string()
        }
    };
    let joined = client.command(&format!("join {game} name={}", opt.name))?;
    let seat = joined
        .field("seat")
        .ok_or(Error::Protocol("join: no seat=".into()))?
        .to_string();
    println!("game={game} seat={seat}");

    let mut rng = Rng::new(opt.seed);
    loop {
        let event = client.next_event()?;
        if handle_event(&mut client, &game, &seat, &event, &mut rng)? {
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
