package io.quarkiverse.lock.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * An announcement written by {@link HandOverAnnouncement#of} is read back by {@link HandOverAnnouncement#dispatch}
 * under the application's key prefix, and only there; anything else is ignored.
 */
class HandOverAnnouncementTest {

    private final List<String> told = new ArrayList<>();
    private final ReleaseListener listener = new ReleaseListener() {
        @Override
        public void released(String key) {
            told.add("released " + key);
        }

        @Override
        public void handedOver(String key, String owner, long token) {
            told.add(key + " to " + owner + " at " + token);
        }

        @Override
        public void mayHaveMissed() {
            told.add("missed");
        }
    };

    @Test
    void anAnnouncementIsReadBackUnderItsPrefix() {
        String payload = HandOverAnnouncement.of("owner-1", 42, utf8("app:k\u00e9y \u0000x"));
        assertThat(HandOverAnnouncement.dispatch(payload, utf8("app:"), listener)).isTrue();
        assertThat(told).containsExactly("k\u00e9y \u0000x to owner-1 at 42");
    }

    @Test
    void anotherApplicationsKeyAndMalformedPayloadsAreIgnored() {
        String payload = HandOverAnnouncement.of("owner-1", 42, utf8("other:key"));
        assertThat(HandOverAnnouncement.dispatch(payload, utf8("app:"), listener)).as("another prefix").isFalse();
        assertThat(HandOverAnnouncement.dispatch("R owner 1 6b", utf8(""), listener)).as("not a hand-over").isFalse();
        assertThat(HandOverAnnouncement.dispatch("G owner 1", utf8(""), listener)).as("no key").isFalse();
        assertThat(HandOverAnnouncement.dispatch("G owner x 6b", utf8(""), listener)).as("no token").isFalse();
        assertThat(HandOverAnnouncement.dispatch("G owner 1 6", utf8(""), listener)).as("odd hex").isFalse();
        assertThat(told).isEmpty();
    }

    @Test
    void aKeyTooLongToAnnounceIsRefused() {
        byte[] longest = new byte[HandOverAnnouncement.LONGEST_KEY_BYTES];
        assertThat(HandOverAnnouncement.of("o", 1, longest)).hasSize(2 + 1 + 1 + 1 + 1 + 2 * longest.length);
        assertThatThrownBy(() -> HandOverAnnouncement.of("o", 1, new byte[longest.length + 1]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3501 bytes");
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
