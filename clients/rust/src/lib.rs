//! A client for the hipparchusd line protocol, version 1 (`protocol/PROTOCOL.md`), std only.
//!
//! The server sends two kinds of lines: responses (`=` or `?` up to an empty line), one per
//! request, and events (`* ...`), pushed at any time. [`Client::command`] sends a request and
//! returns its response, queueing the events that arrive meanwhile; [`Client::next_event`] hands
//! them out in order. This module knows nothing about what to play.
//!
//! Text mode only. Structured payloads are `key=value` words (PROTOCOL.md section 6):
//! [`Response::field`] and [`Event::field`] pick one out, [`int_list`] reads a list value such
//! as `to-move`'s `seats=0,2`.
//!
//! Every game speaks the same contract: `to-move seats=...` names the seats that must move,
//! `legal <game>` lists their moves or describes a choice ([`Legal::parse`]), `play` makes one,
//! `game-over winners=... scores=...` ends the game.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::net::{TcpStream, ToSocketAddrs};

/// The protocol's error codes (PROTOCOL.md section 3); `Other` keeps a code this client does
/// not know (from a newer server).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorCode {
    Syntax,
    UnknownCommand,
    UnknownKind,
    BadOption,
    UnknownGame,
    NotSeated,
    AlreadySeated,
    SeatTaken,
    NotYourTurn,
    IllegalMove,
    GameOver,
    GameNotOver,
    NotStarted,
    NotFollowing,
    BadToken,
    LineTooLong,
    Limit,
    ShuttingDown,
    Internal,
    Other(String),
}

/// Every known code with its wire form.
const CODES: [(ErrorCode, &str); 19] = [
    (ErrorCode::Syntax, "syntax"),
    (ErrorCode::UnknownCommand, "unknown-command"),
    (ErrorCode::UnknownKind, "unknown-kind"),
    (ErrorCode::BadOption, "bad-option"),
    (ErrorCode::UnknownGame, "unknown-game"),
    (ErrorCode::NotSeated, "not-seated"),
    (ErrorCode::AlreadySeated, "already-seated"),
    (ErrorCode::SeatTaken, "seat-taken"),
    (ErrorCode::NotYourTurn, "not-your-turn"),
    (ErrorCode::IllegalMove, "illegal-move"),
    (ErrorCode::GameOver, "game-over"),
    (ErrorCode::GameNotOver, "game-not-over"),
    (ErrorCode::NotStarted, "not-started"),
    (ErrorCode::NotFollowing, "not-following"),
    (ErrorCode::BadToken, "bad-token"),
    (ErrorCode::LineTooLong, "line-too-long"),
    (ErrorCode::Limit, "limit"),
    (ErrorCode::ShuttingDown, "shutting-down"),
    (ErrorCode::Internal, "internal"),
];

impl ErrorCode {
    /// The code for its wire form, e.g. `"illegal-move"` -> `IllegalMove`.
    pub fn from_wire(code: &str) -> ErrorCode {
        CODES
            .iter()
            .find(|(_, wire)| *wire == code)
            .map(|(known, _)| known.clone())
            .unwrap_or_else(|| ErrorCode::Other(code.to_string()))
    }

    /// The wire form, e.g. `"illegal-move"`.
    pub fn as_wire(&self) -> &str {
        match self {
            ErrorCode::Other(code) => code,
            known => CODES
                .iter()
                .find(|(c, _)| c == known)
                .map_or("", |(_, wire)| wire),
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_wire())
    }
}

/// Why a request or a read failed.
#[derive(Debug)]
pub enum Error {
    /// The connection failed.
    Io(io::Error),
    /// The server closed the connection.
    Closed,
    /// The server sent something this protocol does not allow.
    Protocol(String),
    /// The server answered the request with `?`: it changed nothing.
    Server { code: ErrorCode, message: String },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(e) => write!(f, "connection failed: {e}"),
            Error::Closed => write!(f, "connection closed by the server"),
            Error::Protocol(what) => write!(f, "protocol error: {what}"),
            Error::Server { code, message } => write!(f, "{code}: {message}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Io(e)
    }
}

/// Find the word `key=value` among whitespace-separated words and return `value`.
pub fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.split_whitespace()
        .find_map(|word| word.strip_prefix(key)?.strip_prefix('='))
}

/// A flattened list of integers (PROTOCOL.md section 6: `0,2`; `-` is empty), e.g. `to-move`'s
/// `seats`, `game-over`'s `winners` and `scores`. `None` if an item is not an integer.
pub fn int_list(value: &str) -> Option<Vec<i64>> {
    if value == "-" || value.is_empty() {
        return Some(Vec::new());
    }
    value.split(',').map(|item| item.parse().ok()).collect()
}

