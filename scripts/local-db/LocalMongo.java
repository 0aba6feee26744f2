import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.MongoServerError;
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
 * Looks after itself: a write is refused (MongoDB's OutOfDiskSpace, code 14031) while less than
 * LOCAL_DB_MIN_FREE_MB (default 64) is free where the file is, so a full disk never reaches the store
 * and reads go on; writes work again once space is freed. The store is compacted every
 * LOCAL_DB_COMPACT_SECONDS (default 30) when less than 80% of its file is live data, and old chunks
 * are kept LOCAL_DB_RETENTION_MS (default 5000) before their space is reused, so the file stays
 * proportional to the data (docs/performance.md). Should the store close anyway (an I/O error), the
 * process says so in one line and exits 3; the shop starts it again (server/local-db.ts).
 *
 * Every connection has its own thread (up to LOCAL_DB_THREADS, default 64), so a slow query never
 * holds up the answers of other connections.
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

    /** MongoDB's code for a write refused for want of disk space. */
    static final int OUT_OF_DISK_SPACE = 14031;

    /**
     * The H2 backend, refusing writes while the disk is nearly full and, unless sync is "none",
     * committing after every command that writes.
     */
    static final class GuardedBackend extends H2Backend {
        private final MVStore store;
        private final File directory;
        private final long minFreeBytes;
        private final boolean commit;
        private final boolean fsync;

        GuardedBackend(MVStore store, File directory, long minFreeBytes, String sync) {
            super(withIndexes(store));
            this.store = store;
            this.directory = directory;
            this.minFreeBytes = minFreeBytes;
            this.commit = !"none".equals(sync);
            this.fsync = "fsync".equals(sync);
        }

        private static MVStore withIndexes(MVStore store) {
            SecondaryIndexes.store = store;
            return store;
        }

        /** H2's database with the declared secondary indexes (SecondaryIndexes.java). */
        @Override
        protected MongoDatabase openOrCreateDatabase(String databaseName) {
            return new SecondaryIndexes.IndexedDatabase(databaseName, getMvStore(), getCursorRegistry());
        }

        @Override
        public Document handleCommand(Channel channel, String database, String command, Document query) {
            if (command.equals("localDbReads")) return SecondaryIndexes.reads(database, query.get(command));
            if (command.equalsIgnoreCase("aggregate") && query.get("aggregate") instanceof String collection
                && query.get("pipeline") instanceof List<?> pipeline && !pipeline.isEmpty()
                && pipeline.get(0) instanceof Document first && first.get("$match") instanceof Document match) {
                SecondaryIndexes.PUSHED.set(new SecondaryIndexes.Pushed(database + "." + collection, match));
            }
            try {
                return guarded(channel, database, command, query);
            } finally {
                SecondaryIndexes.PUSHED.remove();
            }
        }

        private Document guarded(Channel channel, String database, String command, Document query) {
            boolean writes = writes(command, query);
            if (writes && !command.equalsIgnoreCase("delete") && !command.equalsIgnoreCase("drop")
                && directory.getUsableSpace() < minFreeBytes) {
                // Deletes free space: they go through.
                throw new MongoServerError(OUT_OF_DISK_SPACE, "OutOfDiskSpace",
                    "disk full: less than " + (minFreeBytes >> 20) + " MB free for the database file in " + directory);
            }
            try {
                return super.handleCommand(channel, database, command, query);
            } finally {
                if (writes && commit && !store.isClosed()) {
                    synchronized (this) {
                        // A commit walks every map of the store; it stores only what changed since the
                        // last one, and answers -1 when nothing did.
                        if (store.commit() != -1 && fsync) store.sync();
                    }
                }
                if (store.isClosed()) closed(store.getPanicException());
            }
        }
    }

    /** The store closed itself (an I/O error such as a full disk): one line, and exit for a restart. */
    static void closed(Throwable cause) {
        String why = cause == null ? "unknown cause" : String.valueOf(cause.getMessage()).split("\n")[0];
        System.err.println("STORE CLOSED: " + why);
        System.err.flush();
        Runtime.getRuntime().halt(3);
    }

    static int setting(String name, int fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : Integer.parseInt(value.trim());
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
        MVStore store = new MVStore.Builder()
            .fileName(file.getPath())
            .cacheSize(Integer.parseInt(cacheMb))
            .backgroundExceptionHandler((thread, error) -> closed(error))
            .open();
        store.setRetentionTime(setting("LOCAL_DB_RETENTION_MS", 5000));
        String sync = System.getenv().getOrDefault("LOCAL_DB_SYNC", "commit");
        long minFree = (long) setting("LOCAL_DB_MIN_FREE_MB", 64) << 20;
        GuardedBackend backend = new GuardedBackend(store, file.getAbsoluteFile().getParentFile(), minFree, sync);
        backend.version(VERSION);

        // Compaction: rewrites the chunks that are mostly dead and moves the live ones to the front
        // of the file, which then shrinks; each run holds the store at most 500 ms.
        int compactSeconds = setting("LOCAL_DB_COMPACT_SECONDS", 30);
        if (compactSeconds > 0) {
            ScheduledExecutorService compactor = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "compactor");
                thread.setDaemon(true);
                return thread;
            });
            compactor.scheduleWithFixedDelay(() -> {
                try {
                    // Compaction writes before it frees: never on a disk already short of space.
                    if (!store.isClosed() && store.getFillRate() < 80
                        && backend.directory.getUsableSpace() >= backend.minFreeBytes) {
                        synchronized (backend) {
                            store.compactFile(500);
                        }
                    }
                } catch (RuntimeException error) {
                    if (store.isClosed()) closed(error);
                    System.err.println("compaction failed: " + String.valueOf(error.getMessage()).split("\n")[0]);
                }
            }, compactSeconds, compactSeconds, TimeUnit.SECONDS);
        }
        MongoServer server = new MongoServer(backend);
        // Each connection's commands run on its event loop, one at a time; with Netty's default
        // (two loops per core) a quick query, or the shop's heartbeat ping, waits behind a slow
        // one on another connection of the same loop. Enough loops give each connection its own.
        server.bind(new InetSocketAddress("127.0.0.1", port), 1, setting("LOCAL_DB_THREADS", 64));

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
