package io.quarkiverse.lock.testsupport.proxy;

import java.util.function.Predicate;

/**
 * Which faults {@link RandomFaults} may inject on a store's connections, as far as the store's protocol and client
 * survive them: every store gets delayed replies, cut connections, storms, swallowed connections and every connection
 * cut at once; a store whose server pushes messages (Redis pub/sub, PostgreSQL notifications) also gets delayed pushes
 * and episodes of lagging pushes; a store whose protocol lets one answer be lost on a connection that stays open also
 * gets dropped answers and episodes of many.
 *
 * @param drops how an answer is dropped, or {@link Drops#NONE}
 * @param droppable which replies a drop may begin at (a dropped handshake would leave its connection half open for
 *        ever, which no client can tell from a slow server); asked only when {@code drops} is not {@link Drops#NONE}
 * @param pushes whether the server pushes messages that answer no request
 */
public record FaultMix(Drops drops, Predicate<Exchange> droppable, boolean pushes) {

    /**
     * Redis: replies are paired with requests by their order, so none may be dropped on an open connection (a lost
     * reply comes with a lost connection); pub/sub messages are pushes.
     */
    public static final FaultMix REDIS = new FaultMix(Drops.NONE, exchange -> false, true);

    /**
     * @param drops how an answer is dropped
     * @param droppable which replies a drop may begin at
     * @param pushes whether the server pushes messages
     * @throws IllegalArgumentException if {@code drops} or {@code droppable} is {@code null}
     */
    public FaultMix {
        if (drops == null || droppable == null) {
            throw new IllegalArgumentException("A fault mix needs a drop scope and which replies are droppable");
        }
    }

    /** How much a drop takes away. */
    public enum Drops {

        /** No drops. */
        NONE,

        /**
         * One reply: for {@link WireProtocol#MONGODB}, whose replies name the request they answer, so the client waits
         * for the lost one and takes the next ones for what they are.
         */
        REPLY,

        /**
         * Every message of one answer, from the one the drop began at up to the one that ends the answer
         * ({@link Exchange#endsAnswer()}): for {@link WireProtocol#POSTGRESQL} and {@link WireProtocol#MARIADB},
         * whose clients wait for the rest of the answer for ever.
         */
        ANSWER
    }
}
