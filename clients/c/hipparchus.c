/*
 * hipparchus.c - the client layer declared in hipparchus.h (protocol/PROTOCOL.md).
 */
#define _POSIX_C_SOURCE 200809L

#include "hipparchus.h"

#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

/* A server line longer than this is treated as a broken server rather than buffered
 * forever. The protocol bounds requests (4096 bytes) but not server lines; the longest
 * real ones (round-over events) are a few hundred bytes. */
#define HP_MAX_LINE (1024 * 1024)

struct hp_client {
    int fd;
    FILE *trace;
    char *in; /* bytes received and not yet returned as lines */
    size_t in_len, in_cap;
    char **queue; /* event lines that arrived while waiting for a response */
    size_t q_head, q_len, q_cap;
    unsigned long next_id;
    char error[256];
};

/* The wire form of each hp_error, in enum order (HP_OK has none). */
static const char *const error_codes[] = {
    "",              "syntax",        "unknown-command", "unknown-kind",   "bad-option",
    "unknown-game",  "not-seated",    "already-seated",  "seat-taken",     "not-your-turn",
    "illegal-move",  "game-over",     "game-not-over",   "not-started",    "not-following",
    "bad-token",     "line-too-long", "limit",           "shutting-down",  "internal",
};
/* A compile-time check (C99 has no static_assert) that the table covers the enum. */
typedef char error_codes_cover_the_enum
    [sizeof error_codes / sizeof error_codes[0] == HP_ERR_OTHER ? 1 : -1];

hp_error hp_error_from_code(const char *code)
{
    size_t i;
    for (i = 1; i < sizeof error_codes / sizeof error_codes[0]; i++) {
        if (strcmp(code, error_codes[i]) == 0) {
            return (hp_error)i;
        }
    }
    return HP_ERR_OTHER;
}

static int fail(hp_client *c, const char *what, const char *detail)
{
    snprintf(c->error, sizeof c->error, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
    return -1;
}

static char *copy_string(const char *s, size_t n)
{
    char *out = malloc(n + 1);
    if (out) {
        memcpy(out, s, n);
        out[n] = '\0';
    }
    return out;
}

hp_client *hp_connect(const char *host, const char *port, char *err, size_t errlen)
{
    struct addrinfo hints, *found, *ai;
    hp_client *c;
    int fd = -1, rc;

    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    rc = getaddrinfo(host, port, &hints, &found);
    if (rc != 0) {
        snprintf(err, errlen, "%s:%s: %s", host, port, gai_strerror(rc));
        return NULL;
    }
    for (ai = found; ai != NULL; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) {
            continue;
        }
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
            break;
        }
        snprintf(err, errlen, "%s:%s: %s", host, port, strerror(errno));
        close(fd);
        fd = -1;
    }
    freeaddrinfo(found);
    if (fd < 0) {
        return NULL;
    }
    c = calloc(1, sizeof *c);
    if (c == NULL) {
        snprintf(err, errlen, "out of memory");
        close(fd);
        return NULL;
    }
    c->fd = fd;
    c->next_id = 1;
    return c;
}

void hp_set_trace(hp_client *c, FILE *trace)
{
    c->trace = trace;
}

const char *hp_last_error(const hp_client *c)
{
    return c->error;
}

