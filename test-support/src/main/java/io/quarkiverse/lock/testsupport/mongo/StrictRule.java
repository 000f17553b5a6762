package io.quarkiverse.lock.testsupport.mongo;

import de.bwaldvogel.mongo.bson.Document;

/**
 * Something a real MongoDB server (5.0 to 8.0) refuses, or answers differently, that {@code mongo-java-server} lets
 * through, for the commands the lock store sends. Each rule names the server source that makes the real answer.
 */
public interface StrictRule {

    /**
     * @return the file of the {@code mongodb/mongo} repository (and the function) that gives the real answer
     */
    String source();

    /**
     * Refuses the command, before it runs, when the real server would.
     *
     * @param command the command
     * @throws de.bwaldvogel.mongo.exception.MongoServerError with the real server's code and message
     */
    default void before(StrictCommand command) {
    }

    /**
     * Changes the reply of a command that ran, where the real server's reply differs.
     *
     * @param command the command
     * @param reply the emulator's reply, changed in place
     */
    default void after(StrictCommand command, Document reply) {
    }
}
