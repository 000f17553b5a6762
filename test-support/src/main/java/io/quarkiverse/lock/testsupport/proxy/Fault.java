package io.quarkiverse.lock.testsupport.proxy;

import java.time.Duration;
import java.util.Arrays;

/**
 * What a {@link FaultRule} does to one reply (or server push): deliver it, or inject a fault. In every case the server
 * has already applied the request; a fault only changes what the client sees of the reply.
 */
public sealed interface Fault permits Fault.Pass, Fault.Drop, Fault.Delay, Fault.Cut, Fault.Replace {

    /**
     * @return no fault: the reply is delivered, unless a later rule injects one
     */
    static Fault pass() {
        return Pass.INSTANCE;
    }

    /**
     * The reply never reaches the client; the connection stays open, and later replies on it still pass.
     * <p>
     * On {@link WireProtocol#REDIS} this breaks the pairing of replies with requests exactly as a lost reply would:
     * the client takes the next reply for the answer to the dropped one. A real network loses replies only by losing
     * the connection, so on Redis use {@link #cut()} (or drop followed by a cut); drop is meant for
     * {@link WireProtocol#MONGODB}, whose replies name the request they answer, and for
     * {@link WireProtocol#POSTGRESQL} and {@link WireProtocol#MARIADB} when a rule drops every message answering one
     * request (up to the one that {@linkplain Exchange#endsAnswer() ends the answer}): the client then waits for that
     * request for ever, as on a lost reply.
     *
     * @return the fault
     */
    static Fault drop() {
        return Drop.INSTANCE;
    }

    /**
     * The reply reaches the client later; to keep their order, so does everything after it on the same connection.
     *
     * @param duration how much later; not negative
     * @return the fault
     * @throws IllegalArgumentException if {@code duration} is {@code null} or negative
     */
    static Fault delay(Duration duration) {
        return new Delay(duration);
    }

    /**
     * The connection is closed in both directions instead of delivering this reply: replies before it that are still
     * delayed are delivered first, then the client sees the connection closed; the server side is closed at once, so
     * nothing the client sends afterwards reaches the server.
     *
     * @return the fault
     */
    static Fault cut() {
        return Cut.INSTANCE;
    }

    /**
     * This frame reaches the client instead of the reply. On {@link WireProtocol#MONGODB} the proxy writes the
     * replaced reply's requestID and responseTo into the frame's header, so one frame can stand for any reply.
     *
     * @param frame the complete frame, in the wire protocol (for Redis, such as {@code "-ERR injected\r\n"})
     * @return the fault
     * @throws IllegalArgumentException if {@code frame} is {@code null} or empty
     */
    static Fault replaceWith(byte[] frame) {
        return new Replace(frame);
    }

    /** Deliver the reply. */
    record Pass() implements Fault {

        static final Pass INSTANCE = new Pass();
    }

    /** Drop the reply. */
    record Drop() implements Fault {

        static final Drop INSTANCE = new Drop();
    }

    /**
     * Delay the reply, and the replies after it.
     *
     * @param duration how long
     */
    record Delay(Duration duration) implements Fault {

        /**
         * @param duration how long; not negative
         * @throws IllegalArgumentException if {@code duration} is {@code null} or negative
         */
        public Delay {
            if (duration == null || duration.isNegative()) {
                throw new IllegalArgumentException("A delay must be a duration of zero or more, not " + duration);
            }
        }
    }

    /** Close the connection instead of delivering the reply. */
    record Cut() implements Fault {

        static final Cut INSTANCE = new Cut();
    }

    /**
     * Deliver another frame instead of the reply.
     *
     * @param frame the frame's bytes
     */
    record Replace(byte[] frame) implements Fault {

        /**
         * @param frame the complete frame; copied
         * @throws IllegalArgumentException if {@code frame} is {@code null} or empty
         */
        public Replace {
            if (frame == null || frame.length == 0) {
                throw new IllegalArgumentException("A replacement frame must have at least one byte");
            }
            frame = frame.clone();
        }

        /**
         * @return a copy of the frame's bytes
         */
        @Override
        public byte[] frame() {
            return frame.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Replace replace && Arrays.equals(frame, replace.frame);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(frame);
        }

        @Override
        public String toString() {
            return "Replace[" + frame.length + " bytes]";
        }
    }
}
