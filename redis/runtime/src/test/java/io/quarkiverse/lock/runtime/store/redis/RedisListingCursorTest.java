package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The Redis listing's cursors and slots, without a server: every cursor it makes reads back as made, anything else
 * is refused naming the cursor, and the key that addresses a primary's scan is in the slot asked for.
 */
class RedisListingCursorTest {

    @Test
    void aCursorReadsBackAsItWasMade() {
        for (RedisListing.Cursor cursor : new RedisListing.Cursor[] { new RedisListing.Cursor(-1, "0", 0),
                new RedisListing.Cursor(-1, "18446744073709551615", 3), new RedisListing.Cursor(0, "17", 0),
                new RedisListing.Cursor(16383, "5", 1000) }) {
            assertThat(RedisListing.Cursor.parse(cursor.toString())).isEqualTo(cursor);
        }
    }

    @Test
    void aCursorTheListingDidNotMakeIsRefusedNamingIt() {
        for (String garbage : new String[] { "", "abc", "12x", "1:2:3", "/4", "5/", "3/1:2", "-1", "16384:0",
                "1:", ":1", "123456789012345678901", "1/2/3" }) {
            assertThatThrownBy(() -> RedisListing.Cursor.parse(garbage)).as("cursor '%s'", garbage)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'" + garbage + "'");
        }
    }

    @Test
    void slotsAreRedisClusterHashSlots() {
        // the values Redis's CLUSTER KEYSLOT answers
        assertThat(RedisListing.slot("123456789")).isEqualTo(12739);
        assertThat(RedisListing.slot("foo")).isEqualTo(12182);
        assertThat(RedisListing.slot("")).isZero();
    }

    @Test
    void theRoutingKeyOfASlotIsInThatSlotAndIsNoLockKey() {
        RedisListing listing = new RedisListing(null, "lock:");
        for (int slot : new int[] { 0, 1, 5461, 10923, 16383 }) {
            String key = listing.routingKey(slot);
            String tag = key.substring(key.indexOf('{') + 1, key.indexOf('}'));
            assertThat(RedisListing.slot(tag)).as("slot of %s", key).isEqualTo(slot);
            assertThat(RedisListing.lockKey("lock:", key)).as("lock key of %s", key).isNull();
        }
    }
}
