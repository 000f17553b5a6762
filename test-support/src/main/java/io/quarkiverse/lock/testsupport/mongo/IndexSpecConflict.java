package io.quarkiverse.lock.testsupport.mongo;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import de.bwaldvogel.mongo.bson.Document;

/**
 * A real server refuses to create an index under the name of an existing one with another specification: code 86
 * {@code IndexKeySpecsConflict} when the key or an identifying option ({@code unique}, {@code sparse},
 * {@code partialFilterExpression}, {@code collation}) differs, code 85 {@code IndexOptionsConflict} when only other
 * options such as {@code expireAfterSeconds} differ. Creating an identical index does nothing.
 * {@code mongo-java-server} keeps the first index without a word.
 */
final class IndexSpecConflict implements StrictRule {

    private static final Set<String> IDENTIFYING = Set.of("key", "unique", "sparse", "partialFilterExpression",
            "collation");
    private static final Set<String> NOT_OPTIONS = Set.of("v", "ns", "name");

    @Override
    public String source() {
        return "src/mongo/db/catalog/index_catalog_impl.cpp IndexCatalogImpl::_doesSpecConflictWithExisting";
    }

    @Override
    public void before(StrictCommand command) {
        if (!command.is("createIndexes") || !(command.body().get("indexes") instanceof List<?> requested)) {
            return;
        }
        List<Document> existing = command.indexesOf().apply(String.valueOf(command.body().get("createIndexes")));
        for (Object candidate : requested) {
            if (candidate instanceof Document spec) {
                for (Document index : existing) {
                    if (Objects.equals(index.get("name"), spec.get("name"))) {
                        check(spec, index);
                    }
                }
            }
        }
    }

    private static void check(Document requested, Document existing) {
        for (String option : IDENTIFYING) {
            if (!sameValue(requested.get(option), existing.get(option))) {
                StrictCommand.refuse(86, "IndexKeySpecsConflict", "An existing index has the same name as the "
                        + "requested index. Requested index: " + requested + ", existing index: " + existing);
            }
        }
        for (String option : union(requested.keySet(), existing.keySet())) {
            if (!NOT_OPTIONS.contains(option) && !sameValue(requested.get(option), existing.get(option))) {
                StrictCommand.refuse(85, "IndexOptionsConflict", "An equivalent index already exists with the "
                        + "same name but different options. Requested index: " + requested + ", existing index: "
                        + existing);
            }
        }
    }

    private static Set<String> union(Set<String> first, Set<String> second) {
        Set<String> all = new HashSet<>(first);
        all.addAll(second);
        return all;
    }

    private static boolean sameValue(Object first, Object second) {
        if (first instanceof Number a && second instanceof Number b) {
            return a.doubleValue() == b.doubleValue();
        }
        if (first instanceof Boolean || second instanceof Boolean) {
            return truthy(first) == truthy(second);
        }
        return Objects.equals(first, second);
    }

    private static boolean truthy(Object value) {
        return Boolean.TRUE.equals(value) || value instanceof Number number && number.doubleValue() != 0;
    }
}
