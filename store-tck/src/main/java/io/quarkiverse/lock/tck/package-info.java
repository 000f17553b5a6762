/**
 * The contract suite every lock store binds: what a {@link io.quarkiverse.lock.spi.LockStore} must do, stated once as
 * JUnit 5 tests, and run by the in-memory, Redis (one server and a cluster), MongoDB and PostgreSQL stores alike.
 * <p>
 * The suite is made of one contract per concern, each a test interface whose tests are default methods:
 * <ul>
 * <li>{@link io.quarkiverse.lock.tck.LockStoreContract}: the store SPI called directly, on two store objects as two
 * application instances would (grant and refusal, fencing order, release, renewal, expiry, take-over, forced release,
 * take-back, keys of every shape);</li>
 * <li>{@link io.quarkiverse.lock.tck.LockLineContract}: the line of waiters and the release notifications of a store
 * reached over a network;</li>
 * <li>{@link io.quarkiverse.lock.tck.LockApiContract}, {@link io.quarkiverse.lock.tck.LockWaitingContract},
 * {@link io.quarkiverse.lock.tck.LockExecutionContract}, {@link io.quarkiverse.lock.tck.LockLeaseContract},
 * {@link io.quarkiverse.lock.tck.LockExtensionContract}: the public API ({@code LockRegistry},
 * {@code ReactiveDistributedLock}, the blocking view) through a registry over the store, with other application
 * instances started on the same store;</li>
 * <li>{@link io.quarkiverse.lock.tck.MigrationContract}: the migrator on the store;</li>
 * <li>{@link io.quarkiverse.lock.tck.LeadershipContract}: leader election on the store's locks, with three instances.</li>
 * </ul>
 * Argument checks do not depend on a store and are not part of the suite: the core tests them once. The one
 * exception is {@code extend}'s lease, whose refusal the suite checks leaves the hold's lease in the store as it was.
 *
 * <h2>Binding a store</h2>
 * Add the suite to the store's tests:
 *
 * <pre>
 * &lt;dependency&gt;
 *     &lt;groupId&gt;io.quarkiverse.lock&lt;/groupId&gt;
 *     &lt;artifactId&gt;quarkus-lock-store-tck&lt;/artifactId&gt;
 *     &lt;scope&gt;test&lt;/scope&gt;
 * &lt;/dependency&gt;
 * </pre>
 *
 * and write one test class that extends {@link io.quarkiverse.lock.tck.LockStoreTck} and returns, from
 * {@link io.quarkiverse.lock.tck.LockStoreTck#newStore()}, a new store object on a server the test can reach. The
 * other hooks are optional:
 * <ul>
 * <li>{@link io.quarkiverse.lock.tck.LockStoreTck#closeBackend()} closes what the stores share, such as one client
 * opened in a field on {@link io.quarkiverse.lock.tck.LockStoreTck#vertx()};</li>
 * <li>{@link io.quarkiverse.lock.tck.LockStoreTck#deleteLock(String)} deletes a lock's entry on the server itself,
 * instead of a forced release;</li>
 * <li>{@link io.quarkiverse.lock.tck.LockStoreTck#letLeasesRunOut(java.time.Duration)} advances an injectable clock
 * instead of sleeping;</li>
 * <li>{@link io.quarkiverse.lock.tck.LockStoreTck#storeIsLocal()} says that every instance of the store lives in this
 * JVM.</li>
 * </ul>
 * A store is given the suite's {@link io.quarkiverse.lock.tck.LockStoreTck#settings() settings}: their key prefix,
 * and their operation timeout for its own client calls. The smallest complete binding is this module's own test
 * {@code InMemoryStoreTckTest} (the in-memory store, with a clock the suite advances); each store of this repository
 * binds the suite the same way in its deployment module's tests ({@code *LockStoreTckTest}), so every example is
 * compiled and run.
 * <p>
 * That is all: the class runs every contract (its name ends in {@code Test}, so Surefire runs it by default), and each
 * test reports under it. {@code newStore()} is called for every application instance a test starts, so each call
 * returns a new store object on the same server (a store whose instances all live in one JVM returns the same one).
 * The suite needs no Quarkus application, and every test uses keys of its own, so the server may be shared with other
 * tests.
 * <p>
 * The suite needs only the public API and the SPI: its registries are
 * {@link io.quarkiverse.lock.spi.StandaloneLockRegistry}s over the store, as a store written outside this repository
 * would build them too.
 * <p>
 * {@link io.quarkiverse.lock.tck.CriticalSectionRace} and {@link io.quarkiverse.lock.tck.StoreRecovery} help a
 * store's own tests beyond the suite: races on an unsafe counter kept in the store, and waiting for a store to come
 * back after an outage. The randomized fault harness ({@link io.quarkiverse.lock.tck.faults}) runs random operations
 * on many instances of a store while faults are injected, and checks that no lock was ever held twice.
 */
package io.quarkiverse.lock.tck;
