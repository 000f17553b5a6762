package io.quarkiverse.lock.runtime.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The gate lets at most its limit of statements through at once, and the others in the order they came, each as one
 * leaves.
 */
class StatementGateTest {

    @Test
    void letsTheLimitThroughAndTheRestInArrivalOrderAsPlacesFree() {
        StatementGate gate = new StatementGate(2);
        List<Integer> started = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int statement = i;
            gate.enter(() -> started.add(statement));
        }
        assertThat(started).containsExactly(0, 1);
        assertThat(gate.waiting()).isEqualTo(3);

        gate.leave();
        assertThat(started).containsExactly(0, 1, 2);
        gate.leave();
        gate.leave();
        assertThat(started).containsExactly(0, 1, 2, 3, 4);
        assertThat(gate.waiting()).isZero();

        gate.leave();
        gate.leave();
        List<Integer> later = new ArrayList<>();
        gate.enter(() -> later.add(5));
        gate.enter(() -> later.add(6));
        gate.enter(() -> later.add(7));
        assertThat(later).as("the places freed are free again").containsExactly(5, 6);
    }

    @Test
    void refusesALimitBelowOne() {
        assertThatThrownBy(() -> new StatementGate(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
