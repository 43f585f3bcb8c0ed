#!/usr/bin/env bash
# A Hipparchus bot in bash that plays uniformly random legal moves, over bash's /dev/tcp.
#
#   bash bot.sh [--host H] [--port P] (--create | --game ID) [--name NAME] [--seed N]
#
# Prints `game=<id> seat=<n>` once seated and `winner=<n> round_wins=<a>,<b>` when the match is
# over (exit 0). Errors go to standard error with exit status 1. The protocol is in
# protocol/PROTOCOL.md; to make the bot play well, replace choose() (see README.md).
set -euo pipefail

host=127.0.0.1 port=7460 game='' create=0 name=shbot seed=''

usage() {
    echo "bot.sh: $1" >&2
    echo "usage: bash bot.sh [--host H] [--port P] (--create | --game ID) [--name NAME] [--seed N]" >&2
    exit 2
}
die() { echo "bot.sh: $*" >&2; exit 1; }

while (($#)); do
    case $1 in
        --host) host=${2?}; shift 2 ;;
        --port) port=${2?}; shift 2 ;;
        --game) game=${2?}; shift 2 ;;
        --create) create=1; shift ;;
        --name) name=${2?}; shift 2 ;;
        --seed) seed=${2?}; shift 2 ;;
        *) usage "unknown argument $1" ;;
    esac
done
if { ((create)) && [[ -n $game ]]; } || { ((!create)) && [[ -z $game ]]; }; then
    usage "give exactly one of --create and --game ID"
fi
if [[ -n $seed ]]; then
    [[ $seed =~ ^[0-9]+$ ]] || usage "--seed takes a non-negative integer"
    RANDOM=$seed
fi

exec 3<>"/dev/tcp/$host/$port" || die "cannot connect to $host:$port"

# read_line: the next line from the server into $line (CR dropped); dies if the server is gone.
read_line() {
    IFS= read -r line <&3 || die "the server closed the connection"
    line=${line%$'\r'}
}

read_line
[[ $line == '* server hello '* ]] || die "expected the greeting, got: $line"

events=()     # event lines that arrived while a request waited for its answer, oldest first
next_id=1
reply=()      # the payload lines of the last successful answer

# request WORD...: send "<id> WORD..." and read its answer into $reply. A `?` answer dies with
# its error code and message (this bot never expects one).
request() {
    local id=$((next_id++)) head
    printf '%s %s\n' "$id" "$*" >&3
    while read_line; do
        case $line in
            '*'*) events+=("$line") ;;
            [=?]*) break ;;
            *[![:space:]]*) die "unexpected line: $line" ;;
        esac
    done
    head=${line%% *}
    reply=()
    [[ $line == *' '* ]] && reply+=("${line#* }")
    while read_line && [[ -n $line ]]; do reply+=("$line"); done
    # (an answer without an id answers a line whose id the server could not read)
    [[ ${head:1} == "$id" || -z ${head:1} ]] || die "answer $head to request $id"
    [[ $head == '='* ]] || die "$* refused: ${reply[*]}"
}

# next_event: the next event line into $line (kept ones first).
next_event() {
    if ((${#events[@]})); then
        line=${events[0]}
        events=("${events[@]:1}")
        return
    fi
    read_line
    while [[ -z ${line//[[:space:]]/} ]]; do read_line; done
    [[ $line == '*'* ]] || die "expected an event, got: $line"
}

# field KEY WORD...: print the value of KEY=value among the words (empty if absent).
field() {
    local key=$1 word
    shift
    for word; do
        if [[ $word == "$key="* ]]; then
            printf '%s' "${word#*=}"
            return
        fi
    done
}

# reply_field KEY: print the value of KEY=value in the last answer's payload.
reply_field() {
    local -a words
    read -r -a words <<<"${reply[*]}"
    field "$1" "${words[@]}"
}

# choose MOVE...: the bot's whole strategy, one of the legal moves at random, into $choice.
# (Not printed for $(...): RANDOM in a subshell would not advance the seeded sequence.)
choose() {
    local -a moves=("$@")
    choice=${moves[RANDOM % ${#moves[@]}]}
}

if ((create)); then
    if [[ -n $seed ]]; then request new hipparchus "seed=$seed"; else request new hipparchus; fi
    game=$(reply_field game)
fi
request join "$game" "name=$name"
seat=$(reply_field seat)
echo "game=$game seat=$seat"

while next_event; do
    read -r -a words <<<"${line#\*}"
    [[ ${words[0]} == "$game" ]] || continue   # a server event or another game
    kind=${words[2]}
    fields=("${words[@]:3}")
    case $kind in
        turn)
            if [[ $(field seat "${fields[@]}") == "$seat" ]]; then
                request legal "$game"
                read -r -a moves <<<"${reply[*]}"
                if ((${#moves[@]})); then
                    choose "${moves[@]}"
                    request play "$game" "$choice"
                fi
            fi ;;
        played)
            [[ $(field seat "${fields[@]}") == "$seat" ]] ||
                echo "opponent played $(field play "${fields[@]}")" ;;
        round-over)
            echo "round $(field round_number "${fields[@]}") won by seat" \
                "$(field result.winner "${fields[@]}") (scores $(field result.totals "${fields[@]}"))" ;;
        match-over)
            echo "winner=$(field winner "${fields[@]}") round_wins=$(field round_wins "${fields[@]}")"
            request quit
            exit 0 ;;
    esac
done
