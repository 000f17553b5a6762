package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * Owner ids carry 128 random bits: every bit position varies independently, and no id repeats.
 */
class OwnerIdsTest {

    private static final int IDS = 10_000;

    @Test
    void everyOneOf128BitsIsRandomAndIdsDoNotRepeat() {
        Set<String> ids = new HashSet<>();
        int[] ones = new int[128];
        for (int i = 0; i < IDS; i++) {
            String id = OwnerIds.next();
            assertThat(id).hasSize(22).matches("[A-Za-z0-9_-]+");
            byte[] bits = Base64.getUrlDecoder().decode(id);
            assertThat(bits).hasSize(16);
            for (int bit = 0; bit < 128; bit++) {
                if ((bits[bit / 8] >> (bit % 8) & 1) == 1) {
                    ones[bit]++;
                }
            }
            ids.add(id);
        }
        assertThat(ids).hasSize(IDS);
        for (int bit = 0; bit < 128; bit++) {
            assertThat(ones[bit]).as("bit %d is set in about half of the ids", bit)
                    .isBetween(IDS * 2 / 5, IDS * 3 / 5);
        }
    }
}
