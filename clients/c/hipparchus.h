/*
 * hipparchus.h - a small client for the hipparchusd line protocol, version 1
 * (protocol/PROTOCOL.md), in C99 over POSIX sockets.
 *
 * The protocol has two kinds of lines from the server: responses ("=" or "?" up to an
 * empty line), one per request, and events ("* ..."), pushed at any time. This layer
 * sends a request and returns its response, queueing the events that arrive meanwhile;
 * hp_next_event() hands them out in order. It knows nothing about what to play.
 *
 * Everything is text mode. Structured payloads are "key=value" words (PROTOCOL.md
 * section 6); hp_field() picks one out, hp_list_has() looks into a list value such as
 * to-move's "seats=0,2".
 *
 * Every game speaks the same contract: "to-move seats=..." names the seats that must move,
 * "legal <game>" lists their moves or describes a choice (hp_parse_legal()), "play" makes one,
 * "game-over winners=... scores=..." ends the game.
 */
#ifndef HIPPARCHUS_H
#define HIPPARCHUS_H

#include <stddef.h>
#include <stdio.h>

/* The protocol's error codes (PROTOCOL.md section 3), plus HP_ERR_OTHER for a code this
 * client does not know (a newer server) and HP_OK for a success. */
typedef enum {
    HP_OK = 0,
    HP_ERR_SYNTAX,
    HP_ERR_UNKNOWN_COMMAND,
    HP_ERR_UNKNOWN_KIND,
    HP_ERR_BAD_OPTION,
    HP_ERR_UNKNOWN_GAME,
    HP_ERR_NOT_SEATED,
    HP_ERR_ALREADY_SEATED,
    HP_ERR_SEAT_TAKEN,
    HP_ERR_NOT_YOUR_TURN,
    HP_ERR_ILLEGAL_MOVE,
    HP_ERR_GAME_OVER,
    HP_ERR_GAME_NOT_OVER,
    HP_ERR_NOT_STARTED,
    HP_ERR_NOT_FOLLOWING,
    HP_ERR_BAD_TOKEN,
    HP_ERR_LINE_TOO_LONG,
    HP_ERR_LIMIT,
    HP_ERR_SHUTTING_DOWN,
    HP_ERR_INTERNAL,
    HP_ERR_OTHER
} hp_error;

/* One response. On success (ok == 1) payload holds the payload lines joined by '\n'
 * ("" when empty). On failure (ok == 0) error/code/message say why. */
typedef struct {
    int ok;
    hp_error error;
    char *code;    /* failure: the error code as sent, e.g. "illegal-move" */
    char *message; /* failure: text for a person */
    char *payload; /* success: the payload, lines joined by '\n' */
} hp_response;

/* One event: "* <game> <seq> <kind> key=value ..." or "* server <kind> key=value ...".
 * game, kind and fields point into storage owned by the event. */
typedef struct {
    char *game;   /* the game id, or "server" for a server event */
    long seq;     /* the game's event counter; -1 for a server event */
    char *kind;   /* e.g. "to-move", "played", "game-over", "hello" */
    char *fields; /* the rest of the line: key=value words ("" if none) */
    char *storage;
} hp_event;

typedef struct hp_client hp_client;

/* Connect to host:port (a name or an address; port as text). Returns NULL on failure,
 * with a reason written to err. */
hp_client *hp_connect(const char *host, const char *port, char *err, size_t errlen);

/* Echo every line sent ("> ") and received ("< ") to trace (NULL to stop). */
void hp_set_trace(hp_client *c, FILE *trace);

/* Send one request, built printf-style without id or newline (e.g. "play %s %s"), and
 * wait for its response. Events that arrive first are queued for hp_next_event().
 * Returns 0 when a response was read (check resp->ok), -1 when the connection failed
 * or the server broke the protocol (see hp_last_error()). Free resp with
 * hp_response_free(). */
int hp_command(hp_client *c, hp_response *resp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The next event, queued or read from the socket (blocking). Returns 0 on success, -1
 * when the connection closed or failed (see hp_last_error()). Free with hp_event_free(). */
int hp_next_event(hp_client *c, hp_event *ev);

/* Why the last call on c failed. */
const char *hp_last_error(const hp_client *c);

void hp_response_free(hp_response *resp);
void hp_event_free(hp_event *ev);
void hp_close(hp_client *c);

/* Find the word "key=value" in text (words separated by spaces, tabs or newlines) and
 * copy value into out (at most outlen - 1 bytes, NUL-terminated). Returns 1 if found,
 * 0 if not (out is then ""). */
int hp_field(const char *text, const char *key, char *out, size_t outlen);

/* Whether the flattened list value (PROTOCOL.md section 6: items joined by ',', "-" for an
 * empty list) holds item, e.g. hp_list_has("0,2", "2") == 1, hp_list_has("-", "0") == 0. */
int hp_list_has(const char *list, const char *item);

/* A "legal" answer, the same for every game (PROTOCOL.md, "legal"): either a list of move
 * words (pick == 0; count == 0 when the seat need not move), or a choice
 * "pick <n> <item>... [to=<seat>,...]" (pick == n > 0): the move is n distinct items joined
 * by ',' (the i-th chosen item goes to seat to[i]; to_count == 0 when the answer has no to=).
 * words/items point into storage owned by the struct. */
typedef struct {
    size_t pick;
    char **items; /* the moves (pick == 0) or the items to choose from */
    size_t count;
    long *to;
    size_t to_count;
    char *storage;
} hp_legal;

/* Parse a "legal" payload (hp_response.payload). Returns 0, or -1 for a malformed answer
 * (a bad pick count or seat, or no memory), leaving *legal empty. Free with hp_legal_free(). */
int hp_parse_legal(const char *payload, hp_legal *legal);

/* Whether the parsed answer offers a move: a move word, or at least pick items. */
int hp_legal_can_move(const hp_legal *legal);

void hp_legal_free(hp_legal *legal);

/* hp_error for an error code as sent ("illegal-move" -> HP_ERR_ILLEGAL_MOVE). */
hp_error hp_error_from_code(const char *code);

#endif
