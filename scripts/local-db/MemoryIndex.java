import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.EmptyIndex;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import de.bwaldvogel.mongo.exception.KeyConstraintError;

/**
 * One declared index the launcher keeps for mongo-java-server: the documents' positions by each
 * value of its first field (SecondaryIndexes.java says how they are filled and read). Beside it the
 * unique indexes' values in order, the indexes it does not keep, and the positions' arrays.
 */
final class MemoryIndex extends Index<Object> {
    /** The values kept and queried: what the shop's equalities lead with (numbers and dates keep the scan). */
    static boolean indexable(Object value) {
        return value instanceof String || value instanceof ObjectId || value instanceof Boolean;
    }

    final String field;
    /**
     * A value's positions: one position (most values of a catalogue are one part's), or a Positions
     * array. A position is added only for a value its document did not
     * have (a new document, or an update's new values), so the arrays hold no duplicates.
     */
    private final Map<Object, Object> postings;
    /** Kept in MongoDB's order of values, for ranges (a unique key's: RangedUniqueIndex), or hashed. */
    private final boolean sorted;
    private long entries;
    /** Filled from the documents (CountingCollection.fillPending); until then writes leave it alone. */
    volatile boolean filled;

    MemoryIndex(String name, List<IndexKey> keys, boolean sparse, boolean sorted) {
        super(name, keys, sparse);
        this.field = keys.get(0).getKey();
        this.sorted = sorted;
        this.postings = sorted ? new TreeMap<>(ValueComparator.asc()) : new HashMap<>();
    }

    /** Nothing is refused: uniqueness is the unique indexes' business. */
    @Override
    public void checkAdd(Document document, MongoCollection<Object> collection) {
    }

