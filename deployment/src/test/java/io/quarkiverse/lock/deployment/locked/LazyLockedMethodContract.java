package io.quarkiverse.lock.deployment.locked;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * What {@code @Locked} does besides for a lazy return type ({@code Uni}, {@code Multi}): a call neither runs the
 * method nor takes the lock until subscription.
 *
 * @param <R> what the bean's methods return
 */
abstract class LazyLockedMethodContract<R> extends LockedMethodContract<R> {

    @Test
    void nothingHappensBeforeSubscription() {
        int before = jobs.invocations();
        Object call = invocation("work", "lazy", Duration.ZERO).get();

        assertThat(jobs.invocations()).isEqualTo(before);
        assertThat(registry.obtain("job-lazy").acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(registry.obtain("job-lazy").release().await().atMost(TIMEOUT)).isFalse();
        assertThat(call).isNotNull();
    }
}
