import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * Secondary (non-unique) indexes for mongo-java-server, which ignores them (1.47: an EmptyIndex, so
 * every query that no unique index answers reads the whole collection). Written here because the
 * library has no such index and no other kept library adds one to it.
 *
 * Each declared index keeps, in memory, the documents by the values of its first field (every
 * element of an array: multikey, as MongoDB's; MemoryIndex.java), filled from the collection at its
 * first read after the server opens it (all of a collection's indexes in one pass) and kept current
 * by the collection's own add, update and remove calls. A query (find, count, update, delete, and an
 * aggregate's first $match) with an equality or an $in on that field, at the top or inside an $and,
 * reads only those documents; the collection still tests each against the whole query and sorts
 * them, so the index only ever narrows what is read, never what matches. Of several usable indexes,
 * the one naming the fewest documents is read. A range on the field ($lt, $gt, …) with a sort on it
 * and a limit (the part numbers next to a typed one) walks the values in order and stops once
 * enough documents match; unique indexes other than _id get the same walk (RangedUniqueIndex).
 * Other fields of a compound index are not served from it: a read costs what it matches, not the
 * collection.
 *
 * Values indexed and queried: strings, ObjectIds and booleans (what the shop's equalities lead with);
 * numbers, dates and documents are left to a scan, as before, so no type's equality rules differ.
 *
 * Each collection counts the documents it has read and its full scans, answered by the command
 * `{localDbReads: "<collection>"}`: the tests check that a search scans nothing.
 */
final class SecondaryIndexes {
    private SecondaryIndexes() {
    }

    /** The one store of the process (the database's constructor opens collections before its fields are set). */
    static volatile MVStore store;

    /** Documents read and full scans, by full collection name (`db.collection`). */
    static final Map<String, AtomicLong[]> READS = new ConcurrentHashMap<>();

    static AtomicLong[] counters(String fullName) {
        return READS.computeIfAbsent(fullName, name -> new AtomicLong[] {new AtomicLong(), new AtomicLong()});
    }

    /** The answer to `{localDbReads: "<collection>"}`: documents read and full scans since the server started. */
    static Document reads(String database, Object collection) {
        AtomicLong[] counted = counters(database + "." + collection);
        return new Document("documents", counted[0].get()).append("scans", counted[1].get()).append("ok", 1.0);
    }

    /** An aggregate's first $match, handed to the collection it reads (the aggregation reads "all" documents). */
    record Pushed(String fullName, Document match) {
    }

    static final ThreadLocal<Pushed> PUSHED = new ThreadLocal<>();

    /** The database: H2's, with secondary indexes and counting collections. */
    static final class IndexedDatabase extends H2Database {
        IndexedDatabase(String databaseName, MVStore mvStore, CursorRegistry cursorRegistry) {
            super(databaseName, mvStore, cursorRegistry);
        }

        @Override
        protected Index<Object> openOrCreateSecondaryIndex(String collectionName, String indexName, List<IndexKey> keys,
                                                           boolean sparse) {
            String field = keys.get(0).getKey();
            boolean positional = Utils.splitPath(field).stream().anyMatch(part -> part.matches("\\d+"));
            if (field.equals("_id") || field.startsWith("$") || positional) return new MemoryIndex.UnkeptIndex(indexName, keys);
            // Indexes that start with the same field (the same terms, sorted two ways) share the first one's
            // values: it names the same documents, and one copy of a catalogue's terms is enough memory.
            MongoCollection<Object> collection = resolveCollection(collectionName, false);
            if (collection != null) {
                for (Index<Object> index : collection.getIndexes()) {
                    if (index instanceof MemoryIndex memory && memory.field.equals(field) && !index.getName().equals(indexName)) {
                        return new MemoryIndex.UnkeptIndex(indexName, keys);
                    }
                }
            }
            MemoryIndex index = new MemoryIndex(indexName, keys, sparse, false);
            // On an empty collection (a new one, as at the shop's first start) there is nothing to fill.
            index.filled = collection == null || collection.isEmpty();
            return index;
        }

        @Override
        protected Index<Object> openOrCreateUniqueIndex(String collectionName, String indexName, List<IndexKey> keys,
                                                        boolean sparse) {
            Index<Object> unique = super.openOrCreateUniqueIndex(collectionName, indexName, keys, sparse);
            String field = keys.get(0).getKey();
            if (keys.size() != 1 || field.equals("_id") || field.contains(".")) return unique;
            MemoryIndex.RangedUniqueIndex index = new MemoryIndex.RangedUniqueIndex(unique, indexName, keys, sparse);
            MongoCollection<Object> collection = resolveCollection(collectionName, false);
            index.memory.filled = collection == null || collection.isEmpty();
            return index;
        }

        @Override
        protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
            String fullName = getFullCollectionNamespace(collectionName);
            MVMap<Object, Document> dataMap = store.openMap("databases." + fullName);
            MVMap<String, Object> metaMap = store.openMap("meta." + fullName);
            return new CountingCollection(this, collectionName, options, dataMap, metaMap, cursorRegistry);
        }
    }

    /** H2's collection, reading through the secondary indexes and counting what it reads. */
    static final class CountingCollection extends H2Collection {
        CountingCollection(MongoDatabase database, String collectionName, CollectionOptions options,
                           MVMap<Object, Document> dataMap, MVMap<String, Object> metaMap, CursorRegistry cursorRegistry) {
            super(database, collectionName, options, dataMap, metaMap, cursorRegistry);
        }

        /**
         * Fills the indexes that are not filled yet (opened at the server's start, or just created),
         * all in one pass over the documents, under the collection's lock so no write comes between.
         * The library builds each index it is given from two passes of its own, one index after the
         * other; an index kept here says it is not empty, so it is given none.
         */
        private void fillPending() {
            List<MemoryIndex> pending = new ArrayList<>();
            for (Index<Object> index : getIndexes()) {
                MemoryIndex memory = index instanceof MemoryIndex.RangedUniqueIndex ranged ? ranged.memory
                    : index instanceof MemoryIndex plain ? plain : null;
                if (memory != null && !memory.filled) pending.add(memory);
            }
            if (pending.isEmpty()) return;
            synchronized (this) {
                pending.removeIf(memory -> memory.filled);
                if (pending.isEmpty()) return;
                streamAllDocumentsWithPosition().forEach(entry -> {
                    for (MemoryIndex memory : pending) memory.fill(entry.getDocument(), entry.getPosition());
                });
                for (MemoryIndex memory : pending) memory.filled = true;
            }
        }

        @Override
        protected QueryResult queryDocuments(Document query, Document orderBy, int numberToSkip, int limit,
                                             int batchSize, Document fieldSelector) {
            boolean natural = orderBy != null && orderBy.containsKey("$natural");
            if (!natural) fillPending();
            QueryResult walked = natural ? null : walk(query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
            if (walked != null) return walked;
            // An _id or a list of them beside other conditions (the unique index answers `_id` alone only).
            Collection<Object> fewest = natural ? null : idsNamed(query.get("_id"));
            for (Index<Object> index : getIndexes()) {
                if (natural) break;
                if (!(index instanceof MemoryIndex memory)) {
                    if (index.canHandle(query)) return super.queryDocuments(query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
                    continue;
                }
                Collection<Object> positions = memory.candidates(query);
                if (positions != null && (fewest == null || positions.size() < fewest.size())) fewest = positions;
            }
            if (fewest == null) return super.queryDocuments(query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
            return matchDocuments(query, fewest, orderBy, numberToSkip, limit, batchSize, fieldSelector);
        }

        /** The ids an `_id` condition names (an id, `$eq` or `$in` of ids; a position is its document's id), or null. */
        private static Collection<Object> idsNamed(Object condition) {
            if (condition instanceof ObjectId || condition instanceof String) return List.of(condition);
            if (!(condition instanceof Document operators) || operators.size() != 1) return null;
            Object eq = operators.get("$eq");
            if (eq instanceof ObjectId || eq instanceof String) return List.of(eq);
            if (operators.get("$in") instanceof Collection<?> in
                && in.stream().allMatch(id -> id instanceof ObjectId || id instanceof String)) {
                return new ArrayList<>(new LinkedHashSet<>(in));
            }
            return null;
        }

        /**
         * A range on one field, sorted by it, with a limit: the index's values in the sort's order,
         * until enough documents match. Null when the query is not that, or no index has the field.
         */
        private QueryResult walk(Document query, Document orderBy, int numberToSkip, int limit, int batchSize,
                                 Document fieldSelector) {
            if (orderBy == null || orderBy.size() != 1 || limit <= 0 || query.size() != 1) return null;
            String field = orderBy.keySet().iterator().next();
            if (!(query.get(field) instanceof Document operators) || !(orderBy.get(field) instanceof Number direction)) {
                return null;
            }
            NavigableMap<Object, Object> range = null;
            for (Index<Object> index : getIndexes()) {
                MemoryIndex memory = index instanceof MemoryIndex.RangedUniqueIndex ranged ? ranged.memory
                    : index instanceof MemoryIndex plain ? plain : null;
                if (memory != null && memory.field.equals(field)) range = memory.range(operators);
                if (range != null) break;
            }
            if (range == null) return null;
            List<Document> documents = new ArrayList<>();
            Set<Object> seen = new HashSet<>();
            int read = 0;
            for (Object held : (direction.intValue() < 0 ? range.descendingMap() : range).values()) {
                for (Object position : held instanceof MemoryIndex.Positions all ? all.list() : List.of(held)) {
                    if (!seen.add(position)) continue;
                    Document document = getDocument(position);
                    read++;
                    if (document != null && documentMatchesQuery(document, query)) documents.add(document);
                }
                if (documents.size() >= numberToSkip + limit) break;
            }
            counters(getFullName())[0].addAndGet(read);
            return matchDocumentsFromStream(documents.stream(), query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
        }

        /** Read by positions (a unique or a secondary index): only those documents. */
        @Override
        protected QueryResult matchDocuments(Document query, Iterable<Object> positions, Document orderBy,
                                             int numberToSkip, int limit, int batchSize, Document fieldSelector) {
            List<Document> documents = new ArrayList<>();
            for (Object position : positions) {
                Document document = getDocument(position);
                if (document != null) documents.add(document);
            }
            counters(getFullName())[0].addAndGet(documents.size());
            return matchDocumentsFromStream(documents.stream(), query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
        }

        /** No index answers the query: every document is read. */
        @Override
        protected QueryResult matchDocuments(Document query, Document orderBy, int numberToSkip, int limit,
                                             int batchSize, Document fieldSelector) {
            AtomicLong[] counted = counters(getFullName());
            counted[0].addAndGet(count());
            counted[1].incrementAndGet();
            return super.matchDocuments(query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
        }

        /** An aggregation starts from "all" documents: from those its first $match can name, when an index can. */
        @Override
        public Stream<Document> queryAllAsStream() {
            Pushed pushed = PUSHED.get();
            if (pushed == null || !pushed.fullName().equals(getFullName())) return super.queryAllAsStream();
            PUSHED.remove();
            List<Document> documents = new ArrayList<>();
            handleQuery(pushed.match(), 0, 0).forEach(documents::add);
            return documents.stream();
        }
    }
}
