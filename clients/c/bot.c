/*
 * bot.c - a Hipparchus bot that plays uniformly random legal moves.
 *
 *   hipparchus-bot [--host H] [--port P] (--create | --game ID) [--name NAME] [--seed N]
 *                  [--verbose]
 *
 * --create makes a game ("new hipparchus", with seed=N if --seed is given) and takes a seat in
 * it; --game takes a seat in that game. Once seated it prints "game=<id> seat=<n>"; it plays
 * until the match is over, prints "winner=<n> round_wins=<a>,<b>" and exits 0 (the contract
 * shared by every bot in clients/, see tests/clients/harness.py). --seed also makes its own
 * choices reproducible; --verbose traces the protocol on stderr.
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
    int create;
    int verbose;
};

static void usage(FILE *out)
{
    fprintf(out, "usage: hipparchus-bot [--host HOST] [--port PORT] (--create | --game ID)"
                 " [--name NAME] [--seed N] [--verbose]\n");
}

static int parse_args(int argc, char **argv, struct options *opt)
{
    int i;
    opt->host = "127.0.0.1";
    opt->port = "7460";
    opt->game = NULL;
    opt->name = "cbot";
    opt->seed = NULL;
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

/* The bot's whole strategy: pick one of the legal moves. Make it play well here. */
static const char *choose_move(char *const *moves, size_t count)
{
    return moves[random_below(count)];
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
    hp_response legal, played;
    char **moves = NULL, *word, *save = NULL;
    size_t count = 0, cap = 0;

    if (hp_command(c, &legal, "legal %s", game) < 0) {
        die("legal", hp_last_error(c));
    }
    if (!legal.ok) {
        die_response("legal", &legal);
    }
    for (word = strtok_r(legal.payload, " \n", &save); word != NULL;
         word = strtok_r(NULL, " \n", &save)) {
        if (count == cap) {
            cap = cap ? cap * 2 : 16;
            moves = realloc(moves, cap * sizeof *moves);
            if (moves == NULL) {
                die("out of memory", NULL);
            }
        }
        moves[count++] = word;
    }
    if (count > 0) { /* none: the turn event was stale, we need not move */
        const char *move = choose_move(moves, count);
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
    free(moves);
    hp_response_free(&legal);
}

/* React to one event of any game; returns 1 once our match is over. */
static int handle_event(hp_client *c, const char *game, const char *seat, const hp_event *ev)
{
    char value[64];

    if (strcmp(ev->game, "server") == 0 && strcmp(ev->kind, "shutdown") == 0) {
        die("the server is shutting down", NULL);
    }
    if (strcmp(ev->game, game) != 0) {
        return 0; /* another game, or another server event */
    }
    if (strcmp(ev->kind, "turn") == 0) {
        if (hp_field(ev->fields, "seat", value, sizeof value) && strcmp(value, seat) == 0) {
            play_turn(c, game);
        }
    } else if (strcmp(ev->kind, "played") == 0) {
        if (hp_field(ev->fields, "seat", value, sizeof value) && strcmp(value, seat) != 0) {
            hp_field(ev->fields, "play", value, sizeof value);
            printf("opponent played %s\n", value);
        }
    } else if (strcmp(ev->kind, "round-over") == 0) {
        char number[16], winner[16], totals[32];
        hp_field(ev->fields, "round_number", number, sizeof number);
        hp_field(ev->fields, "result.winner", winner, sizeof winner);
        hp_field(ev->fields, "result.totals", totals, sizeof totals);
        printf("round %s won by seat %s (scores %s)\n", number, winner, totals);
    } else if (strcmp(ev->kind, "match-over") == 0) {
        char wins[32];
        hp_field(ev->fields, "winner", value, sizeof value);
        hp_field(ev->fields, "round_wins", wins, sizeof wins);
        printf("winner=%s round_wins=%s\n", value, wins);
        fflush(stdout);
        return 1;
    }
    fflush(stdout);
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
        /* With a seed the deal is reproducible too (the game is then marked fixed_deal). */
        if (hp_command(c, &resp, "new hipparchus%s%s", opt.seed ? " seed=" : "",
                       opt.seed ? opt.seed : "")
            < 0) {
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
            die("before the match was over", hp_last_error(c));
        }
        done = handle_event(c, game, seat, &ev);
        hp_event_free(&ev);
    }

    if (hp_command(c, &resp, "quit") == 0) {
        hp_response_free(&resp);
    }
    hp_close(c);
    return 0;
}
