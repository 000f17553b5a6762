package io.quarkiverse.lock.testsupport.mongo;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.MongoServerError;

/**
 * One command as the strict front received it, with what a rule needs to judge it.
 *
 * @param topology the deployment the front plays
 * @param database the database the command runs on
 * @param name the command's name as sent (its first field)
 * @param body the whole command document
 * @param indexesOf the index specifications of a collection of that database, as {@code listIndexes} lists them
 */
public record StrictCommand(MongoTopology topology, String database, String name, Document body,
        Function<String, List<Document>> indexesOf) {

    private static final Set<String> WRITES = Set.of("insert", "update", "delete", "findandmodify", "createindexes",
            "dropindexes", "drop", "create");

    /**
     * @param command a command name, in any case
     * @return {@code true} if this is that command (MongoDB command names are case-insensitive here, as
     *         {@code findAndModify} and {@code findandmodify} are)
     */
    public boolean is(String command) {
        return name.equalsIgnoreCase(command);
    }

    /**
     * @return {@code true} for the write commands, which are the ones that accept a write concern
     */
    public boolean isWrite() {
        return WRITES.contains(name.toLowerCase(Locale.ROOT));
    }

    /**
     * @return the command's {@code writeConcern.w}, or {@code null} when it names none
     */
    public Object w() {
        Object concern = body.get("writeConcern");
        return concern instanceof Document document ? document.get("w") : null;
    }

    /**
     * @return the command's numeric {@code w}, or 0 when it names none or a mode such as {@code majority}
     */
    public long numericW() {
        return w() instanceof Number number ? number.longValue() : 0;
    }

    /**
     * Answers the command as the real server would when it refuses it: {@code {ok: 0, code, codeName, errmsg}}.
     *
     * @param code the server's error code
     * @param codeName the server's name for that code
     * @param message the server's message
     * @throws MongoServerError always
     */
    public static void refuse(int code, String codeName, String message) {
        throw new MongoServerError(code, codeName, message);
    }
}
