package io.quarkiverse.lock.testsupport.proxy;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Redis framing and pairing: replies answer requests in the order they were sent, except pushes. A push is a RESP3
 * {@code >} frame, or a RESP2 {@code message}, {@code pmessage} or {@code smessage} array on a connection that is
 * subscribed. The confirmations of {@code SUBSCRIBE} and its kin (one per channel, RESP2 arrays or RESP3 pushes) are
 * the replies to that command. Commands that change how many replies follow ({@code CLIENT REPLY OFF},
 * {@code MONITOR}) are not paired correctly.
 */
final class RespCodec implements WireCodec {

    private static final Set<String> SUBSCRIBING = Set.of("subscribe", "psubscribe", "ssubscribe");
    private static final Set<String> UNSUBSCRIBING = Set.of("unsubscribe", "punsubscribe", "sunsubscribe");
    private static final Set<String> MESSAGES = Set.of("message", "pmessage", "smessage");
    /** Expected replies of an unsubscribe from every channel: until the count of subscriptions is zero. */
    private static final int UNTIL_NONE_LEFT = -1;

    private final Queue<Pending> pending = new ConcurrentLinkedQueue<>();
    private boolean subscribed;

    @Override
    public byte[] readRequest(FrameInput in) throws IOException {
        if (!in.awaitFrame()) {
            return null;
        }
        List<String> words = RespFrame.readRequest(in);
        pending.add(new Pending(String.join(" ", words), expectedReplies(words), isSubscription(words)));
        return in.takeFrame();
    }

    private static boolean isSubscription(List<String> words) {
        String command = words.isEmpty() ? "" : words.get(0).toLowerCase(Locale.ROOT);
        return SUBSCRIBING.contains(command) || UNSUBSCRIBING.contains(command);
    }

    private static int expectedReplies(List<String> words) {
        if (words.isEmpty()) {
            return 1;
        }
        String command = words.get(0).toLowerCase(Locale.ROOT);
        int channels = words.size() - 1;
        if (SUBSCRIBING.contains(command)) {
            return Math.max(1, channels);
        }
        if (UNSUBSCRIBING.contains(command)) {
            return channels == 0 ? UNTIL_NONE_LEFT : channels;
        }
        return 1;
    }

    @Override
    public Reply readReply(FrameInput in) throws IOException {
        if (!in.awaitFrame()) {
            return null;
        }
        RespFrame frame = RespFrame.read(in);
        byte[] bytes = in.takeFrame();
        boolean aggregate = frame.type() == '*' || frame.type() == '>';
        String kind = frame.kind();
        Pending head = pending.peek();
        if (aggregate && (SUBSCRIBING.contains(kind) || UNSUBSCRIBING.contains(kind))
                && (frame.type() == '>' || head != null && head.subscription)) {
            return confirmation(frame, bytes, head);
        }
        if (frame.type() == '>' || frame.type() == '*' && subscribed && MESSAGES.contains(kind)) {
            return new Reply(bytes, null, frame.text(), true);
        }
        pending.poll();
        if (head != null && "reset".equalsIgnoreCase(head.text)) {
            subscribed = false;
        }
        return new Reply(bytes, head == null ? "?" : head.text, frame.text(), false);
    }

    /**
     * A subscription's confirmation: the reply to the pending (un)subscribe, which is done after one confirmation per
     * channel it named (or, naming none, once no subscription is left); a push if no (un)subscribe is pending, as when
     * the server ends a subscription by itself.
     */
    private Reply confirmation(RespFrame frame, byte[] bytes, Pending head) {
        long left = frame.elements().size() > 2 ? parseCount(frame.elements().get(2)) : 0;
        subscribed = left > 0;
        if (head == null || !head.subscription) {
            return new Reply(bytes, null, frame.text(), true);
        }
        head.received++;
        if (head.expected == UNTIL_NONE_LEFT ? left == 0 : head.received >= head.expected) {
            pending.poll();
        }
        return new Reply(bytes, head.text, frame.text(), false);
    }

    private static long parseCount(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A request waiting for its replies; {@link #received} is only touched by the thread reading replies. */
    private static final class Pending {

        final String text;
        final int expected;
        final boolean subscription;
        int received;

        Pending(String text, int expected, boolean subscription) {
            this.text = text;
            this.expected = expected;
            this.subscription = subscription;
        }
    }
}
