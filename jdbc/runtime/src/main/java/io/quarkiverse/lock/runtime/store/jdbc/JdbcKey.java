package io.quarkiverse.lock.runtime.store.jdbc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A lock key as the JDBC store keeps it: the key prefix and the lock key in UTF-8 (any key, NUL included, verbatim),
 * and their SHA-256 digest, the primary key, of one size whatever the key's length, so that every database can index
 * it.
 *
 * @param id the digest
 * @param bytes the prefixed key in UTF-8, or {@code null} where only the row's id is known
 */
record JdbcKey(byte[] id, byte[] bytes) {

    /**
     * @param prefixedKey the key prefix and the lock key
     * @return the stored key
     */
    static JdbcKey of(String prefixedKey) {
        byte[] bytes = prefixedKey.getBytes(StandardCharsets.UTF_8);
        try {
            return new JdbcKey(MessageDigest.getInstance("SHA-256").digest(bytes), bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime has SHA-256", e);
        }
    }
}
