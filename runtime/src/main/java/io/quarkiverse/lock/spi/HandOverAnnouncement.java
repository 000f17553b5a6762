package io.quarkiverse.lock.spi;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The text of a hand-over announced on a PostgreSQL notification channel, {@code G <owner> <token> <key as hex>}, the
 * key being the row's (key prefix included, UTF-8), as both PostgreSQL stores send and read it: the reactive store
 * builds it in its release statement, the JDBC store with {@link #of}. A payload ends at 8000 bytes, so a hand-over of
 * a longer key than {@link #LONGEST_KEY_BYTES} is not announced, and its waiter finds it by polling.
 */
public final class HandOverAnnouncement {

    /** The longest key (prefix included, in UTF-8 bytes) whose hand-over is announced. */
    public static final int LONGEST_KEY_BYTES = 3500;

    private HandOverAnnouncement() {
    }

    /**
     * @param owner the owner id of the waiter the lock was handed to
     * @param token the fencing token of its hold
     * @param key the key as stored, prefix included, in UTF-8
     * @return the announcement's text
     * @throws IllegalArgumentException if the key is longer than {@link #LONGEST_KEY_BYTES}
     */
    public static String of(String owner, long token, byte[] key) {
        if (key.length > LONGEST_KEY_BYTES) {
            throw new IllegalArgumentException("A hand-over of a key of " + key.length
                    + " bytes is not announced: the longest is " + LONGEST_KEY_BYTES);
        }
        return "G " + owner + " " + token + " " + HexFormat.of().formatHex(key);
    }

    /**
     * Reads an announcement and tells the listener of the hand-over it announces, if it is one of a key under the
     * prefix; anything else (another application's key, a payload of another shape) is ignored.
     *
     * @param payload the notification's payload
     * @param prefix the key prefix of this application, in UTF-8
     * @param listener told of a hand-over of a key under that prefix
     * @return {@code true} if the listener was told, {@code false} if the payload was ignored
     */
    public static boolean dispatch(String payload, byte[] prefix, ReleaseListener listener) {
        if (!payload.startsWith("G ")) {
            return false;
        }
        int ownerEnd = payload.indexOf(' ', 2);
        int tokenEnd = ownerEnd < 0 ? -1 : payload.indexOf(' ', ownerEnd + 1);
        if (tokenEnd < 0) {
            return false;
        }
        byte[] id;
        long token;
        try {
            id = HexFormat.of().parseHex(payload, tokenEnd + 1, payload.length());
            token = Long.parseLong(payload, ownerEnd + 1, tokenEnd, 10);
        } catch (IllegalArgumentException malformed) {
            return false;
        }
        if (id.length < prefix.length || !Arrays.equals(id, 0, prefix.length, prefix, 0, prefix.length)) {
            return false;
        }
        String key = new String(id, prefix.length, id.length - prefix.length, StandardCharsets.UTF_8);
        listener.handedOver(key, payload.substring(2, ownerEnd), token);
        return true;
    }
}
