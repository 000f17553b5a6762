package io.quarkiverse.lock.docs;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.lock.LockKey;
import io.quarkiverse.lock.Locked;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

/**
 * {@code @Locked} in its common forms.
 */
// tag::locked[]
@ApplicationScoped
public class Payments {

    @Locked(key = "order-{orderId}", waitTime = "5s") // a template over the parameters by name
    public Uni<String> pay(String orderId, String card) {
        return Uni.createFrom().item("paid " + orderId + " with " + card);
    }

    @Scheduled(cron = "0 0 * * * ?") // once an hour across instances, however far apart they fire (up to 5 min)
    @Locked(waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "5m", expireAfter = "10m")
    void buildReport() {
        // the first instance to fire runs it; the others find the lock held and skip
    }

    // no key: the class's fully qualified name, the method and the @LockKey parameters
    // key: io.quarkiverse.lock.docs.Payments.refund:<tenant>:<orderId>
    @Locked(waitTime = "${payments.lock-wait:2s}", expireAfter = "1m")
    public String refund(@LockKey String tenant, @LockKey String orderId) {
        return "refunded " + orderId + " of " + tenant;
    }
}
// end::locked[]
