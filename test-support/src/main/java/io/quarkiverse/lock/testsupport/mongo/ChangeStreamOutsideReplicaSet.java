package io.quarkiverse.lock.testsupport.mongo;

import java.util.List;

import de.bwaldvogel.mongo.bson.Document;

/**
 * A standalone server refuses to open a change stream: code 40573, "The $changeStream stage is only supported on
 * replica sets". {@code mongo-java-server} streams changes whenever its oplog is on.
 */
final class ChangeStreamOutsideReplicaSet implements StrictRule {

    @Override
    public String source() {
        return "src/mongo/db/pipeline/document_source_change_stream.cpp "
                + "DocumentSourceChangeStream::assertIsLegalSpecification";
    }

    @Override
    public void before(StrictCommand command) {
        if (command.topology() == MongoTopology.STANDALONE && opensChangeStream(command)) {
            StrictCommand.refuse(40573, "Location40573", "The $changeStream stage is only supported on replica sets");
        }
    }

    /**
     * @param command a command
     * @return {@code true} if it is an {@code aggregate} whose first stage is {@code $changeStream}
     */
    static boolean opensChangeStream(StrictCommand command) {
        return command.is("aggregate") && command.body().get("pipeline") instanceof List<?> stages
                && !stages.isEmpty() && stages.get(0) instanceof Document first && first.containsKey("$changeStream");
    }
}
