import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import org.h2.mvstore.MVStore;

/**
 * Starts mongo-java-server with the H2 MVStore file backend on 127.0.0.1.
 *
 * Usage: java LocalMongo <port> <data file>
 *
 * The store keeps LOCAL_DB_CACHE_MB (default 512) of its pages in memory; with H2's default of 16 MB
 * a catalogue of 100,000 parts is read back from the file on every scan.
 *
 * Prints "READY <port>" once it accepts connections. It stops, flushing the store, on SIGTERM/SIGINT
 * or when its standard input closes, so it never outlives the process that started it.
 */
public final class LocalMongo {
    /** Reported in the handshake so that current MongoDB drivers (wire version 9 and up) connect. */
    private static final MongoVersion VERSION = new MongoVersion() {
        @Override
        public List<Integer> getVersionArray() {
            return List.of(6, 0, 0);
        }

        @Override
        public String toVersionString() {
            return "6.0.0";
        }

        @Override
        public int getWireVersion() {
            return 17;
        }
    };

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: LocalMongo <port> <data file>");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        File file = new File(args[1]);
        File parent = file.getAbsoluteFile().getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs()) {
            throw new IOException("cannot create " + parent);
        }

        String cacheMb = System.getenv().getOrDefault("LOCAL_DB_CACHE_MB", "512");
        MVStore store = new MVStore.Builder().fileName(file.getPath()).cacheSize(Integer.parseInt(cacheMb)).open();
        H2Backend backend = new H2Backend(store);
        backend.version(VERSION);
        MongoServer server = new MongoServer(backend);
        server.bind(new InetSocketAddress("127.0.0.1", port));

        Thread stopper = new Thread(() -> {
            server.shutdownNow();
        });
        Runtime.getRuntime().addShutdownHook(stopper);

        System.out.println("READY " + port);
        System.out.flush();

        // Exit when the parent closes our stdin (or dies).
        while (System.in.read() != -1) {
            // ignore input
        }
        System.exit(0);
    }
}
