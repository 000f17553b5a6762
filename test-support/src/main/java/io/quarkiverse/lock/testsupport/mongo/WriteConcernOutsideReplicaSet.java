package io.quarkiverse.lock.testsupport.mongo;

/**
 * A standalone server refuses, before running the command, a numeric write concern above 1 ("cannot use 'w' > 1
 * when a host is not replicated") and any write concern mode other than {@code majority}: code 2 {@code BadValue}.
 * {@code mongo-java-server} ignores write concerns.
 */
final class WriteConcernOutsideReplicaSet implements StrictRule {

    @Override
    public String source() {
        return "src/mongo/db/write_concern.cpp validateWriteConcern";
    }

    @Override
    public void before(StrictCommand command) {
        if (command.topology() != MongoTopology.STANDALONE || !command.isWrite()) {
            return;
        }
        if (command.numericW() > 1) {
            StrictCommand.refuse(2, "BadValue", "cannot use 'w' > 1 when a host is not replicated");
        }
        if (command.w() instanceof String mode && !mode.equals("majority")) {
            StrictCommand.refuse(2, "BadValue",
                    "cannot use non-majority 'w' mode " + mode + " when a host is not a member of a replica set");
        }
    }
}
