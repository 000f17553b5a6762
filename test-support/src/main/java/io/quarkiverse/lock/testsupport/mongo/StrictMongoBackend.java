package io.quarkiverse.lock.testsupport.mongo;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;

import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;

/**
 * {@code mongo-java-server}'s memory backend behind a strict front: every command first goes through the
 * {@link #RULES}, so that what a real MongoDB server (5.0 to 8.0) refuses is refused here with the real code and
 * message, and replies are changed where the real server's differ. The front also plays a deployment (a standalone
 * server or a replica set of one data-bearing member, in the handshake reply) and injects the faults a test asks for
 * through {@link MongoFaults}.
 * <p>
 * Only the commands the lock store sends are judged; the list of rules, each naming the server source that makes it,
 * is the strict front's whole claim. Besides, an empty {@code getMore} of a change stream waits a little before
 * answering, as on a real server ({@link AwaitDataEmulation}).
 */
public final class StrictMongoBackend extends MemoryBackend {

    /** The rules, in the order the real server applies them (write concern first, then the command's own). */
    public static final List<StrictRule> RULES = List.of(
            new WriteConcernOnReadCommand(),
            new WriteConcernOutsideReplicaSet(),
            new ChangeStreamOutsideReplicaSet(),
            new UpsertQueryWithExpr(),
            new IndexSpecConflict(),
            new UnsatisfiableWriteConcern());

    private static final String REPLICA_SET_NAME = "rs0";

    private final MongoTopology topology;
    private final MongoFaults faults;

    /**
     * @param topology the deployment to play
     * @param faultState the fault state a test drives, made by {@link MongoFaults#newState()}
     */
    public StrictMongoBackend(MongoTopology topology, Map<String, Object> faultState) {
        this.topology = topology;
        this.faults = MongoFaults.of(faultState);
        version(ServerVersion.MONGO_5_0);
        enableOplog();
    }

    /**
     * @return a new fault state, for {@link #StrictMongoBackend(MongoTopology, Map)}
     */
    public static Map<String, Object> newFaultState() {
        return MongoFaults.newState();
    }

    @Override
    public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
        shiftDates(query, faults.clockShiftMillis());
        StrictCommand strict = new StrictCommand(topology, databaseName, command, query,
                collection -> indexes(channel, databaseName, collection));
        faults.count(command);
        if (ChangeStreamOutsideReplicaSet.opensChangeStream(strict)) {
            faults.count("changeStream");
        }
        String json = query.toString();
        faults.record(json);
        Object[] refusal = faults.takeRefusal(json);
        if (refusal != null) {
            StrictCommand.refuse((Integer) refusal[0], (String) refusal[1], (String) refusal[2]);
        }
        for (StrictRule rule : RULES) {
            rule.before(strict);
        }
        Document reply = super.handleCommand(channel, databaseName, command, query);
        for (StrictRule rule : RULES) {
            rule.after(strict, reply);
        }
        if (faults.takeConcernError(json)) {
            reply.put("writeConcernError", new Document("code", 64).append("codeName", "WriteConcernFailed")
                    .append("errmsg", "waiting for replication timed out")
                    .append("errInfo", new Document("wtimeout", true)));
        }
        if (topology == MongoTopology.REPLICA_SET && isHandshake(command)) {
            playReplicaSetPrimary(reply, channel);
        }
        AwaitDataEmulation.afterCommand(channel, command, reply);
        return reply;
    }

    private List<Document> indexes(Channel channel, String databaseName, String collection) {
        Document reply = super.handleCommand(channel, databaseName, "listIndexes",
                new Document("listIndexes", collection));
        List<Document> indexes = new ArrayList<>();
        if (reply.get("cursor") instanceof Document cursor && cursor.get("firstBatch") instanceof List<?> batch) {
            for (Object index : batch) {
                indexes.add((Document) index);
            }
        }
        return indexes;
    }

    private static boolean isHandshake(String command) {
        return command.equalsIgnoreCase("isMaster") || command.equalsIgnoreCase("hello");
    }

    /**
     * The handshake fields of the primary of a replica set whose only member it is (see
     * {@code src/mongo/db/repl/replication_info.cpp}, which fills them in on a real server).
     */
    private static void playReplicaSetPrimary(Document reply, Channel channel) {
        InetSocketAddress address = (InetSocketAddress) channel.localAddress();
        String me = address.getHostString() + ":" + address.getPort();
        reply.put("setName", REPLICA_SET_NAME);
        reply.put("setVersion", 1);
        reply.put("secondary", false);
        reply.put("hosts", List.of(me));
        reply.put("primary", me);
        reply.put("me", me);
    }

    private static void shiftDates(Object value, long shiftMillis) {
        if (shiftMillis == 0) {
            return;
        }
        if (value instanceof Document document) {
            for (Map.Entry<String, Object> entry : document.entrySet()) {
                if (entry.getValue() instanceof Instant instant) {
                    entry.setValue(instant.plusMillis(shiftMillis));
                } else {
                    shiftDates(entry.getValue(), shiftMillis);
                }
            }
        } else if (value instanceof List<?> list) {
            @SuppressWarnings("unchecked")
            ListIterator<Object> elements = ((List<Object>) list).listIterator();
            while (elements.hasNext()) {
                Object element = elements.next();
                if (element instanceof Instant instant) {
                    elements.set(instant.plusMillis(shiftMillis));
                } else {
                    shiftDates(element, shiftMillis);
                }
            }
        }
    }
}
