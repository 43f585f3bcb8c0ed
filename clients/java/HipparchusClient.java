import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A client for the hipparchusd line protocol, version 1 (protocol/PROTOCOL.md), JDK only.
 *
 * <p>The server sends two kinds of lines: responses ({@code =} or {@code ?} up to an empty line),
 * one per request, and events ({@code * ...}), pushed at any time. {@link #command} sends a
 * request and returns its response, queueing the events that arrive meanwhile; {@link #nextEvent}
 * hands them out in order. This class knows nothing about what to play.
 *
 * <p>Text mode only. Structured payloads are {@code key=value} words (PROTOCOL.md section 6):
 * {@link Response#field} and {@link Event#field} pick one out, {@link #intList} reads a list
 * value such as {@code to-move}'s {@code seats=0,2}.
 *
 * <p>Every game speaks the same contract: {@code to-move seats=...} names the seats that must
 * move, {@code legal <game>} lists their moves or describes a choice ({@link Legal#parse}),
 * {@code play} makes one, {@code game-over winners=... scores=...} ends the game.
 */
public final class HipparchusClient implements AutoCloseable {

    /** The protocol's error codes (PROTOCOL.md section 3); OTHER: a code not known here. */
    public enum ErrorCode {
        SYNTAX, UNKNOWN_COMMAND, UNKNOWN_KIND, BAD_OPTION, UNKNOWN_GAME, NOT_SEATED,
        ALREADY_SEATED, SEAT_TAKEN, NOT_YOUR_TURN, ILLEGAL_MOVE, GAME_OVER, GAME_NOT_OVER,
        NOT_STARTED, NOT_FOLLOWING, BAD_TOKEN, LINE_TOO_LONG, LIMIT, SHUTTING_DOWN, INTERNAL,
        OTHER;

        /** The code for its wire form, e.g. {@code "illegal-move"} gives ILLEGAL_MOVE. */
        public static ErrorCode fromWire(String code) {
            for (ErrorCode c : values()) {
                if (c != OTHER && c.name().replace('_', '-').toLowerCase().equals(code)) {
                    return c;
                }
            }
            return OTHER;
        }
    }

    /** The server answered a request with {@code ?}: the request changed nothing. */
    public static final class ServerException extends IOException {
        private static final long serialVersionUID = 1L;
        public final ErrorCode code;
        /** The code as sent, kept for codes this client does not know. */
        public final String wireCode;

        ServerException(String wireCode, String message) {
            super(wireCode + ": " + message);
            this.code = ErrorCode.fromWire(wireCode);
            this.wireCode = wireCode;
        }
    }

    /** The server sent something the protocol does not allow, or closed the connection. */
    public static final class ProtocolException extends IOException {
        private static final long serialVersionUID = 1L;

        ProtocolException(String message) {
            super(message);
        }
    }

    /** The value of the word {@code key=value} among whitespace-separated words. */
    public static Optional<String> field(String text, String key) {
        String prefix = key + "=";
        for (String word : text.split("\\s+")) {
            if (word.startsWith(prefix)) {
                return Optional.of(word.substring(prefix.length()));
            }
        }
        return Optional.empty();
    }

    /**
     * A flattened list of integers (PROTOCOL.md section 6: {@code 0,2}; {@code -} is empty), e.g.
     * {@code to-move}'s {@code seats}, {@code game-over}'s {@code winners} and {@code scores}.
     *
     * @throws ProtocolException an item is not an integer
     */
    public static List<Long> intList(String value) throws ProtocolException {
        List<Long> numbers = new ArrayList<>();
        if (value.equals("-") || value.isEmpty()) {
            return numbers;
        }
        for (String item : value.split(",", -1)) {
            try {
                numbers.add(Long.parseLong(item));
            } catch (NumberFormatException e) {
                throw new ProtocolException("not a list of integers: " + value);
            }
        }
        return numbers;
    }

    /**
     * A {@code legal} answer, read the same way for every game (PROTOCOL.md, {@code legal}).
     * Either a list of move words ({@code pick == 0}; empty when the seat need not move now), or
     * a choice {@code pick <n> <item>... [to=<seat>,...]} ({@code pick == n > 0}): the move is n
     * distinct items joined by {@code ,}, the i-th chosen item going to seat {@code to.get(i)}
     * ({@code to} is empty without {@code to=}).
     *
     * @param pick how many items to choose, or 0 for a list of moves
     * @param items the moves, or the items to choose from
     * @param to the seat each chosen position goes to (may be empty)
     */
    public record Legal(int pick, List<String> items, List<Long> to) {
        /**
         * Read a {@code legal} response.
         *
         * @throws ProtocolException a malformed pick
         */
        public static Legal parse(Response response) throws ProtocolException {
            List<String> words = new ArrayList<>(response.words());
            if (words.isEmpty() || !words.get(0).equals("pick")) {
                return new Legal(0, List.copyOf(words), List.of());
            }
            int count;
            try {
                count = Integer.parseInt(words.get(1));
            } catch (IndexOutOfBoundsException | NumberFormatException e) {
                throw new ProtocolException("bad pick answer: " + String.join(" ", words));
            }
            if (count <= 0) {
                throw new ProtocolException("bad pick answer: " + String.join(" ", words));
            }
            List<Long> to = List.of();
            if (words.size() > 2 && words.get(words.size() - 1).startsWith("to=")) {
                to = intList(words.remove(words.size() - 1).substring(3));
            }
            return new Legal(count, List.copyOf(words.subList(2, words.size())), to);
        }

        /** Whether there is a move to make: a move word, or at least {@code pick} items. */
        public boolean canMove() {
            return pick == 0 ? !items.isEmpty() : pick <= items.size();
        }
    }

    /** A successful response: its payload lines (none for an empty payload). */
    public record Response(List<String> lines) {
        /** The value of {@code key=value} anywhere in the payload. */
        public Optional<String> field(String key) {
            return HipparchusClient.field(String.join("\n", lines), key);
        }

        /** Every word of the payload, in order (e.g. the moves of {@code legal}). */
        public List<String> words() {
            List<String> words = new ArrayList<>();
            for (String line : lines) {
                words.addAll(Arrays.asList(line.trim().split("\\s+")));
            }
            words.removeIf(String::isEmpty);
            return words;
        }
    }

    /**
     * One event: {@code * <game> <seq> <kind> key=value ...}, or {@code * server <kind> ...}.
     *
     * @param game the game id, or "server" for a server event
     * @param seq the game's event counter; -1 for a server event
     * @param kind e.g. "to-move", "played", "game-over", "hello"
     * @param fields the key=value words after the kind
     */
    public record Event(String game, long seq, String kind, String fields) {
        /** Parse an event line (with its leading {@code *}). */
        public static Event parse(String line) throws ProtocolException {
            String[] words = line.substring(1).trim().split(" +", 4);
            try {
                if (words[0].equals("server")) {
                    String fields = words.length > 2 ? restOf(words, 2) : "";
                    return new Event("server", -1, words[1], fields);
                }
                return new Event(words[0], Long.parseLong(words[1]), words[2],
                        words.length > 3 ? words[3] : "");
            } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
                throw new ProtocolException("bad event line: " + line);
            }
        }

        private static String restOf(String[] words, int from) {
            return String.join(" ", Arrays.copyOfRange(words, from, words.length));
        }

        /** The value of {@code key=value} in the event's fields. */
        public Optional<String> field(String key) {
            return HipparchusClient.field(fields, key);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final ArrayDeque<Event> events = new ArrayDeque<>();
    private long nextId = 1;
    private boolean trace;

    /** Connect to host:port. The greeting is the first event. */
    public HipparchusClient(String host, int port) throws IOException {
        socket = new Socket(host, port);
        socket.setTcpNoDelay(true); // each request waits for its answer: send it at once
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Echo every line sent ("> ") and received ("< ") to stderr. */
    public void setTrace(boolean on) {
        trace = on;
    }

    /**
     * Send one request (e.g. {@code "play g1 2E@5"}, without id or newline) and wait for its
     * response. Events that arrive first are queued for {@link #nextEvent}.
     *
     * @throws ServerException the server answered {@code ?}
     * @throws ProtocolException the server broke the protocol or closed the connection
     */
    public Response command(String request) throws IOException {
        if (request.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("a request must be one line");
        }
        long id = nextId++;
        String line = id + " " + request;
        if (trace) {
            System.err.println("> " + line);
        }
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        while (true) {
            String got = readLine();
            if (got.startsWith("*")) {
                events.add(Event.parse(got));
            } else if (got.startsWith("=") || got.startsWith("?")) {
                return readResponse(got, id);
            } else if (!got.isEmpty()) {
                throw new ProtocolException("unexpected line: " + got);
            }
        }
    }

    /** The next event, queued or read from the connection (blocking). */
    public Event nextEvent() throws IOException {
        if (!events.isEmpty()) {
            return events.poll();
        }
        while (true) {
            String line = readLine();
            if (line.startsWith("*")) {
                return Event.parse(line);
            } else if (!line.isEmpty()) {
                throw new ProtocolException("unexpected line: " + line);
            }
        }
    }

    /** One line, without its LF (or CRLF), decoded as UTF-8. */
    private String readLine() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new ProtocolException("connection closed by the server");
            }
            bytes.write(b);
        }
        byte[] raw = bytes.toByteArray();
        int len = raw.length > 0 && raw[raw.length - 1] == '\r' ? raw.length - 1 : raw.length;
        String line;
        try {
            line = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw, 0, len))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ProtocolException("line is not UTF-8");
        }
        if (trace) {
            System.err.println("< " + line);
        }
        return line;
    }

    /** Parse a response whose first line is {@code first} and read it up to its empty line. */
    private Response readResponse(String first, long id) throws IOException {
        int end = 1;
        while (end < first.length() && Character.isDigit(first.charAt(end))) {
            end++;
        }
        // No id at all is accepted: the server cannot echo an id it could not parse. The id is
        // echoed as sent, so compare numbers ("007" answers 7), not text.
        if (end > 1 && (end > 19 || Long.parseLong(first.substring(1, end)) != id)) {
            throw new ProtocolException("response to another request: " + first);
        }
        String rest = first.substring(end);
        if (rest.startsWith(" ")) {
            rest = rest.substring(1);
        }
        List<String> lines = new ArrayList<>();
        if (!rest.isEmpty()) {
            lines.add(rest);
        }
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            lines.add(line);
        }
        if (first.startsWith("?")) {
            int space = rest.indexOf(' ');
            throw space < 0 ? new ServerException(rest, "")
                    : new ServerException(rest.substring(0, space), rest.substring(space + 1));
        }
        return new Response(List.copyOf(lines));
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
