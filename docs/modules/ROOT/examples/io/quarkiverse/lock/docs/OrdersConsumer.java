package io.quarkiverse.lock.docs;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.quarkiverse.lock.leadership.LeaderElected;
import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.LeadershipEnded;
import io.quarkiverse.lock.leadership.Leading;
import io.quarkus.logging.Log;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * One consumer of the queue of orders across every instance: the leader of group {@code orders-consumer}.
 */
@ApplicationScoped
public class OrdersConsumer {

    static final String GROUP = "orders-consumer";

    @Inject
    Leadership leadership;

    @Inject
    ReactiveRedisDataSource redis;

    // tag::consumer[]
    void onElected(@Observes LeaderElected elected) { // <1>
        if (!GROUP.equals(elected.group())) {
            return;
        }
        leadership.group(GROUP)
                .whileLeadingMany(orders(elected.term())) // <2>
                .subscribe().with(
                        shipped -> Log.debugf("Shipped %s", shipped),
                        stopped -> Log.infof("Stopped consuming orders: %s", stopped.getMessage())); // <3>
    }

    Multi<String> orders(long term) {
        return Multi.createFrom().ticks().every(Duration.ofMillis(100))
                .onItem().transformToUniAndConcatenate(tick -> redis.list(String.class).rpop("orders")) // <4>
                .select().where(order -> order != null)
                .onItem().transformToUniAndConcatenate(order -> ship(order, term));
    }

    Uni<String> ship(String order, long term) {
        return redis.value(String.class).set("shipment:" + order, "term " + term) // <5>
                .replaceWith(order);
    }

    void onEnded(@Observes LeadershipEnded ended) { // <6>
        Log.infof("No longer leading %s (term %d): %s", ended.group(), ended.term(), ended.cause());
    }
    // end::consumer[]

    // tag::scheduled[]
    @Scheduled(every = "1m")
    @Leading(value = GROUP, whenNotLeader = Leading.WhenNotLeader.SKIP) // <1>
    void reconcile() {
        // runs on the leader only; its thread is interrupted if the term ends meanwhile
    }
    // end::scheduled[]
}
