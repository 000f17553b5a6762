package io.quarkiverse.lock.runtime.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The JDBC listing's cursor, the hexadecimal digest of the last row a page read: one of that shape reads back as the
 * digest, and any other is refused naming it, before a connection is taken.
 */
class JdbcListingCursorTest {

    @Test
    void aCursorOfADigestReadsBackAsThatDigest() {
        String cursor = "00ff".repeat(16);

        assertThat(JdbcListing.digest(cursor)).hasSize(32).startsWith((byte) 0, (byte) 0xff);
    }

    @Test
    void aCursorOfAnotherShapeIsRefusedNamingIt() {
        for (String garbage : new String[] { "", "zz", "00ff".repeat(15), "00ff".repeat(17), "g".repeat(64) }) {
            assertThatThrownBy(() -> JdbcListing.digest(garbage)).as("cursor '%s'", garbage)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'" + garbage + "'")
                    .hasMessageContaining("lock_id");
        }
    }
}