    @Override
    public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<Object> collection) {
    }

    /** The position comes from the _id index (getSinglePosition skips this one). */
    @Override
    public Object getPosition(Document document) {
        return null;
    }

    /** Lets the collection remove a document without a position from this index (it takes the _id's). */
    @Override
    protected boolean isSparse() {
        return true;
    }

    private Set<Object> values(Document document) {
        Set<Object> values = new LinkedHashSet<>();
        collect(Utils.getSubdocumentValueCollectionAware(document, field), values);
        return values;
    }

    private static void collect(Object value, Set<Object> into) {
        if (value instanceof Collection<?> list) {
            for (Object element : list) collect(element, into);
        } else if (indexable(value)) {
            into.add(value);
        }
    }

    private void put(Object value, Object position) {
        Object held = postings.get(value);
        if (held == null) {
            postings.put(value, position);
        } else if (held instanceof Positions positions) {
            positions.add(position);
        } else {
            Positions positions = new Positions();
            positions.add(held);
            positions.add(position);
            postings.put(value, positions);
        }
        entries++;
    }

    private void take(Object value, Object position) {
        Object held = postings.get(value);
        if (held == null) return;
        if (held instanceof Positions positions) {
            if (!positions.remove(position)) return;
            if (positions.size == 1) postings.put(value, positions.items[0]);
        } else if (held.equals(position)) {
            postings.remove(value);
        } else {
            return;
        }
        entries--;
    }

    synchronized void fill(Document document, Object position) {
        for (Object value : values(document)) put(value, position);
    }

    @Override
    public synchronized void add(Document document, Object position, MongoCollection<Object> collection) {
        if (filled) fill(document, position);
    }

    @Override
    public synchronized Object remove(Document document) {
        Object position = document.get("_id");
        if (filled && position != null) for (Object value : values(document)) take(value, position);
        return null;
    }

    @Override
    public synchronized void updateInPlace(Document oldDocument, Document newDocument, Object position,
                                           MongoCollection<Object> collection) {
        if (!filled) return;
        Set<Object> before = values(oldDocument);
        Set<Object> after = values(newDocument);
        for (Object value : before) if (!after.contains(value)) take(value, position);
        for (Object value : after) if (!before.contains(value)) put(value, position);
    }

    @Override
    public boolean canHandle(Document query) {
        return false;
    }

    @Override
    public Iterable<Object> getPositions(Document query) {
        Collection<Object> positions = candidates(query);
        return positions == null ? List.of() : positions;
    }

    /**
     * The positions of every document that can match the query (a superset: each clause on the
     * field narrows it), or null when the query names no value of the field this index can use.
     */
    synchronized Collection<Object> candidates(Document query) {
        List<Collection<Object>> clauses = new ArrayList<>();
        clauses(query, clauses);
        if (clauses.isEmpty()) return null;
        Set<Object> result = null;
        for (Collection<Object> values : clauses) {
            Set<Object> positions = new HashSet<>();
            for (Object value : values) {
                Object held = postings.get(value);
                if (held instanceof Positions all) all.addTo(positions);
                else if (held != null) positions.add(held);
            }
            if (result == null) result = positions;
            else result.retainAll(positions);
            if (result.isEmpty()) break;
        }
        return new ArrayList<>(result);
    }

    /** The field's positive equalities in the query: each a list of values one of which must match. */
    @SuppressWarnings("unchecked")
    private void clauses(Document query, List<Collection<Object>> into) {
        for (Map.Entry<String, Object> entry : query.entrySet()) {
            if (entry.getKey().equals("$and") && entry.getValue() instanceof Collection<?> all) {
                for (Object part : all) if (part instanceof Document document) clauses(document, into);
            } else if (entry.getKey().equals(field)) {
                Object value = entry.getValue();
                if (indexable(value)) {
                    into.add(List.of(value));
                } else if (value instanceof Document operators) {
                    Object eq = operators.get("$eq");
                    if (indexable(eq)) into.add(List.of(eq));
                    if (operators.get("$in") instanceof Collection<?> in && !in.isEmpty()
                        && in.stream().allMatch(MemoryIndex::indexable)) into.add((Collection<Object>) in);
                    if (operators.get("$all") instanceof Collection<?> every) {
                        for (Object one : every) if (indexable(one)) into.add(List.of(one));
                    }
                }
            }
        }
    }

    /**
     * The values within a range of strings ($gt/$gte and $lt/$lte, one bound or two), or null when
     * the operators are anything else. A copy: the caller reads documents while others write.
     */
    synchronized NavigableMap<Object, Object> range(Document operators) {
        if (!sorted) return null;
        Object low = null;
        Object high = null;
        boolean lowInclusive = false;
        boolean highInclusive = false;
        for (Map.Entry<String, Object> entry : operators.entrySet()) {
            if (!(entry.getValue() instanceof String bound)) return null;
            switch (entry.getKey()) {
                case "$gt", "$gte" -> {
                    if (low != null) return null;
                    low = bound;
                    lowInclusive = entry.getKey().equals("$gte");
                }
                case "$lt", "$lte" -> {
                    if (high != null) return null;
                    high = bound;
                    highInclusive = entry.getKey().equals("$lte");
                }
                default -> {
                    return null;
                }
            }
        }
        // Strings only: a range of strings matches no other type (MongoDB's type bracketing).
        NavigableMap<Object, Object> strings = ((NavigableMap<Object, Object>) postings).subMap("", true, Character.toString(Character.MAX_CODE_POINT), true);
        NavigableMap<Object, Object> within = low != null ? strings.tailMap(low, lowInclusive) : strings;
        within = high != null ? within.headMap(high, highInclusive) : within;
        NavigableMap<Object, Object> copy = new TreeMap<>(ValueComparator.asc());
        for (Map.Entry<Object, Object> entry : within.entrySet()) {
            Object held = entry.getValue();
            copy.put(entry.getKey(), held instanceof Positions all ? all.copy() : held);
        }
        return copy;
    }

    @Override
    public synchronized long getCount() {
        return entries;
    }

    /** Never built by the collection: it fills itself at its first read (CountingCollection.fillPending). */
    @Override
    public boolean isEmpty() {
        return false;
    }

    @Override
    public long getDataSize() {
        return 0;
    }

    @Override
    public synchronized void drop() {
        postings.clear();
        entries = 0;
    }

    /**
     * A unique index (H2's, which answers equalities and $in) with the same values kept in order
     * beside it for ranges (CountingCollection.walk).
     */
    static final class RangedUniqueIndex extends Index<Object> {
        final Index<Object> unique;
        final MemoryIndex memory;

        RangedUniqueIndex(Index<Object> unique, String name, List<IndexKey> keys, boolean sparse) {
            super(name, keys, sparse);
            this.unique = unique;
            this.memory = new MemoryIndex(name, keys, sparse, true);
        }

        @Override
        public boolean isUnique() {
            return true;
        }

        @Override
        public Object getPosition(Document document) {
            return unique.getPosition(document);
        }

        @Override
        public void checkAdd(Document document, MongoCollection<Object> collection) {
            unique.checkAdd(document, collection);
        }

        @Override
        public void add(Document document, Object position, MongoCollection<Object> collection) {
            unique.add(document, position, collection);
            memory.add(document, position, collection);
        }

        @Override
        public Object remove(Document document) {
            memory.remove(document);
            return unique.remove(document);
        }

        @Override
        public boolean canHandle(Document query) {
            return unique.canHandle(query);
        }

        @Override
        public Iterable<Object> getPositions(Document query) {
            return unique.getPositions(query);
        }

        /** H2's count: a stored index is not built again (the values in order fill themselves at the first read). */
        @Override
        public long getCount() {
            return unique.getCount();
        }

        @Override
        public long getDataSize() {
            return unique.getDataSize();
        }

        @Override
        public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<Object> collection) {
            unique.checkUpdate(oldDocument, newDocument, collection);
        }

        @Override
        public void updateInPlace(Document oldDocument, Document newDocument, Object position,
                                  MongoCollection<Object> collection) throws KeyConstraintError {
            unique.updateInPlace(oldDocument, newDocument, position, collection);
            memory.updateInPlace(oldDocument, newDocument, position, collection);
        }

        @Override
        public void drop() {
            unique.drop();
            memory.drop();
        }
    }

    /**
     * An index this launcher does not keep: its first field is `_id` (the unique index's), a path it
     * cannot follow, or one another index of the collection keeps (reads use that one; should that
     * one be dropped, queries on the field read the whole collection again until the server
     * restarts, with the same results). Never empty, so the collection reads no documents to build it.
     */
    static final class UnkeptIndex extends EmptyIndex<Object> {
        UnkeptIndex(String name, List<IndexKey> keys) {
            super(name, keys);
        }

        @Override
        public boolean isEmpty() {
            return false;
        }

        /** Whatever its declared options, asked again it is the same index (MongoDB's own check is on real MongoDB). */
        @Override
        public boolean hasSameOptions(Index<?> other) {
            return true;
        }
    }

    /** A value's positions as a plain array: 4 bytes each, where a set's entry took about 40. */
    static final class Positions {
        Object[] items = new Object[4];
        int size;

        void add(Object position) {
            if (size == items.length) items = Arrays.copyOf(items, size * 2);
            items[size++] = position;
        }

        boolean remove(Object position) {
            for (int index = 0; index < size; index++) {
                if (items[index].equals(position)) {
                    items[index] = items[--size];
                    items[size] = null;
                    return true;
                }
            }
            return false;
        }

        void addTo(Collection<Object> into) {
            for (int index = 0; index < size; index++) into.add(items[index]);
        }

        List<Object> list() {
            return Arrays.asList(items).subList(0, size);
        }

        Positions copy() {
            Positions copy = new Positions();
            copy.items = Arrays.copyOf(items, size);
            copy.size = size;
            return copy;
        }
    }
}
