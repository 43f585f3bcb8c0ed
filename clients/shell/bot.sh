#!/usr/bin/env bash
# A bot in bash that plays uniformly random legal moves in any game the daemon serves, over
# bash's /dev/tcp.
#
#   bash bot.sh [--host H] [--port P] [--name NAME] [--seed N]
#               (--create [--kind KIND] [--option KEY=VALUE ...] | --game ID)
#
# --create makes a game (`new <kind> <options>`, `hipparchus` unless --kind says otherwise;
# --seed N adds seed=N unless an --option gives one) and takes a seat; --game joins that game.
# Prints `game=<id> seat=<n>` once seated, then follows the generic contract alone
# (protocol/PROTOCOL.md): whenever a `to-move` event names its seat it asks `legal` (a list of
# moves, or a `pick` of n items) and plays one at random. At `game-over` it prints the event's
# fields, `winners=<seats> scores=<per seat> resigned=<seat or ->` (Hipparchus's scores are the
# round wins), then exits 0. Errors go to standard error with exit status 1. To make the bot
# play well, replace choose() (see README.md).
set -euo pipefail

host=127.0.0.1 port=7460 game='' create=0 name=shbot seed='' kind=
options=()    # the KEY=VALUE options of `new`, from --option

usage() {
    echo "bot.sh: $1" >&2
    echo "usage: bash bot.sh [--host H] [--port P] [--name NAME] [--seed N]" \
        "(--create [--kind KIND] [--option KEY=VALUE ...] | --game ID)" >&2
    exit 2
}
die() { echo "bot.sh: $*" >&2; exit 1; }

while (($#)); do
    case $1 in
        --host) host=${2?}; shift 2 ;;
        --port) port=${2?}; shift 2 ;;
        --game) game=${2?}; shift 2 ;;
        --create) create=1; shift ;;
        --kind) kind=${2?}; shift 2 ;;
        --option | -o)
            [[ ${2-} =~ ^[^=[:space:]]+=[^[:space:]]+$ ]] || usage "--option wants KEY=VALUE, not '${2-}'"
            options+=("$2"); shift 2 ;;
        --name) name=${2?}; shift 2 ;;
        --seed) seed=${2?}; shift 2 ;;
        *) usage "unknown argument $1" ;;
    esac
done
if { ((create)) && [[ -n $game ]]; } || { ((!create)) && [[ -z $game ]]; }; then
    usage "give exactly one of --create and --game ID"
fi
if [[ -n $game ]] && { [[ -n $kind ]] || ((${#options[@]})); }; then
    usage "--kind and --option go with --create"
fi
kind=${kind:-hipparchus}
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
# its error code and message, unless $tolerate (e.g. `tolerate=game-over request ...`) lists
# its code: then request returns 1, with the code and message in $reply.
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
    # An answer without an id answers a line whose id the server could not read; an id is
    # echoed as sent, so compare numbers (`=005` answers 5), base 10 despite leading zeros.
    if [[ -n ${head:1} ]] && ! { [[ ${head:1} =~ ^[0-9]{1,18}$ ]] && ((10#${head:1} == id)); }; then
        die "answer $head to request $id"
    fi
    if [[ $head != '='* ]]; then
        # A refusal whose code the caller lists in $tolerate is its to handle (status 1).
        local code=${reply[0]-}
        code=${code%% *}
        if [[ -n $code && " ${tolerate-} " == *" $code "* ]]; then return 1; fi
        die "$* refused: ${reply[*]}"
    fi
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

# in_list N LIST: true when the integer N is in LIST, a protocol list such as `0,2` (`-` is empty).
in_list() {
    local item
    local -a items
    IFS=, read -r -a items <<<"$2"
    for item in "${items[@]}"; do [[ $item == "$1" ]] && return 0; done
    return 1
}

# choose WORD...: the bot's whole strategy. The words are `legal`'s answer: either the legal
# moves (pick one), or `pick <n> <item>... [to=<seats>]`: the move is n distinct items joined by
# `,` (the i-th goes to the i-th seat of to=), here n items drawn at random (a partial
# Fisher-Yates shuffle). Sets $choice; not printed for $(...), since RANDOM in a subshell would
# not advance the seeded sequence.
choose() {
    local -a items
    local n i j swap
    if [[ ${1-} != pick ]]; then
        items=("$@")
        choice=${items[RANDOM % ${#items[@]}]}
        return
    fi
    n=$2
    items=("${@:3}")
    if ((${#items[@]})) && [[ ${items[-1]} == to=* ]]; then unset 'items[-1]'; fi
    if ! [[ $n =~ ^[0-9]+$ ]] || ((n == 0 || n > ${#items[@]})); then
        die "cannot pick $n of ${#items[@]} items"
    fi
    for ((i = 0; i < n; i++)); do
        j=$((i + RANDOM % (${#items[@]} - i)))
        swap=${items[i]} items[i]=${items[j]} items[j]=$swap
    done
    choice=$(IFS=,; printf '%s' "${items[*]:0:n}")
}

if ((create)); then
    have_seed=0
    for option in "${options[@]}"; do [[ $option == seed=* ]] && have_seed=1; done
    if [[ -n $seed ]] && ((!have_seed)); then options+=("seed=$seed"); fi
    request new "$kind" "${options[@]}"
    game=$(reply_field game)
fi
request join "$game" "name=$name"
seat=$(reply_field seat)
echo "game=$game seat=$seat"

while next_event; do
    read -r -a words <<<"${line#\*}"
    [[ ${words[0]} == "$game" ]] || continue   # a server event or another game
    event_kind=${words[2]}
    fields=("${words[@]:3}")
    case $event_kind in
        to-move)
            # The event may be older than our last move (in a simultaneous move, others' moves
            # announce the seats still to move): `legal` answers for now, empty once we moved.
            if in_list "$seat" "$(field seats "${fields[@]}")"; then
                request legal "$game"
                read -r -a moves <<<"${reply[*]}"
                if ((${#moves[@]})); then
                    choose "${moves[@]}"
                    # Losing a race with the end of the game (a resignation) is not an error.
                    tolerate='not-your-turn game-over' request play "$game" "$choice" || true
                fi
            fi ;;
        game-over)
            winners=$(field winners "${fields[@]}") scores=$(field scores "${fields[@]}")
            [[ $winners == - ]] && winners=''
            [[ $scores == - ]] && scores=''
            echo "winners=$winners scores=$scores resigned=$(field resigned "${fields[@]}")"
            request quit
            exit 0 ;;
    esac
done
die "the server closed the connection before the game ended"
