package io.quarkiverse.lock.testsupport.mongo;

import de.bwaldvogel.mongo.bson.Document;

/**
 * A replica set applies a write whose numeric write concern exceeds its data-bearing members, then answers
 * {@code ok: 1} with a {@code writeConcernError}: code 100 {@code UnsatisfiableWriteConcern}, "Not enough
 * data-bearing nodes". The write stays applied. {@code mongo-java-server} ignores write concerns.
 */
final class UnsatisfiableWriteConcern implements StrictRule {

    @Override
    public String source() {
        return "src/mongo/db/repl/repl_set_config.cpp ReplSetConfig::checkIfWriteConcernCanBeSatisfied (called by "
                + "ReplicationCoordinatorImpl::awaitReplication after the write)";
    }

    @Override
    public void after(StrictCommand command, Document reply) {
        if (command.topology() == MongoTopology.REPLICA_SET && command.isWrite()
                && command.numericW() > MongoTopology.DATA_BEARING_MEMBERS) {
            reply.put("writeConcernError", concernError(command));
        }
    }

    /**
     * @param command the write
     * @return the {@code writeConcernError} a replica set answers when too few members can acknowledge the write
     */
    static Document concernError(StrictCommand command) {
        return new Document("code", 100).append("codeName", "UnsatisfiableWriteConcern")
                .append("errmsg", "Not enough data-bearing nodes")
                .append("errInfo", new Document("writeConcern", command.body().get("writeConcern")));
    }
}
