import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * A bot that plays uniformly random legal moves in any game the daemon serves.
 *
 * <pre>java -cp out RandomBot [--host H] [--port P] [--name NAME] [--seed N] [--verbose]
 *                 (--create [--kind KIND] [--option KEY=VALUE ...] | --game ID)</pre>
 *
 * <p>--create makes a game ({@code new <kind> <options>}, hipparchus unless --kind says
 * otherwise; --seed N adds {@code seed=N} unless an --option gives one) and takes a seat in it;
 * --game takes a seat in that game. Once seated it prints {@code game=<id> seat=<n>}, then
 * follows the generic contract alone (PROTOCOL.md): whenever a {@code to-move} event names its
 * seat it asks {@code legal} (a list of moves, or a {@code pick} of n items) and plays one at
 * random. At {@code game-over} it prints the event's fields,
 * {@code winners=<seats> scores=<per seat> resigned=<seat or ->} (Hipparchus's scores are the
 * round wins), and exits 0 (the contract shared by every bot in clients/, see
 * tests/clients/harness.py). --seed
 * also makes its own choices reproducible; --verbose traces the protocol on stderr. The
 * protocol is handled by {@link HipparchusClient}; the decision is {@link #chooseMove}.
 */
public final class RandomBot {
    private static final String USAGE = "usage: RandomBot [--host HOST] [--port PORT]"
            + " [--name NAME] [--seed N] [--verbose]"
            + " (--create [--kind KIND] [--option KEY=VALUE ...] | --game ID)";

    private final Random random;

    RandomBot(Long seed) {
        random = seed == null ? new Random() : new Random(seed);
    }

    /**
     * The bot's whole strategy: one of the legal moves at random. For a list, one of its words;
     * for a pick, {@code pick} distinct items (a partial Fisher-Yates shuffle) joined by ",".
     * Make it play well here. {@code legal} must offer a move ({@link HipparchusClient.Legal#canMove}).
     */
    String chooseMove(HipparchusClient.Legal legal) {
        List<String> items = new ArrayList<>(legal.items());
        if (legal.pick() == 0) {
            return items.get(random.nextInt(items.size()));
        }
        for (int i = 0; i < legal.pick(); i++) {
            Collections.swap(items, i, i + random.nextInt(items.size() - i));
        }
        return String.join(",", items.subList(0, legal.pick()));
    }

    /** Our seat is to move: ask for the legal moves, choose one, play it. */
    void playTurn(HipparchusClient client, String game) throws IOException {
        HipparchusClient.Legal legal = HipparchusClient.Legal.parse(client.command("legal " + game));
        if (!legal.canMove()) {
            // The to-move event was stale (in a simultaneous move, others' moves announce the
            // seats still to move, ours among them until our move lands): we need not move.
            return;
        }
        try {
            client.command("play " + game + " " + chooseMove(legal));
        } catch (HipparchusClient.ServerException e) {
            // Losing a race with the end of the game is not an error; anything else is.
            if (e.code != HipparchusClient.ErrorCode.NOT_YOUR_TURN
                    && e.code != HipparchusClient.ErrorCode.GAME_OVER) {
                throw e;
            }
        }
    }

    private static String joined(List<Long> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /** React to one event of any game; returns true once our game is over. */
    boolean handleEvent(HipparchusClient client, String game, long seat,
            HipparchusClient.Event event) throws IOException {
        if (event.game().equals("server") && event.kind().equals("shutdown")) {
            throw new IOException("the server is shutting down");
        }
        if (!event.game().equals(game)) {
            return false; // another game, or another server event
        }
        switch (event.kind()) {
            case "to-move" -> {
                if (HipparchusClient.intList(event.field("seats").orElse("-")).contains(seat)) {
                    playTurn(client, game);
                }
            }
            case "game-over" -> {
                List<Long> winners = HipparchusClient.intList(event.field("winners").orElse("-"));
                List<Long> scores = HipparchusClient.intList(event.field("scores").orElse("-"));
                System.out.println("winners=" + joined(winners) + " scores=" + joined(scores)
                        + " resigned=" + event.field("resigned").orElse("-"));
                return true;
            }
            default -> { }
        }
        return false;
    }

    /**
     * Play one game; gameToJoin null means create a game of this kind with these options
     * (and seed=seed, if not null and no option gives a seed).
     */
    void run(String host, int port, String gameToJoin, String kind, List<String> options,
            String name, Long seed, boolean verbose) throws IOException {
        try (HipparchusClient client = new HipparchusClient(host, port)) {
            client.setTrace(verbose);
            HipparchusClient.Event hello = client.nextEvent();
            if (!hello.game().equals("server") || !hello.kind().equals("hello")
                    || !hello.field("protocol").orElse("").equals("1")) {
                throw new IOException("not a hipparchusd protocol 1 server");
            }
            String game = gameToJoin;
            if (game == null) {
                // With a seed the deal is reproducible too (the game is marked fixed_deal).
                List<String> words = new ArrayList<>(List.of("new", kind));
                words.addAll(options);
                if (seed != null && options.stream().noneMatch(o -> o.startsWith("seed="))) {
                    words.add("seed=" + seed);
                }
                game = client.command(String.join(" ", words)).field("game")
                        .orElseThrow(() -> new IOException("new: no game="));
            }
            String seatText = client.command("join " + game + " name=" + name).field("seat")
                    .orElseThrow(() -> new IOException("join: no seat="));
            long seat;
            try {
                seat = Long.parseLong(seatText);
            } catch (NumberFormatException e) {
                throw new IOException("join: bad seat=" + seatText);
            }
            System.out.println("game=" + game + " seat=" + seat);

            while (!handleEvent(client, game, seat, client.nextEvent())) {
                // until the game is over
            }
            client.command("quit");
        }
    }

    public static void main(String[] args) {
        String host = "127.0.0.1", game = null, name = "javabot", kind = null;
        List<String> options = new ArrayList<>();
        int port = 7460;
        boolean verbose = false, create = false;
        Long seed = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--host" -> host = args[++i];
                    case "--port" -> port = Integer.parseInt(args[++i]);
                    case "--game" -> game = args[++i];
                    case "--name" -> name = args[++i];
                    case "--seed" -> seed = Long.parseLong(args[++i]);
                    case "--kind" -> kind = args[++i];
                    case "--option", "-o" -> {
                        String option = args[++i];
                        if (!option.matches("[^=\\s]+=\\S+")) {
                            throw new IllegalArgumentException(
                                    "--option wants KEY=VALUE, not '" + option + "'");
                        }
                        options.add(option);
                    }
                    case "--create" -> create = true;
                    case "--verbose" -> verbose = true;
                    default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
                }
            }
            if (create == (game != null)) {
                throw new IllegalArgumentException("give exactly one of --create and --game");
            }
            if (game != null && (kind != null || !options.isEmpty())) {
                throw new IllegalArgumentException("--kind and --option go with --create");
            }
            if (kind == null) {
                kind = "hipparchus";
            }
        } catch (ArrayIndexOutOfBoundsException | IllegalArgumentException e) {
            boolean noValue = e instanceof ArrayIndexOutOfBoundsException;
            String why = noValue ? "an option needs a value" : e.getMessage();
            System.err.println(why + "\n" + USAGE);
            System.exit(2);
        }
        try {
            new RandomBot(seed).run(host, port, game, kind, options, name, seed, verbose);
        } catch (IOException e) {
            System.err.println("RandomBot: " + e.getMessage());
            System.exit(1);
        }
    }
}
