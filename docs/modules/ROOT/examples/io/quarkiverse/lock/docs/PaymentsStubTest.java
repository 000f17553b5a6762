package io.quarkiverse.lock.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.testing.LockRegistryStub;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The stub registry in a {@code @QuarkusTest}: {@code @Locked} methods answer as it says.
 */
@QuarkusTest
public class PaymentsStubTest {

    @Inject
    Payments payments;

    // tag::quarkus-test[]
    @Test
    void aPaymentInProgressElsewhereStopsThisOne() {
        LockRegistryStub locks = LockRegistryStub.alwaysHeld();
        QuarkusMock.installMockForType(locks, LockRegistry.class); // for this test only

        assertThatThrownBy(() -> payments.pay("42", "visa").await().indefinitely())
                .isInstanceOf(CannotAcquireLockException.class);
        assertThat(locks.wasAcquireRejected()).isTrue();
    }
    // end::quarkus-test[]
}