/* Send all of buf, however many send() calls it takes. */
static int write_all(hp_client *c, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = send(c->fd, buf, len, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return fail(c, "send", strerror(errno));
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Read one line (without LF, and without a CR before it) into a new string. TCP delivers
 * bytes, not lines: a read may end mid-line or hold several lines, so bytes wait in c->in
 * until their LF arrives. */
static int read_line(hp_client *c, char **line)
{
    for (;;) {
        char *lf = c->in_len ? memchr(c->in, '\n', c->in_len) : NULL;
        ssize_t n;
        if (lf != NULL) {
            size_t len = (size_t)(lf - c->in), used = len + 1;
            if (len > 0 && c->in[len - 1] == '\r') {
                len--;
            }
            *line = copy_string(c->in, len);
            if (*line == NULL) {
                return fail(c, "out of memory", NULL);
            }
            memmove(c->in, c->in + used, c->in_len - used);
            c->in_len -= used;
            if (c->trace) {
                fprintf(c->trace, "< %s\n", *line);
            }
            return 0;
        }
        if (c->in_len == c->in_cap) {
            size_t cap = c->in_cap ? c->in_cap * 2 : 4096;
            char *grown;
            if (cap > HP_MAX_LINE) {
                return fail(c, "server line too long", NULL);
            }
            grown = realloc(c->in, cap);
            if (grown == NULL) {
                return fail(c, "out of memory", NULL);
            }
            c->in = grown;
            c->in_cap = cap;
        }
        n = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len, 0);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return fail(c, "recv", strerror(errno));
        }
        if (n == 0) {
            return fail(c, "connection closed by the server", NULL);
        }
        c->in_len += (size_t)n;
    }
}

static int queue_push(hp_client *c, char *line)
{
    if (c->q_head + c->q_len == c->q_cap) {
        if (c->q_head > 0) { /* slide the live part to the front before growing */
            memmove(c->queue, c->queue + c->q_head, c->q_len * sizeof *c->queue);
            c->q_head = 0;
        }
        if (c->q_len == c->q_cap) {
            size_t cap = c->q_cap ? c->q_cap * 2 : 16;
            char **grown = realloc(c->queue, cap * sizeof *grown);
            if (grown == NULL) {
                return fail(c, "out of memory", NULL);
            }
            c->queue = grown;
            c->q_cap = cap;
        }
    }
    c->queue[c->q_head + c->q_len++] = line;
    return 0;
}

/* Append line to the '\n'-joined payload. */
static int append_line(hp_client *c, char **payload, const char *line)
{
    size_t old = strlen(*payload), add = strlen(line), sep = old ? 1 : 0;
    char *grown = realloc(*payload, old + sep + add + 1);
    if (grown == NULL) {
        return fail(c, "out of memory", NULL);
    }
    if (sep) {
        grown[old] = '\n';
    }
    memcpy(grown + old + sep, line, add + 1);
    *payload = grown;
    return 0;
}

/* Parse a response whose first line is first ("=id payload" or "?id code message") and read
 * the rest of it, up to the empty line that ends every response. */
static int read_response(hp_client *c, char *first, unsigned long id, hp_response *resp)
{
    const char *p = first + 1;
    char *line;
    int rc = 0;

    memset(resp, 0, sizeof *resp);
    resp->ok = first[0] == '=';
    if (*p >= '0' && *p <= '9') {
        unsigned long echoed = strtoul(p, NULL, 10);
        while (*p >= '0' && *p <= '9') {
            p++;
        }
        if (echoed != id) {
            return fail(c, "response to another request", first);
        }
    }
    /* A response without an id is accepted: the server cannot echo an id it could not parse. */
    if (*p == ' ') {
        p++;
    }
    if (resp->ok) {
        resp->error = HP_OK;
        resp->payload = copy_string(p, strlen(p));
    } else {
        const char *sp = strchr(p, ' ');
        size_t code_len = sp ? (size_t)(sp - p) : strlen(p);
        resp->code = copy_string(p, code_len);
        resp->message = copy_string(sp ? sp + 1 : "", sp ? strlen(sp + 1) : 0);
        resp->payload = copy_string("", 0);
        if (resp->code) {
            resp->error = hp_error_from_code(resp->code);
        }
    }
    if (resp->payload == NULL || (!resp->ok && (resp->code == NULL || resp->message == NULL))) {
        hp_response_free(resp);
        return fail(c, "out of memory", NULL);
    }
    for (;;) {
        if (read_line(c, &line) < 0) {
            hp_response_free(resp);
            return -1;
        }
        if (line[0] == '\0') {
            free(line);
            return 0;
        }
        if (resp->ok) {
            rc = append_line(c, &resp->payload, line);
        }
        free(line);
        if (rc < 0) {
            hp_response_free(resp);
            return -1;
        }
    }
}

