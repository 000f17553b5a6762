package io.quarkiverse.lock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * A key is remembered as lined for as long as a waiter's place lasts after the last sighting, then forgotten, so that
 * keys no longer used take no memory. Time is the test's.
 */
class KnownLinesTest {

    private static final long PLACE_NANOS = LockStore.PLACE_MILLIS * 1_000_000;

    private final AtomicLong now = new AtomicLong(-5_000_000_000L);
    private final KnownLines lines = new KnownLines(now::get);

    @Test
    void aSightingLastsAsLongAsAPlace() {
        assertThat(lines.likely("k")).as("never seen").isFalse();
        lines.seen("k");
        now.addAndGet(PLACE_NANOS - 1);
        assertThat(lines.likely("k")).as("just before the place would lapse").isTrue();
        assertThat(lines.likely("other")).as("another key").isFalse();
        now.addAndGet(1);
        assertThat(lines.likely("k")).as("once the place would have lapsed").isFalse();
        assertThat(lines.size()).as("a lapsed sighting asked for is forgotten").isZero();
    }

    @Test
    void aNewSightingExtendsTheMemory() {
        lines.seen("k");
        now.addAndGet(PLACE_NANOS / 2);
        lines.seen("k");
        now.addAndGet(PLACE_NANOS - 1);
        assertThat(lines.likely("k")).as("counted from the last sighting").isTrue();
    }

    @Test
    void lapsedSightingsAreForgottenWithoutBeingAskedFor() {
        lines.seen("old");
        now.addAndGet(PLACE_NANOS);
        lines.seen("new");
        lines.forgetLapsed();
        assertThat(lines.size()).as("only the live sighting stays").isEqualTo(1);
        assertThat(lines.likely("new")).isTrue();
    }
}
