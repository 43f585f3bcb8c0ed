/*
 * bot.c - a bot that plays uniformly random legal moves in any game the daemon serves.
 *
 *   hipparchus-bot [--host H] [--port P] [--name NAME] [--seed N] [--verbose]
 *                  (--create [--kind KIND] [--option KEY=VALUE ...] | --game ID)
 *
 * --create makes a game ("new <kind> <options>", hipparchus unless --kind says otherwise;
 * --seed N adds seed=N unless an --option gives one) and takes a seat in it; --game takes a
 * seat in that game. Once seated it prints "game=<id> seat=<n>", then follows the generic
 * contract alone (protocol/PROTOCOL.md): whenever a "to-move" event names its seat it asks
 * "legal" (a list of moves, or a "pick" of n items) and plays one at random. At "game-over" it
 * prints the event's fields, "winners=<seats> scores=<per seat> resigned=<seat or ->"
 * (Hipparchus's scores are the round wins), and exits 0 (the contract shared by every bot in
 * clients/, see tests/clients/harness.py). --seed also makes its own choices
 * reproducible; --verbose traces the protocol on stderr.
 * In a timed game (--option clock=5m+3s) each "to-move" also gives "left_ms", the
 * milliseconds each seat named has left (protocol/PROTOCOL.md section 10): the bot keeps its
 * own, and after the game-over line prints "clock decisions=<n> left_ms=<ms> timeout=<seat>"
 * (its decisions, what its clock had at its last to-move, the seat whose time ran out if that
 * ended the game, else "-"). A bot that thinks would budget by it: see time_for().
 * The protocol is handled by hipparchus.c; the decision is choose_move() below.
 */
#define _POSIX_C_SOURCE 200809L

#include "hipparchus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct options {
    const char *host;
    const char *port;
    const char *game; /* NULL with --create */
    const char *name;
    const char *seed; /* NULL: unseeded */
    const char *kind;
    char **new_options; /* the --option values, n_options of them */
    size_t n_options;
    int create;
    int verbose;
};

static void usage(FILE *out)
{
    fprintf(out, "usage: hipparchus-bot [--host HOST] [--port PORT] [--name NAME] [--seed N]"
                 " [--verbose] (--create [--kind KIND] [--option KEY=VALUE ...] | --game ID)\n");
}

static int parse_args(int argc, char **argv, struct options *opt)
{
    int i;
    opt->host = "127.0.0.1";
    opt->port = "7460";
    opt->game = NULL;
    opt->name = "cbot";
    opt->seed = NULL;
    opt->kind = NULL;
    opt->n_options = 0;
    /* At most one option per argument: argc slots are enough. */
    opt->new_options = malloc((size_t)argc * sizeof *opt->new_options);
    if (opt->new_options == NULL) {
        fprintf(stderr, "out of memory\n");
        return -1;
    }
    opt->create = 0;
    opt->verbose = 0;
    for (i = 1; i < argc; i++) {
        const char **target = NULL;
        if (strcmp(argv[i], "--host") == 0) {
            target = &opt->host;
        } else if (strcmp(argv[i], "--port") == 0) {
            target = &opt->port;
        } else if (strcmp(argv[i], "--game") == 0) {
            target = &opt->game;
        } else if (strcmp(argv[i], "--name") == 0) {
            target = &opt->name;
        } else if (strcmp(argv[i], "--seed") == 0) {
            target = &opt->seed;
        } else if (strcmp(argv[i], "--kind") == 0) {
            target = &opt->kind;
        } else if (strcmp(argv[i], "--option") == 0 || strcmp(argv[i], "-o") == 0) {
            const char *option = i + 1 < argc ? argv[i + 1] : "";
            const char *equals = strchr(option, '=');
            if (equals == NULL || equals == option || equals[1] == '\0'
                || strpbrk(option, " \t\r\n") != NULL) {
                fprintf(stderr, "--option wants KEY=VALUE, not '%s'\n", option);
                return -1;
            }
            opt->new_options[opt->n_options++] = argv[++i];
            continue;
        } else if (strcmp(argv[i], "--create") == 0) {
            opt->create = 1;
            continue;
        } else if (strcmp(argv[i], "--verbose") == 0) {
            opt->verbose = 1;
            continue;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, "unknown argument: %s\n", argv[i]);
            return -1;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "%s needs a value\n", argv[i]);
            return -1;
        }
        *target = argv[++i];
    }
    if (opt->create == (opt->game != NULL)) {
        fprintf(stderr, "give exactly one of --create and --game\n");
        return -1;
    }
    if (opt->game != NULL && (opt->kind != NULL || opt->n_options > 0)) {
        fprintf(stderr, "--kind and --option go with --create\n");
        return -1;
    }
    if (opt->kind == NULL) {
        opt->kind = "hipparchus";
    }
    if (opt->seed != NULL) {
        char *end;
        strtol(opt->seed, &end, 10);
        if (*opt->seed == '\0' || *end != '\0') {
            fprintf(stderr, "--seed takes an integer\n");
            return -1;
        }
    }
    return 0;
}

/* A uniform integer in [0, n), n > 0: rand() % n would favour small values, so draws from
 * the incomplete top range are thrown back. */
