package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.ReactiveDistributedLock;

/**
 * A thread waiting in the blocking view for a lock another handle holds parks ({@code LockSupport}, not
 * {@code Object.wait}) holding no monitor (no {@code synchronized} block) and no ownable synchronizer: on Java 21 to
 * 23 a virtual thread that waits inside a {@code synchronized} block pins its carrier thread, so such a wait would hold a
 * carrier from every other virtual
 * thread for as long as the lock stays held. Checked on a platform thread, whose monitors the JDK reports, for the
 * blocking acquisition and for the guarded section of the blocking view.
 */
class BlockingWaitHoldsNoMonitorTest {

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory();

    @Test
    void aBlockingAcquisitionWaitsHoldingNoMonitor() throws Exception {
        assertWaitsHoldingNothing(waiter -> waiter.acquire(Duration.ofSeconds(30)));
    }

    @Test
    void aBlockingGuardedSectionWaitsHoldingNoMonitor() throws Exception {
        assertWaitsHoldingNothing(waiter -> waiter.acquireAndExecute(Duration.ofSeconds(30), () -> true));
    }

    private void assertWaitsHoldingNothing(Function<DistributedLock, Boolean> waiting) throws Exception {
        String key = "no-monitor-" + UUID.randomUUID();
        ReactiveDistributedLock holder = locks.registry().obtain(key);
        assertThat(RegistryFixture.await(holder.acquireOnce())).isTrue();
        DistributedLock waiter = locks.registry().obtain(key).toBlocking();
        CompletableFuture<Boolean> outcome = new CompletableFuture<>();
        Thread thread = new Thread(() -> outcome.complete(waiting.apply(waiter)), "blocking-waiter");
        thread.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
            assertThat(System.nanoTime()).as("the waiter parks within 10 s").isLessThan(deadline);
            Thread.onSpinWait();
        }

        ThreadInfo info = ManagementFactory.getThreadMXBean().getThreadInfo(new long[] { thread.getId() }, true,
                true)[0];
        assertThat(info.getLockedMonitors()).as("monitors held by the waiting thread, at %s",
                Arrays.toString(info.getStackTrace())).isEmpty();
        assertThat(info.getLockedSynchronizers()).as("synchronizers held by the waiting thread").isEmpty();
        assertThat(info.getStackTrace()[0].getMethodName()).as("parked (LockSupport), not in Object.wait, at %s",
                Arrays.toString(info.getStackTrace())).isEqualTo("park");

        assertThat(RegistryFixture.await(holder.release())).isTrue();
        assertThat(outcome.get(30, TimeUnit.SECONDS)).as("the waiter gets the lock once released").isTrue();
    }
}
