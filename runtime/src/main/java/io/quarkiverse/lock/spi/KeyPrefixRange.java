package io.quarkiverse.lock.spi;

import java.util.Arrays;

/**
 * The range of a store's ordered keys that starts with its key prefix, for a listing that reads the prefix's keys in
 * order from an index ({@link LockStore#listHeld}): every key that starts with the prefix is at least the prefix and
 * below {@link #upperBound(byte[])}, compared byte by byte as unsigned values.
 */
public final class KeyPrefixRange {

    private KeyPrefixRange() {
    }

    /**
     * @param prefix the key prefix, as the store orders keys (UTF-8 bytes, compared unsigned)
     * @return the smallest byte string above every one that starts with {@code prefix}: the prefix with its last byte
     *         below 0xFF increased by one and the bytes after it dropped; {@code null} if there is none (an empty
     *         prefix, or one of 0xFF bytes only), when the range is unbounded above
     */
    public static byte[] upperBound(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xFF) {
                byte[] bound = Arrays.copyOf(prefix, i + 1);
                bound[i]++;
                return bound;
            }
        }
        return null;
    }
}
