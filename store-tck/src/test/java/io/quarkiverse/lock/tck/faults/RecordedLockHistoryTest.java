package io.quarkiverse.lock.tck.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.MonotonicClock;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.quarkiverse.lock.tck.faults.LockOperation.Kind;
import io.quarkiverse.lock.tck.faults.LockOperation.Outcome;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * What a recorded handle of the fault run writes in the history, on the in-memory store: each operation's kind,
 * outcome and token, with times that bound it.
 */
class RecordedLockHistoryTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final MonotonicClock clock = MonotonicClock.system();
    private final Vertx vertx = Vertx.vertx();
    private final StandaloneLockRegistry registry = StandaloneLockRegistry.over(new InMemoryLockStore(clock), vertx)
            .settings(RandomizedFaultRun.LOCK_SETTINGS).start();
    private final OperationHistory history = new OperationHistory();
    private final AtomicLong reads = new AtomicLong();
    private final Supplier<Uni<Long>> stamps = () -> Uni.createFrom()
            .item(() -> ClockSectionLog.micros(clock.instant()) + reads.incrementAndGet());

    @AfterEach
    void close() {
        registry.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private RecordedLock recorded(String handle, LockType type) {
        return new RecordedLock(registry.obtain("k", type), history, stamps, handle, type == LockType.REENTRANT,
                type == LockType.OVERRIDING, 2_000, "TEST");
    }

    /** The history once every completion stamp answered (they are read after the answers, without waiting). */
    private List<LockOperation> recordedHistory(int operations) {
        List<LockOperation> all = history.operations();
        assertThat(all).hasSize(operations).allMatch(LockOperation::didComplete);
        return all;
    }

    @Test
    void anAcquisitionAndItsReleaseAreRecordedWithTheTokenAndTimesInOrder() {
        RecordedLock lock = recorded("h1", LockType.SINGLE_ENTRANT);
        assertThat(lock.acquire(Duration.ZERO, Duration.ofSeconds(3)).await().atMost(TIMEOUT)).isTrue();
        long token = lock.fencingToken().orElseThrow();
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
        List<LockOperation> all = recordedHistory(2);
        LockOperation acquisition = all.get(0);
        LockOperation release = all.get(1);
        assertThat(acquisition).extracting(LockOperation::kind, LockOperation::outcome, LockOperation::token,
                LockOperation::leaseMillis).containsExactly(Kind.ACQUIRE, Outcome.OK, token, 3_000L);
        assertThat(release).extracting(LockOperation::kind, LockOperation::outcome, LockOperation::token)
                .containsExactly(Kind.RELEASE, Outcome.OK, token);
        assertThat(acquisition.invoked()).isLessThan(acquisition.completed());
        assertThat(acquisition.completed()).isLessThan(release.invoked());
        assertThat(release.invoked()).isLessThan(release.completed());
        assertThat(HistoryChecker.check(all, 0).violations()).isEmpty();
    }

    @Test
    void anAcquisitionRefusedIsAFailureAndAReleaseOfNothingToo() {
        RecordedLock holder = recorded("h1", LockType.SINGLE_ENTRANT);
        RecordedLock other = recorded("h2", LockType.SINGLE_ENTRANT);
        assertThat(holder.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(other.acquireOnce().await().atMost(TIMEOUT)).isFalse();
        assertThat(other.release().await().atMost(TIMEOUT)).isFalse();
        List<LockOperation> all = recordedHistory(3);
        assertThat(all.get(0).leaseMillis()).as("the default lease").isEqualTo(2_000);
        assertThat(all).extracting(LockOperation::outcome).containsExactly(Outcome.OK, Outcome.FAIL, Outcome.FAIL);
        assertThat(all.get(1).token()).isEqualTo(-1);
        assertThat(all.get(2).token()).as("the release of a handle holding nothing").isEqualTo(-1);
    }

    @Test
    void anExecutionRecordsItsAcquisitionWhenTheActionStartsAndItsReleaseWhenItEnds() {
        RecordedLock lock = recorded("h1", LockType.SINGLE_ENTRANT);
        long[] tokenInAction = new long[1];
        lock.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(1), Uni.createFrom().item(() -> {
            tokenInAction[0] = lock.fencingToken().orElseThrow();
            return "done";
        })).await().atMost(TIMEOUT);
        List<LockOperation> all = recordedHistory(2);
        assertThat(all).extracting(LockOperation::kind, LockOperation::outcome, LockOperation::token)
                .containsExactly(tuple(Kind.ACQUIRE, Outcome.OK, tokenInAction[0]),
                        tuple(Kind.RELEASE, Outcome.OK, tokenInAction[0]));
        assertThat(all.get(0).completed()).isLessThan(all.get(1).invoked());
    }

    @Test
    void anAcquisitionCancelledWhileItWaitsHasAnUnknownOutcome() {
        RecordedLock holder = recorded("h1", LockType.SINGLE_ENTRANT);
        RecordedLock waiter = recorded("h2", LockType.SINGLE_ENTRANT);
        assertThat(holder.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        Uni<Boolean> waiting = waiter.acquire(Duration.ofSeconds(5), Duration.ofSeconds(1));
        waiting.subscribe().with(ignored -> {
        }).cancel();
        List<LockOperation> all = recordedHistory(2);
        assertThat(all.get(1)).extracting(LockOperation::handle, LockOperation::outcome)
                .containsExactly("h2", Outcome.UNKNOWN);
    }
}
