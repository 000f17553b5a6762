package io.quarkiverse.lock.docs;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.lock.LockRegistry;
import io.smallrye.mutiny.Uni;

/**
 * Getting started: one payment per order at a time, across every instance.
 */
@ApplicationScoped
public class PaymentService {

    /** The payment provider the example charges. */
    public interface PaymentProvider {
        /**
         * @param orderId the order to charge
         * @return the receipt
         */
        Uni<String> charge(String orderId);
    }

    @Inject
    PaymentProvider provider;

    // tag::pay[]
    @Inject
    LockRegistry locks;

    /**
     * @param orderId the order to pay
     * @return the receipt; fails with CannotAcquireLockException if another payment of it runs for 5 s
     */
    public Uni<String> pay(String orderId) {
        return locks.obtain("order-" + orderId)
                .withMetricsName("order-payment")
                .acquireAndExecute(Duration.ofSeconds(5), provider.charge(orderId));
    }
    // end::pay[]
}
