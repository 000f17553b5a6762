package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.MonotonicClock;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * A store of a third party that does not list its locks (the SPI's default {@code listHeld}) answers every listing,
 * from the Dev UI or a {@code LockAdmin}, with {@link UnsupportedOperationException}: that is the store's answer, not
 * an outage, so it neither starts one (a warning in the log, the outage meter, skipped scheduled {@code @Locked}
 * firings) nor keeps one going.
 */
class StoreRefusalIsNoOutageTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final Vertx vertx = Vertx.vertx();
    private final AtomicInteger outagesStarted = new AtomicInteger();
    private final AtomicInteger outagesEnded = new AtomicInteger();
    private final StoreOutage outage = new StoreOutage("third-party", new LockObserver() {

        @Override
        public void storeOutageStarted() {
            outagesStarted.incrementAndGet();
        }

        @Override
        public void storeOutageEnded(long outageNanos) {
            outagesEnded.incrementAndGet();
        }
    }, System::nanoTime);

    @AfterEach
    void closeVertx() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aStoreThatCannotListStartsNoOutage() {
        LockStore store = bounded(new ThirdPartyStore(new UnsupportedOperationException("cannot list")));

        assertThatThrownBy(() -> store.listHeld(null, 10).await().atMost(TIMEOUT))
                .isInstanceOf(UnsupportedOperationException.class);

        assertThat(outagesStarted).as("outages started by a listing the store does not offer").hasValue(0);
    }

    @Test
    void aStoreThatCannotListEndsAnOutageAsAnyAnswerDoes() {
        ThirdPartyStore thirdParty = new ThirdPartyStore(new IllegalStateException("connection refused"));
        LockStore store = bounded(thirdParty);
        assertThatThrownBy(() -> store.listHeld(null, 10).await().atMost(TIMEOUT))
                .isInstanceOf(IllegalStateException.class);
        assertThat(outagesStarted).as("outages started by a store that failed").hasValue(1);

        thirdParty.listingFailure = new UnsupportedOperationException("cannot list");
        assertThatThrownBy(() -> store.listHeld(null, 10).await().atMost(TIMEOUT))
                .isInstanceOf(UnsupportedOperationException.class);

        assertThat(outagesEnded).as("outages ended by the store's answer that it cannot list").hasValue(1);
    }

    private LockStore bounded(LockStore store) {
        return new TimeBoundedLockStore(store, TIMEOUT, vertx, (key, owner, lease) -> {
        }, outage);
    }

    /** A store that does everything but list its locks, which fails as it is told. */
    private static final class ThirdPartyStore extends ForwardingLockStore {

        volatile RuntimeException listingFailure;

        ThirdPartyStore(RuntimeException listingFailure) {
            super(new InMemoryLockStore(MonotonicClock.system()));
            this.listingFailure = listingFailure;
        }

        @Override
        public Uni<LockPage> listHeld(String cursor, int limit) {
            return Uni.createFrom().failure(listingFailure);
        }
    }
}
