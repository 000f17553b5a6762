/**
 * The randomized fault harness: many workers on several application instances of one store run random lock
 * operations ({@link io.quarkiverse.lock.tck.faults.FaultOperation}: waits, one tries, cancellations, interrupts,
 * reentrancy, take-overs, one handle used at once) while the store's binding injects faults between the instances and
 * the server; every critical section is logged on the store's clock ({@link io.quarkiverse.lock.tck.faults.SectionLog}),
 * and {@link io.quarkiverse.lock.tck.faults.SectionChecker} decides from the log alone whether a lock was ever held
 * twice, or its tokens ever fell, and the run checks that nothing is left held once every lease ran out. Every
 * acquisition and release is recorded too, invoked and completed with its outcome and token
 * ({@link io.quarkiverse.lock.tck.faults.OperationHistory}), and
 * {@link io.quarkiverse.lock.tck.faults.HistoryChecker} checks that history against a fenced mutex whose holds may end
 * by lease expiry, taking an unknown outcome either way.
 * <p>
 * A store binds it with a {@link io.quarkiverse.lock.tck.faults.FaultFixture} (its instances, its section log, its
 * faults) and one test that calls {@link io.quarkiverse.lock.tck.faults.RandomizedFaultRun#run}. A store whose server
 * cannot stamp and probe in one atomic step logs with {@link io.quarkiverse.lock.tck.faults.ClockSectionLog}, on the
 * clock of its leases and with a {@link io.quarkiverse.lock.tck.faults.HoldProbe} that asks the store who holds;
 * {@link io.quarkiverse.lock.tck.faults.ProbeCheck} checks the probe against a real hold before the run. The run's
 * seed and size come from system properties
 * ({@link io.quarkiverse.lock.tck.faults.FaultRunSettings}), and every run prints the seed that replays it.
 */
package io.quarkiverse.lock.tck.faults;