int hp_command(hp_client *c, hp_response *resp, const char *fmt, ...)
{
    va_list ap;
    char *request;
    int cmd_len, prefix_len;
    size_t size;
    unsigned long id = c->next_id++;

    va_start(ap, fmt);
    cmd_len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (cmd_len < 0) {
        return fail(c, "bad request format", fmt);
    }
    prefix_len = snprintf(NULL, 0, "%lu ", id);
    size = (size_t)prefix_len + (size_t)cmd_len + 2;
    request = malloc(size);
    if (request == NULL) {
        return fail(c, "out of memory", NULL);
    }
    snprintf(request, size, "%lu ", id);
    va_start(ap, fmt);
    vsnprintf(request + prefix_len, size - (size_t)prefix_len, fmt, ap);
    va_end(ap);
    if (strchr(request, '\n') != NULL) { /* it would be two requests */
        free(request);
        return fail(c, "a request must be one line", NULL);
    }
    if (c->trace) {
        fprintf(c->trace, "> %s\n", request);
    }
    request[size - 2] = '\n';
    request[size - 1] = '\0';
    if (write_all(c, request, size - 1) < 0) {
        free(request);
        return -1;
    }
    free(request);

    for (;;) {
        char *line;
        int rc;
        if (read_line(c, &line) < 0) {
            return -1;
        }
        if (line[0] == '*') {
            if (queue_push(c, line) < 0) {
                free(line);
                return -1;
            }
            continue;
        }
        if (line[0] == '=' || line[0] == '?') {
            rc = read_response(c, line, id, resp);
            free(line);
            return rc;
        }
        rc = line[0] == '\0' ? 0 : fail(c, "unexpected line from the server", line);
        free(line);
        if (rc < 0) {
            return -1;
        }
    }
}

/* Cut the next space-separated word out of *p (in place); NULL at the end of the line. */
static char *next_word(char **p)
{
    char *word = *p + strspn(*p, " ");
    if (*word == '\0') {
        return NULL;
    }
    *p = word + strcspn(word, " ");
    if (**p != '\0') {
        *(*p)++ = '\0';
    }
    return word;
}

/* Split "* g1 4 turn seat=0 lead=-" (or "* server hello ...") in place; ev owns line. */
static int parse_event(hp_client *c, char *line, hp_event *ev)
{
    char *p = line + 1, *seq, *end = NULL;

    memset(ev, 0, sizeof *ev);
    ev->seq = -1;
    ev->game = next_word(&p);
    if (ev->game != NULL && strcmp(ev->game, "server") == 0) {
        ev->kind = next_word(&p);
    } else if (ev->game != NULL && (seq = next_word(&p)) != NULL) {
        ev->seq = strtol(seq, &end, 10);
        ev->kind = *end == '\0' ? next_word(&p) : NULL;
    }
    if (ev->kind == NULL) {
        return fail(c, "bad event line", NULL);
    }
    ev->fields = p + strspn(p, " ");
    ev->storage = line;
    return 0;
}

int hp_next_event(hp_client *c, hp_event *ev)
{
    for (;;) {
        char *line;
        if (c->q_len > 0) {
            line = c->queue[c->q_head++];
            c->q_len--;
        } else if (read_line(c, &line) < 0) {
            return -1;
        }
        if (line[0] == '*') {
            if (parse_event(c, line, ev) < 0) {
                free(line);
                return -1;
            }
            return 0;
        }
        if (line[0] != '\0') {
            fail(c, "unexpected line from the server", line);
            free(line);
            return -1;
        }
        free(line);
    }
}

void hp_response_free(hp_response *resp)
{
    free(resp->code);
    free(resp->message);
    free(resp->payload);
    memset(resp, 0, sizeof *resp);
}

void hp_event_free(hp_event *ev)
{
    free(ev->storage);
    memset(ev, 0, sizeof *ev);
}

void hp_close(hp_client *c)
{
    if (c == NULL) {
        return;
    }
    close(c->fd);
    while (c->q_len > 0) {
        free(c->queue[c->q_head++]);
        c->q_len--;
    }
    free(c->queue);
    free(c->in);
    free(c);
}

