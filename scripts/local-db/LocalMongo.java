import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;
import org.h2.mvstore.MVStore;

/**
 * Starts mongo-java-server with the H2 MVStore file backend on 127.0.0.1.
 *
 * Usage: java LocalMongo <port> <data file>
 *
 * The store keeps LOCAL_DB_CACHE_MB (default 512) of its pages in memory; with H2's default of 16 MB
 * a catalogue of 100,000 parts is read back from the file on every scan.
 *
 * Durable: every command that writes is committed to the file before its answer goes out, so a
 * write the shop saw acknowledged survives a crash of this process (H2 alone commits about once a
 * second). Concurrent writes share a commit: a commit stores everything written so far, and the
 * next one finds nothing left to store. LOCAL_DB_SYNC=fsync also flushes the file to the disk on
 * each commit (survives a crash of the machine too, at a much higher cost: docs/performance.md);
 * LOCAL_DB_SYNC=none leaves it to H2's own commit about once a second (faster, and a crash loses
 * up to the last second of acknowledged writes).
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

    /** Commands that change data (lower case); an aggregate does when a stage is $out or $merge. */
    private static final Set<String> WRITES = Set.of(
        "insert", "update", "delete", "findandmodify", "create", "drop", "dropdatabase", "createindexes",
        "dropindexes", "renamecollection", "collmod");

    static boolean writes(String command, Document query) {
        String name = command.toLowerCase();
        if (WRITES.contains(name)) return true;
        if (!name.equals("aggregate") || !(query.get("pipeline") instanceof List<?> pipeline)) return false;
        return pipeline.stream()
            .anyMatch(stage -> stage instanceof Document d && (d.containsKey("$out") || d.containsKey("$merge")));
    }

    /** The H2 backend, committing after every command that writes. */
    static final class DurableBackend extends H2Backend {
        private final MVStore store;
        private final boolean fsync;

        DurableBackend(MVStore store, boolean fsync) {
            super(store);
            this.store = store;
            this.fsync = fsync;
        }

        @Override
        public Document handleCommand(Channel channel, String database, String command, Document query) {
            try {
                return super.handleCommand(channel, database, command, query);
            } finally {
                if (writes(command, query)) {
                    synchronized (this) {
                        // A commit walks every map of the store; it stores only what changed since the
                        // last one, and answers -1 when nothing did.
                        if (store.commit() != -1 && fsync) store.sync();
                    }
                }
            }
        }
    }

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
        String sync = System.getenv().getOrDefault("LOCAL_DB_SYNC", "commit");
        H2Backend backend = "none".equals(sync) ? new H2Backend(store) : new DurableBackend(store, "fsync".equals(sync));
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