static size_t random_below(size_t n)
{
    unsigned long range = (unsigned long)RAND_MAX + 1UL;
    unsigned long limit = range - range % n;
    unsigned long r;
    do {
        r = (unsigned long)rand();
    } while (r >= limit);
    return (size_t)(r % n);
}

/* The bot's whole strategy: one of the legal moves, written into move (movelen bytes).
 * For a list of moves, one of them; for a pick, legal->pick distinct items joined by ','
 * (a partial Fisher-Yates shuffle of the items, which it reorders). Make it play well here.
 * Returns 0, or -1 when the move does not fit in movelen. */
static int choose_move(hp_legal *legal, char *move, size_t movelen)
{
    size_t i, used = 0;

    if (legal->pick == 0) {
        const char *word = legal->items[random_below(legal->count)];
        if (strlen(word) >= movelen) {
            return -1;
        }
        strcpy(move, word);
        return 0;
    }
    move[0] = '\0';
    for (i = 0; i < legal->pick; i++) {
        size_t j = i + random_below(legal->count - i), len;
        char *swap = legal->items[i];
        legal->items[i] = legal->items[j];
        legal->items[j] = swap;
        len = strlen(legal->items[i]);
        if (used + len + 2 > movelen) {
            return -1;
        }
        if (i > 0) {
            move[used++] = ',';
        }
        memcpy(move + used, legal->items[i], len + 1);
        used += len;
    }
    return 0;
}

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "hipparchus-bot: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static void die_response(const char *request, const hp_response *resp)
{
    fprintf(stderr, "hipparchus-bot: %s: %s: %s\n", request, resp->code, resp->message);
    exit(1);
}

/* Our seat is to move: ask for the legal moves, choose one, play it. */
static void play_turn(hp_client *c, const char *game)
{
    hp_response answer, played;
    hp_legal legal;
    char move[1024];

    if (hp_command(c, &answer, "legal %s", game) < 0) {
        die("legal", hp_last_error(c));
    }
    if (!answer.ok) {
        die_response("legal", &answer);
    }
    if (hp_parse_legal(answer.payload, &legal) < 0) {
        die("legal: an answer this client cannot read", answer.payload);
    }
    hp_response_free(&answer);
    /* No move: the to-move event was stale (in a simultaneous move, others' moves announce the
     * seats still to move, ours among them until our move lands). */
    if (hp_legal_can_move(&legal)) {
        if (choose_move(&legal, move, sizeof move) < 0) {
            die("legal: a move too long for this bot", NULL);
        }
        if (hp_command(c, &played, "play %s %s", game, move) < 0) {
            die("play", hp_last_error(c));
        }
        /* Losing a race with the end of the game is not an error; anything else is. */
        if (!played.ok && played.error != HP_ERR_NOT_YOUR_TURN
            && played.error != HP_ERR_GAME_OVER) {
            die_response("play", &played);
        }
        hp_response_free(&played);
    }
    hp_legal_free(&legal);
}

/* The bot's own clock, as the server tells it: the milliseconds it had at its last to-move
 * (-1: an untimed game), and the decisions it made. */
static long my_left_ms = -1;
static long my_decisions = 0;
/* With --verbose, the clock is traced on stderr too. */
static int trace_clock = 0;

/* The milliseconds a bot that thinks could spend on a decision with left_ms on its clock and
 * about decisions_left to go (UCI engines assume 30 when told nothing): its share, less 50 ms
 * for the network. The random bot needs none of it. */
static long time_for(long left_ms, long decisions_left)
{
    long share = (left_ms - 50) / (decisions_left > 0 ? decisions_left : 1);
    return share > 0 ? share : 0;
}

/* The index-th item (from 0) of the flattened list value list ("0,2", "-" empty), copied into
 * out; 1 if there is one, else 0. */
static int list_item(const char *list, size_t index, char *out, size_t outlen)
{
    size_t i = 0, len;
    const char *start = list, *end;

    if (strcmp(list, "-") == 0) {
        return 0;
    }
    for (;;) {
        end = strchr(start, ',');
        len = end != NULL ? (size_t)(end - start) : strlen(start);
        if (i == index) {
            if (len >= outlen) {
                return 0;
            }
            memcpy(out, start, len);
            out[len] = '\0';
            return 1;
        }
        if (end == NULL) {
            return 0;
        }
        start = end + 1;
        i++;
    }
}

/* Note what a to-move's fields say of our clock: left_ms[i] for seats[i] == our seat. */
static void note_clock(const char *fields, const char *seats, const char *seat)
{
    char left[512], item[32], value[32];
    size_t i;

    if (!hp_field(fields, "left_ms", left, sizeof left)) {
        return; /* untimed */
    }
    for (i = 0; list_item(seats, i, item, sizeof item); i++) {
        if (strcmp(item, seat) == 0 && list_item(left, i, value, sizeof value)) {
            my_left_ms = strtol(value, NULL, 10);
            if (trace_clock) {
                fprintf(stderr, "clock: %ld ms left; a thinking bot could take %ld ms\n",
                        my_left_ms, time_for(my_left_ms, 30));
            }
            return;
        }
    }
}