/// A `legal` answer, read the same way for every game (PROTOCOL.md, `legal`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Legal {
    /// The legal move words (empty when the seat need not move now).
    Moves(Vec<String>),
    /// `pick <count> <item>... [to=<seat>,...]`: the move is `count` distinct items joined by
    /// `,`; the i-th chosen item goes to seat `to[i]` (`to` is `None` without `to=`).
    Pick {
        count: usize,
        items: Vec<String>,
        to: Option<Vec<i64>>,
    },
}

impl Legal {
    /// Read a `legal` response. `Err(Error::Protocol)` for a malformed `pick`.
    pub fn parse(response: &Response) -> Result<Legal, Error> {
        let mut words: Vec<String> = response.words().map(str::to_string).collect();
        if words.first().map(String::as_str) != Some("pick") {
            return Ok(Legal::Moves(words));
        }
        let bad = || Error::Protocol(format!("bad pick answer: {}", response.lines.join(" ")));
        let count = words.get(1).and_then(|n| n.parse().ok()).ok_or_else(bad)?;
        let mut to = None;
        if words.len() > 2 && words[words.len() - 1].starts_with("to=") {
            let last = words.pop().unwrap_or_default();
            to = Some(int_list(&last[3..]).ok_or_else(bad)?);
        }
        let items = words.split_off(2);
        Ok(Legal::Pick { count, items, to })
    }

    /// Whether there is a move to make: a move word, or at least `count` items to pick.
    pub fn can_move(&self) -> bool {
        match self {
            Legal::Moves(moves) => !moves.is_empty(),
            Legal::Pick { count, items, .. } => *count > 0 && *count <= items.len(),
        }
    }
}

/// A successful response: its payload lines (none for an empty payload).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub lines: Vec<String>,
}

impl Response {
    /// The value of `key=value` anywhere in the payload.
    pub fn field(&self, key: &str) -> Option<&str> {
        self.lines.iter().find_map(|line| field(line, key))
    }

    /// Every word of the payload, in order (e.g. the moves of `legal`).
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().flat_map(|line| line.split_whitespace())
    }
}

/// One event: `* <game> <seq> <kind> key=value ...`, or `* server <kind> key=value ...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The game id, or `"server"` for a server event.
    pub game: String,
    /// The game's event counter; `None` for a server event.
    pub seq: Option<u64>,
    /// e.g. `"to-move"`, `"played"`, `"game-over"`, `"hello"`.
    pub kind: String,
    /// The `key=value` words after the kind.
    pub fields: String,
}

impl Event {
    /// Parse an event line (with its leading `*`).
    pub fn parse(line: &str) -> Result<Event, Error> {
        let bad = || Error::Protocol(format!("bad event line: {line}"));
        let mut words = line
            .strip_prefix('*')
            .ok_or_else(bad)?
            .split(' ')
            .filter(|w| !w.is_empty());
        let game = words.next().ok_or_else(bad)?.to_string();
        let seq = if game == "server" {
            None
        } else {
            Some(words.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?)
        };
        let kind = words.next().ok_or_else(bad)?.to_string();
        let fields = words.collect::<Vec<_>>().join(" ");
        Ok(Event {
            game,
            seq,
            kind,
            fields,
        })
    }

    /// The value of `key=value` in the event's fields.
    pub fn field(&self, key: &str) -> Option<&str> {
        field(&self.fields, key)
    }
}

/// A connection to hipparchusd.
pub struct Client {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    next_id: u64,
    events: VecDeque<Event>,
    trace: bool,
}

impl Client {
    /// Connect to `addr` (e.g. `("127.0.0.1", 7460)`). The greeting is the first event.
    pub fn connect(addr: impl ToSocketAddrs) -> Result<Client, Error> {
        let stream = TcpStream::connect(addr)?;
        // Requests are small and each waits for its answer: send them at once.
        stream.set_nodelay(true)?;
        Ok(Client {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
            next_id: 1,
            events: VecDeque::new(),
            trace: false,
        })
    }

    /// Echo every line sent (`> `) and received (`< `) to stderr.
    pub fn set_trace(&mut self, on: bool) {
        self.trace = on;
    }

    /// Send one request (e.g. `"play g1 2E@5"`, without id or newline) and wait for its
    /// response. A `?` answer is `Err(Error::Server { .. })`. Events that arrive first are
    /// queued for [`Client::next_event`].
    pub fn command(&mut self, request: &str) -> Result<Response, Error> {
        if request.contains('\n') {
            return Err(Error::Protocol("a request must be one line".into()));
        }
        let id = self.next_id;
        self.next_id += 1;
        let line = format!("{id} {request}");
        if self.trace {
            eprintln!("> {line}");
        }
        self.writer.write_all(format!("{line}\n").as_bytes())?;
        loop {
            let line = self.read_line()?;
            if line.starts_with('*') {
                self.events.push_back(Event::parse(&line)?);
            } else if line.starts_with('=') || line.starts_with('?') {
                return self.read_response(&line, id);
            } else if !line.is_empty() {
                return Err(Error::Protocol(format!("unexpected line: {line}")));
            }
        }
    }

