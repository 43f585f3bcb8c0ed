import java.io.IOException;
import java.util.List;
import java.util.Random;

/**
 * A Hipparchus bot that plays uniformly random legal moves.
 *
 * <pre>java -cp out RandomBot [--host H] [--port P] [--game ID] [--name NAME] [--verbose]</pre>
 *
 * <p>Without --game it creates a game ({@code new hipparchus}) and takes a seat in it; with
 * --game it takes a seat in that game. It prints {@code joined game=<id> seat=<n> name=<name>},
 * plays until the match is over, prints {@code result game=<id> winner=<seat> you=<seat>} and
 * exits 0. The protocol is handled by {@link HipparchusClient}; the decision is
 * {@link #chooseMove}.
 */
public final class RandomBot {
    private static final String USAGE =
            "usage: RandomBot [--host HOST] [--port PORT] [--game ID] [--name NAME] [--verbose]";

    private final Random random = new Random();

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

    void run(String host, int port, String gameToJoin, String name, boolean verbose) throws IOException {
        try (HipparchusClient client = new HipparchusClient(host, port)) {
            client.setTrace(verbose);
            HipparchusClient.Event hello = client.nextEvent();
            if (!hello.game().equals("server") || !hello.kind().equals("hello")
                    || !hello.field("protocol").orElse("").equals("1")) {
                throw new IOException("not a hipparchusd protocol 1 server");
            }
            String game = gameToJoin != null ? gameToJoin
                    : client.command("new hipparchus").field("game")
                            .orElseThrow(() -> new IOException("new: no game="));
            String seat = client.command("join " + game + " name=" + name).field("seat")
                    .orElseThrow(() -> new IOException("join: no seat="));
            System.out.println("joined game=" + game + " seat=" + seat + " name=" + name);

            while (true) {
                HipparchusClient.Event event = client.nextEvent();
                if (event.game().equals("server") && event.kind().equals("shutdown")) {
                    throw new IOException("the server is shutting down");
                }
                if (!event.game().equals(game)) {
                    continue;
                }
                if (event.kind().equals("turn") && event.field("seat").orElse("").equals(seat)) {
                    playTurn(client, game);
                } else if (event.kind().equals("match-over")) {
                    String winner = event.field("winner").orElse("-");
                    System.out.println("result game=" + game + " winner=" + winner + " you=" + seat);
                    break;
                }
            }
            client.command("quit");
        }
    }

    public static void main(String[] args) {
        String host = "127.0.0.1", game = null, name = "javabot";
        int port = 7460;
        boolean verbose = false;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--host" -> host = args[++i];
                    case "--port" -> port = Integer.parseInt(args[++i]);
                    case "--game" -> game = args[++i];
                    case "--name" -> name = args[++i];
                    case "--verbose" -> verbose = true;
                    default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
                }
            }
        } catch (ArrayIndexOutOfBoundsException | IllegalArgumentException e) {
            System.err.println((e instanceof ArrayIndexOutOfBoundsException ? "missing value" : e.getMessage())
                    + "\n" + USAGE);
            System.exit(2);
        }
        try {
            new RandomBot().run(host, port, game, name, verbose);
        } catch (IOException e) {
            System.err.println("RandomBot: " + e.getMessage());
            System.exit(1);
        }
    }
}
