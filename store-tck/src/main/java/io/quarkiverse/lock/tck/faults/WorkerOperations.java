package io.quarkiverse.lock.tck.faults;

import java.util.Random;

/**
 * A group of a {@link FaultWorker}'s operations: what each of them draws from (the worker's own randomness, on its
 * thread) and logs its sections to.
 */
abstract class WorkerOperations {

    final FaultWorker worker;
    final LoggedSections sections;
    final Random random;

    WorkerOperations(FaultWorker worker, LoggedSections sections) {
        this.worker = worker;
        this.sections = sections;
        this.random = worker.random();
    }
}
