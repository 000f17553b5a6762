package io.quarkiverse.lock.deployment;

import java.util.List;
import java.util.Optional;

import jakarta.inject.Singleton;

import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkiverse.lock.deployment.spi.LockStoreImplementationBuildItem;
import io.quarkiverse.lock.deployment.spi.StoreClients;
import io.quarkiverse.lock.runtime.LockProducers;
import io.quarkiverse.lock.runtime.LockRecorder;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.devui.DevUiLockObserver;
import io.quarkiverse.lock.runtime.devui.LockJsonRPCService;
import io.quarkiverse.lock.runtime.leadership.DefaultLeadership;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStoreProducer;
import io.quarkiverse.lock.runtime.waiting.IdleLockEvictor;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeansRuntimeInitBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.Consume;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.LaunchModeBuildItem;
import io.quarkus.deployment.builditem.ShutdownContextBuildItem;
import io.quarkus.deployment.builditem.nativeimage.RuntimeInitializedClassBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.metrics.MetricsFactory;
import io.quarkus.smallrye.health.deployment.spi.HealthBuildItem;

/**
 * Build steps of Quarkus Lock: chooses the store, registers the beans of the registry (and of the in-memory store when
 * it is the one chosen; a store extension registers its own), and starts the idle evictor at runtime init.
 */
class LockProcessor {

    private static final String FEATURE = "lock";
    /** By name: the class uses Micrometer types, which are present only with the Micrometer extension. */
    private static final String METRICS = "io.quarkiverse.lock.runtime.metrics.MicrometerLockObserver";
    /** By name: the class uses OpenTelemetry types, which are present only with the OpenTelemetry extension. */
    private static final String TRACER = "io.quarkiverse.lock.runtime.tracing.OpenTelemetryLockTracer";
    /** By name: the class implements SmallRye Health types, which are present only with the health extension. */
    private static final String HEALTH_CHECK = "io.quarkiverse.lock.runtime.health.LockStoreHealthCheck";
    /** By name: the class is internal to its package. */
    private static final String OWNER_IDS = "io.quarkiverse.lock.runtime.registry.OwnerIds";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    /** The store this extension holds, always present; every other store comes with an extension of its own. */
    @BuildStep
    LockStoreImplementationBuildItem inMemoryStore() {
        return new LockStoreImplementationBuildItem(InMemoryLockStore.NAME, "no client",
                LockStoreImplementationBuildItem.LOCAL_ONLY);
    }

    /** The chosen store's feature (such as {@code lock-redis}), listed at startup beside the core's. */
    @BuildStep
    FeatureBuildItem storeFeature(LockStoreBuildItem store) {
        return store.is(InMemoryLockStore.NAME) ? null : new FeatureBuildItem(FEATURE + "-" + store.name());
    }

    @BuildStep
    LockStoreBuildItem selectStore(LockBuildTimeConfig config, List<LockStoreImplementationBuildItem> stores) {
        return LockStoreSelection.select(config.provider(), stores);
    }

    @BuildStep
    AdditionalBeanBuildItem beans(LockStoreBuildItem store) {
        AdditionalBeanBuildItem.Builder beans = AdditionalBeanBuildItem.builder()
                .addBeanClass(LockProducers.class)
                .setUnremovable();
        if (store.is(InMemoryLockStore.NAME)) {
            beans.addBeanClass(InMemoryLockStoreProducer.class);
        }
        return beans.build();
    }

    @BuildStep
    AdditionalBeanBuildItem metrics(LockBuildTimeConfig config, Optional<MetricsCapabilityBuildItem> metrics) {
        if (config.metricsEnabled() && metrics.isPresent()
                && metrics.get().metricsSupported(MetricsFactory.MICROMETER)) {
            return AdditionalBeanBuildItem.unremovableOf(METRICS);
        }
        return null;
    }

    /** The spans of acquisitions and guarded sections, when OpenTelemetry traces; none otherwise. */
    @BuildStep
    AdditionalBeanBuildItem tracing(LockBuildTimeConfig config, Capabilities capabilities) {
        if (config.tracingEnabled() && capabilities.isPresent(Capability.OPENTELEMETRY_TRACER)) {
            return AdditionalBeanBuildItem.unremovableOf(TRACER);
        }
        return null;
    }

    /** The observer and the JSON-RPC service behind the Dev UI card, in dev and test mode (where tests read them). */
    @BuildStep
    AdditionalBeanBuildItem devUiBeans(LaunchModeBuildItem launchMode) {
        if (launchMode.getLaunchMode() == LaunchMode.NORMAL) {
            return null;
        }
        return AdditionalBeanBuildItem.builder().addBeanClasses(DevUiLockObserver.class, LockJsonRPCService.class)
                .setUnremovable().build();
    }

    @BuildStep
    UnremovableBeanBuildItem keepStartedBeans() {
        return UnremovableBeanBuildItem.beanTypes(IdleLockEvictor.class, DefaultLockRegistry.class,
                DefaultLeadership.class);
    }

    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    SyntheticBeanBuildItem settings(LockRecorder recorder) {
        return SyntheticBeanBuildItem.configure(LockSettings.class)
                .scope(Singleton.class)
                .unremovable()
                .setRuntimeInit()
                .supplier(recorder.settings())
                .done();
    }

    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    @Consume(SyntheticBeansRuntimeInitBuildItem.class)
    void start(LockRecorder recorder, LockStoreBuildItem store, ShutdownContextBuildItem shutdown) {
        recorder.announceStore(store.name(), store.chosenByDefault(), String.join(", ", StoreClients.all()));
        recorder.start(shutdown);
    }

    @BuildStep
    HealthBuildItem healthCheck(LockBuildTimeConfig config) {
        return new HealthBuildItem(HEALTH_CHECK, config.healthEnabled());
    }

    /**
     * Owner ids come from a {@code SecureRandom} in static state. Initialized at build time, the generator would be in
     * the native image's heap, which GraalVM refuses (and its seed would be the same in every process).
     */
    @BuildStep
    RuntimeInitializedClassBuildItem ownerIdsAtRunTime() {
        return new RuntimeInitializedClassBuildItem(OWNER_IDS);
    }
}
