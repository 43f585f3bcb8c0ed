import java.io.IOException;
import java.util.List;
import java.util.Random;

/**
 * A Hipparchus bot that plays uniformly random legal moves.
 *
 * <pre>java -cp out RandomBot [--host H] [--port P] (--create | --game ID) [--name NAME]
 *                           [--seed N] [--verbose]</pre>
 *
 * <p>--create makes a game ({@code new hipparchus}, with {@code seed=N} if --seed is given) and
 * takes a seat in it; --game takes a seat in that game. Once seated it prints
 * {@code game=<id> seat=<n>}; it plays until the match is over, prints
 * {@code winner=<n> round_wins=<a>,<b>} and exits 0 (the contract shared by every bot in
 * clients/, see tests/clients/harness.py). --seed also makes its own choices reproducible;
 * --verbose traces the protocol on stderr. The protocol is handled by {@link HipparchusClient};
 * the decision is {@link #chooseMove}.
 */
public final class RandomBot {
    private static final String USAGE = "usage: RandomBot [--host HOST] [--port PORT]"
            + " (--create | --game ID) [--name NAME] [--seed N] [--verbose]";

    private final Random random;

    RandomBot(Long seed) {
        random = seed == null ? new Random() : new Random(seed);
    }

    /** The bot's whole strategy: pick one of the legal moves. Make it play well here. */
    String chooseMove(List<String> moves) {
        return moves.get(random.nextInt(moves.size()));
    }

    /** Our seat is to move: ask for the legal moves, choose one, play it. */
    void playTurn(HipparchusClient client, String game) throws IOException {
        List<String> moves = client.command("legal " + game).words();
        if (moves.isEmpty()) {
            return; // the turn event was stale: we need not move
        }
        try {
            client.command("play " + game + " " + chooseMove(moves));
        } catch (HipparchusClient.ServerException e) {
            // Losing a race with the end of the game is not an error; anything else is.
            if (e.code != HipparchusClient.ErrorCode.NOT_YOUR_TURN
                    && e.code != HipparchusClient.ErrorCode.GAME_OVER) {
                throw e;
            }
        }
    }

    /** React to one event of any game; returns true once our match is over. */
    boolean handleEvent(HipparchusClient client, String game, String seat,
            HipparchusClient.Event event) throws IOException {
        if (event.game().equals("server") && event.kind().equals("shutdown")) {
            throw new IOException("the server is shutting down");
        }
        if (!event.game().equals(game)) {
            return false; // another game, or another server event
        }
        boolean ours = event.field("seat").orElse("").equals(seat);
        switch (event.kind()) {
            case "turn" -> {
                if (ours) {
                    playTurn(client, game);
                }
            }
            case "played" -> {
                if (!ours) {
                    System.out.println("opponent played " + event.field("play").orElse("?"));
                }
            }
            case "round-over" -> System.out.println(
                    "round " + event.field("round_number").orElse("?")
                    + " won by seat " + event.field("result.winner").orElse("?")
                    + " (scores " + event.field("result.totals").orElse("?") + ")");
            case "match-over" -> {
                System.out.println("winner=" + event.field("winner").orElse("?")
                        + " round_wins=" + event.field("round_wins").orElse("?"));
                return true;
            }
            default -> { }
        }
        return false;
    }

    /** Play one match; gameToJoin null means create a game (seeded with seed, if not null). */
    void run(String host, int port, String gameToJoin, String name, Long seed, boolean verbose)
            throws IOException {
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
                String options = seed == null ? "" : " seed=" + seed;
                game = client.command("new hipparchus" + options).field("game")
                        .orElseThrow(() -> new IOException("new: no game="));
            }
            String seat = client.command("join " + game + " name=" + name).field("seat")
                    .orElseThrow(() -> new IOException("join: no seat="));
            System.out.println("game=" + game + " seat=" + seat);

            while (!handleEvent(client, game, seat, client.nextEvent())) {
                // until the match is over
            }
            client.command("quit");
        }
    }

    public static void main(String[] args) {
        String host = "127.0.0.1", game = null, name = "javabot";
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
                    case "--create" -> create = true;
                    case "--verbose" -> verbose = true;
                    default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
                }
            }
            if (create == (game != null)) {
                throw new IllegalArgumentException("give exactly one of --create and --game");
            }
        } catch (ArrayIndexOutOfBoundsException | IllegalArgumentException e) {
            boolean noValue = e instanceof ArrayIndexOutOfBoundsException;
            String why = noValue ? "an option needs a value" : e.getMessage();
            System.err.println(why + "\n" + USAGE);
            System.exit(2);
        }
        try {
            new RandomBot(seed).run(host, port, game, name, seed, verbose);
        } catch (IOException e) {
            System.err.println("RandomBot: " + e.getMessage());
            System.exit(1);
        }
    }
}
