package io.quarkiverse.lock.testsupport.mongo;

/**
 * A real server refuses a write concern on a command that does not write ({@code find}, {@code aggregate} without
 * {@code $out}/{@code $merge}, {@code ping}, ...): code 72 {@code InvalidOptions}, "Command does not support
 * writeConcern". {@code mongo-java-server} ignores it.
 */
final class WriteConcernOnReadCommand implements StrictRule {

    @Override
    public String source() {
        return "src/mongo/db/service_entry_point_common.cpp (uassertCommandDoesNotSpecifyWriteConcern)";
    }

    @Override
    public void before(StrictCommand command) {
        if (!command.isWrite() && command.body().containsKey("writeConcern") && !writesThroughStage(command)) {
            StrictCommand.refuse(72, "InvalidOptions", "Command does not support writeConcern");
        }
    }

    private static boolean writesThroughStage(StrictCommand command) {
        String pipeline = String.valueOf(command.body().get("pipeline"));
        return command.is("aggregate") && (pipeline.contains("$out") || pipeline.contains("$merge"));
    }
}
