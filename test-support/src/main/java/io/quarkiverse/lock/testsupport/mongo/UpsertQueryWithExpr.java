package io.quarkiverse.lock.testsupport.mongo;

import java.util.List;
import java.util.Map;

import de.bwaldvogel.mongo.bson.Document;

/**
 * A real server refuses {@code $expr} anywhere in the query of an upsert ({@code update} statements and
 * {@code findAndModify} with {@code upsert: true}): it cannot tell which equalities to copy into the inserted
 * document. Code 224 {@code QueryFeatureNotAllowed}, "$expr is not allowed in the query predicate for an upsert".
 * {@code mongo-java-server} runs such upserts.
 */
final class UpsertQueryWithExpr implements StrictRule {

    @Override
    public String source() {
        return "src/mongo/db/ops/parsed_update.cpp ParsedUpdate::parseQueryToCQ (older releases; "
                + "src/mongo/db/query/write_ops/canonical_update.cpp CanonicalUpdate::parseQueryToCQ, current tree)";
    }

    @Override
    public void before(StrictCommand command) {
        if (command.is("findAndModify")) {
            check(command.body().get("upsert"), command.body().get("query"));
        } else if (command.is("update") && command.body().get("updates") instanceof List<?> statements) {
            for (Object statement : statements) {
                if (statement instanceof Document update) {
                    check(update.get("upsert"), update.get("q"));
                }
            }
        }
    }

    private static void check(Object upsert, Object query) {
        if (Boolean.TRUE.equals(upsert) && containsExpr(query)) {
            StrictCommand.refuse(224, "QueryFeatureNotAllowed",
                    "$expr is not allowed in the query predicate for an upsert");
        }
    }

    private static boolean containsExpr(Object value) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if ("$expr".equals(entry.getKey()) || containsExpr(entry.getValue())) {
                    return true;
                }
            }
        } else if (value instanceof List<?> list) {
            for (Object element : list) {
                if (containsExpr(element)) {
                    return true;
                }
            }
        }
        return false;
    }
}
