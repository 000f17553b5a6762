package io.quarkiverse.lock.it;

import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.quarkiverse.lock.leadership.LeaderElected;
import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.Leading;
import io.smallrye.mutiny.Uni;

/**
 * Work that only the leader of group {@value #GROUP} runs, and a count of this instance's elections, told by the CDI
 * event.
 */
@ApplicationScoped
public class LeaderWork {

    /** The group every store's application declares and joins at startup. */
    public static final String GROUP = "reports";

    private final AtomicInteger elections = new AtomicInteger();

    @Inject
    Leadership leadership;

    /**
     * @return the term this instance leads in; fails with {@link io.quarkiverse.lock.leadership.NotLeaderException}
     *         on an instance that does not lead
     */
    @Leading(GROUP)
    public Uni<Long> term() {
        return Uni.createFrom().item(() -> leadership.group(GROUP).term().orElseThrow());
    }

    void elected(@Observes LeaderElected elected) {
        if (elected.group().equals(GROUP)) {
            elections.incrementAndGet();
        }
    }

    /**
     * @return how many times this instance was elected leader of {@value #GROUP}
     */
    public int elections() {
        return elections.get();
    }
}