    /// The next event, queued or read from the connection (blocking).
    pub fn next_event(&mut self) -> Result<Event, Error> {
        if let Some(event) = self.events.pop_front() {
            return Ok(event);
        }
        loop {
            let line = self.read_line()?;
            if line.starts_with('*') {
                return Event::parse(&line);
            } else if !line.is_empty() {
                return Err(Error::Protocol(format!("unexpected line: {line}")));
            }
        }
    }

    /// One line without its LF (or CRLF). `read_until` gathers it across partial reads.
    fn read_line(&mut self) -> Result<String, Error> {
        let mut bytes = Vec::new();
        if self.reader.read_until(b'\n', &mut bytes)? == 0 || bytes.last() != Some(&b'\n') {
            return Err(Error::Closed);
        }
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        let line =
            String::from_utf8(bytes).map_err(|_| Error::Protocol("line is not UTF-8".into()))?;
        if self.trace {
            eprintln!("< {line}");
        }
        Ok(line)
    }

    /// Parse a response whose first line is `first` (`=id payload` or `?id code message`) and
    /// read the rest of it, up to the empty line that ends every response.
    fn read_response(&mut self, first: &str, id: u64) -> Result<Response, Error> {
        let (status, rest) = first.split_at(1);
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (echoed, rest) = rest.split_at(digits);
        // No id at all is accepted: the server cannot echo an id it could not parse.
        if !echoed.is_empty() && echoed.parse::<u64>().ok() != Some(id) {
            return Err(Error::Protocol(format!(
                "response to another request: {first}"
            )));
        }
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        let mut lines = Vec::new();
        if !rest.is_empty() {
            lines.push(rest.to_string());
        }
        loop {
            let line = self.read_line()?;
            if line.is_empty() {
                break;
            }
            lines.push(line);
        }
        if status == "=" {
            return Ok(Response { lines });
        }
        let (code, message) = rest.split_once(' ').unwrap_or((rest, ""));
        Err(Error::Server {
            code: ErrorCode::from_wire(code),
            message: message.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_spec_events() {
        let e = Event::parse("* g1 3 hand round_number=1 seat=0 hand=SSMEEMSEMMSEES").unwrap();
        assert_eq!(
            (e.game.as_str(), e.seq, e.kind.as_str()),
            ("g1", Some(3), "hand")
        );
        assert_eq!(e.field("hand"), Some("SSMEEMSEMMSEES"));
        assert_eq!(e.field("round"), None);
        let e = Event::parse("* server hello name=hipparchusd version=0.1.0 protocol=1").unwrap();
        assert_eq!(
            (e.seq, e.kind.as_str(), e.field("protocol")),
            (None, "hello", Some("1"))
        );
        assert!(Event::parse("* g1 x turn seat=0").is_err());
    }

    #[test]
    fn finds_fields_across_lines() {
        let r = Response {
            lines: vec!["game=g1".into(), "view.lead=2S".into()],
        };
        assert_eq!(r.field("view.lead"), Some("2S"));
        assert_eq!(r.field("game"), Some("g1"));
        assert_eq!(
            ErrorCode::from_wire("not-your-turn"),
            ErrorCode::NotYourTurn
        );
        assert_eq!(
            ErrorCode::from_wire("new-code"),
            ErrorCode::Other("new-code".into())
        );
    }

    #[test]
    fn reads_legal_answers_of_any_game() {
        let answer = |line: &str| Response {
            lines: vec![line.to_string()],
        };
        assert_eq!(
            Legal::parse(&answer("1S@1 2S@1")).unwrap(),
            Legal::Moves(vec!["1S@1".into(), "2S@1".into()])
        );
        assert!(!Legal::parse(&Response { lines: vec![] })
            .unwrap()
            .can_move());
        let pick = Legal::parse(&answer("pick 2 E1 J3 V1 to=1,2")).unwrap();
        assert_eq!(
            pick,
            Legal::Pick {
                count: 2,
                items: vec!["E1".into(), "J3".into(), "V1".into()],
                to: Some(vec![1, 2]),
            }
        );
        assert!(pick.can_move());
        let choice = Legal::parse(&answer("pick 1 self others")).unwrap();
        assert!(matches!(
            choice,
            Legal::Pick {
                count: 1,
                to: None,
                ..
            }
        ));
        assert!(!Legal::parse(&answer("pick 3 a b")).unwrap().can_move());
        assert!(Legal::parse(&answer("pick x a b")).is_err());
        assert!(Legal::parse(&answer("pick 1 a to=1,x")).is_err());
        assert_eq!(int_list("0,2"), Some(vec![0, 2]));
        assert_eq!(int_list("-23,0"), Some(vec![-23, 0]));
        assert_eq!(int_list("-"), Some(vec![]));
        assert_eq!(int_list("a"), None);
    }
}