/* A list value as printed by the bot: "-" (empty) becomes "". */
static const char *list_text(const char *value)
{
    return strcmp(value, "-") == 0 ? "" : value;
}

/* React to one event of any game; returns 1 once our game is over. */
static int handle_event(hp_client *c, const char *game, const char *seat, const hp_event *ev)
{
    char seats[256];

    if (strcmp(ev->game, "server") == 0 && strcmp(ev->kind, "shutdown") == 0) {
        die("the server is shutting down", NULL);
    }
    if (strcmp(ev->game, game) != 0) {
        return 0; /* another game, or another server event */
    }
    if (strcmp(ev->kind, "to-move") == 0) {
        if (hp_field(ev->fields, "seats", seats, sizeof seats) && hp_list_has(seats, seat)) {
            note_clock(ev->fields, seats, seat);
            play_turn(c, game);
            my_decisions++;
        }
    } else if (strcmp(ev->kind, "game-over") == 0) {
        char winners[256], scores[256], resigned[32], timeout[32];
        hp_field(ev->fields, "winners", winners, sizeof winners);
        hp_field(ev->fields, "scores", scores, sizeof scores);
        if (!hp_field(ev->fields, "resigned", resigned, sizeof resigned)) {
            strcpy(resigned, "-");
        }
        printf("winners=%s scores=%s resigned=%s\n", list_text(winners), list_text(scores),
               resigned);
        if (my_left_ms >= 0) {
            if (!hp_field(ev->fields, "timeout", timeout, sizeof timeout)) {
                strcpy(timeout, "-");
            }
            printf("clock decisions=%ld left_ms=%ld timeout=%s\n", my_decisions, my_left_ms,
                   timeout);
        }
        fflush(stdout);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct options opt;
    hp_client *c;
    hp_response resp;
    hp_event ev;
    char err[256], game[64], seat[16], value[64];
    int done = 0;

    if (parse_args(argc, argv, &opt) < 0) {
        usage(stderr);
        return 2;
    }
    if (opt.seed != NULL) {
        srand((unsigned)strtol(opt.seed, NULL, 10));
    } else {
        srand((unsigned)time(NULL) ^ ((unsigned)getpid() << 8));
    }
    c = hp_connect(opt.host, opt.port, err, sizeof err);
    if (c == NULL) {
        die("connect", err);
    }
    if (opt.verbose) {
        hp_set_trace(c, stderr);
        trace_clock = 1;
    }

    /* The greeting: "* server hello name=hipparchusd version=... protocol=1". */
    if (hp_next_event(c, &ev) < 0) {
        die("greeting", hp_last_error(c));
    }
    if (strcmp(ev.game, "server") != 0 || strcmp(ev.kind, "hello") != 0
        || !hp_field(ev.fields, "protocol", value, sizeof value) || strcmp(value, "1") != 0) {
        die("not a hipparchusd protocol 1 server", NULL);
    }
    hp_event_free(&ev);

    if (opt.create) {
        /* "new <kind> <options>", with seed=N from --seed unless an --option gives a seed: with
         * a seed the deal is reproducible too (the game is then marked fixed_deal). */
        char request[4096];
        size_t used, i;
        int has_seed = 0;
        used = (size_t)snprintf(request, sizeof request, "new %s", opt.kind);
        for (i = 0; i < opt.n_options && used < sizeof request; i++) {
            has_seed |= strncmp(opt.new_options[i], "seed=", 5) == 0;
            used += (size_t)snprintf(request + used, sizeof request - used, " %s",
                                     opt.new_options[i]);
        }
        if (opt.seed != NULL && !has_seed && used < sizeof request) {
            used += (size_t)snprintf(request + used, sizeof request - used, " seed=%s", opt.seed);
        }
        if (used >= sizeof request) {
            die("new: the options are too long", NULL);
        }
        if (hp_command(c, &resp, "%s", request) < 0) {
            die("new", hp_last_error(c));
        }
        if (!resp.ok) {
            die_response("new", &resp);
        }
        if (!hp_field(resp.payload, "game", game, sizeof game)) {
            die("new: no game= in the answer", resp.payload);
        }
        hp_response_free(&resp);
    } else {
        snprintf(game, sizeof game, "%s", opt.game);
    }
    if (hp_command(c, &resp, "join %s name=%s", game, opt.name) < 0) {
        die("join", hp_last_error(c));
    }
    if (!resp.ok) {
        die_response("join", &resp);
    }
    if (!hp_field(resp.payload, "seat", seat, sizeof seat)) {
        die("join: no seat= in the answer", resp.payload);
    }
    hp_response_free(&resp);
    printf("game=%s seat=%s\n", game, seat);
    fflush(stdout);

    while (!done) {
        if (hp_next_event(c, &ev) < 0) {
            die("before the game was over", hp_last_error(c));
        }
        done = handle_event(c, game, seat, &ev);
        hp_event_free(&ev);
    }

    if (hp_command(c, &resp, "quit") == 0) {
        hp_response_free(&resp);
    }
    hp_close(c);
    free(opt.new_options);
    return 0;
}