int hp_field(const char *text, const char *key, char *out, size_t outlen)
{
    size_t klen = strlen(key);
    const char *p = text;

    if (outlen > 0) {
        out[0] = '\0';
    }
    while (*p != '\0') {
        size_t wlen;
        p += strspn(p, " \t\n");
        wlen = strcspn(p, " \t\n");
        if (wlen > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            size_t vlen = wlen - klen - 1;
            if (outlen > 0) {
                if (vlen > outlen - 1) {
                    vlen = outlen - 1;
                }
                memcpy(out, p + klen + 1, vlen);
                out[vlen] = '\0';
            }
            return 1;
        }
        p += wlen;
    }
    return 0;
}

int hp_list_has(const char *list, const char *item)
{
    size_t ilen = strlen(item);
    const char *p = list;

    if (strcmp(list, "-") == 0) {
        return 0;
    }
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == ilen && strncmp(p, item, len) == 0) {
            return 1;
        }
        if (p[len] == '\0') {
            return 0;
        }
        p += len + 1;
    }
}

/* A whole decimal integer (optional sign) into *out; 0 if text is not one. */
static int parse_long(const char *text, long *out)
{
    char *end;
    if (*text == '\0') {
        return 0;
    }
    errno = 0;
    *out = strtol(text, &end, 10);
    return *end == '\0' && errno == 0;
}

int hp_parse_legal(const char *payload, hp_legal *legal)
{
    char *p, *word;
    size_t cap = 0, len = strlen(payload);

    memset(legal, 0, sizeof *legal);
    legal->storage = copy_string(payload, len);
    if (legal->storage == NULL) {
        return -1;
    }
    for (p = legal->storage; *p != '\0'; p++) {
        if (*p == '\n' || *p == '\t') {
            *p = ' '; /* the payload may span lines: every word counts alike */
        }
    }
    p = legal->storage;
    while ((word = next_word(&p)) != NULL) {
        if (legal->count == cap) {
            char **grown;
            cap = cap ? cap * 2 : 16;
            grown = realloc(legal->items, cap * sizeof *grown);
            if (grown == NULL) {
                hp_legal_free(legal);
                return -1;
            }
            legal->items = grown;
        }
        legal->items[legal->count++] = word;
    }
    if (legal->count == 0 || strcmp(legal->items[0], "pick") != 0) {
        return 0;
    }
    {
        long n;
        const char *to;
        if (legal->count < 2 || !parse_long(legal->items[1], &n) || n <= 0) {
            hp_legal_free(legal);
            return -1;
        }
        legal->pick = (size_t)n;
        /* Drop "pick <n>": the items follow. */
        memmove(legal->items, legal->items + 2, (legal->count - 2) * sizeof *legal->items);
        legal->count -= 2;
        if (legal->count == 0 || strncmp(legal->items[legal->count - 1], "to=", 3) != 0) {
            return 0;
        }
        to = legal->items[--legal->count] + 3;
        if (strcmp(to, "-") == 0) {
            to = ""; /* an empty list */
        }
        legal->to = malloc((strlen(to) / 2 + 1) * sizeof *legal->to);
        if (legal->to == NULL) {
            hp_legal_free(legal);
            return -1;
        }
        while (*to != '\0') {
            char seat[32];
            size_t slen = strcspn(to, ",");
            long value;
            if (slen == 0 || slen >= sizeof seat) {
                hp_legal_free(legal);
                return -1;
            }
            memcpy(seat, to, slen);
            seat[slen] = '\0';
            if (!parse_long(seat, &value)) {
                hp_legal_free(legal);
                return -1;
            }
            legal->to[legal->to_count++] = value;
            to += slen + (to[slen] == ',');
        }
    }
    return 0;
}

int hp_legal_can_move(const hp_legal *legal)
{
    return legal->pick == 0 ? legal->count > 0 : legal->pick <= legal->count;
}

void hp_legal_free(hp_legal *legal)
{
    free(legal->items);
    free(legal->to);
    free(legal->storage);
    memset(legal, 0, sizeof *legal);
}
