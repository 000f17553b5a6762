package io.quarkiverse.lock.deployment.external;

import java.util.function.Consumer;

import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkiverse.lock.deployment.spi.LockStoreImplementationBuildItem;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.builder.BuildChainBuilder;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The build steps of a store extension the core has never heard of, added to a test application's build: the same two
 * steps a real store extension's processor has (announce the store; register its bean when chosen), through the
 * deployment SPI alone.
 */
public final class ExternalStoreExtension {

    private ExternalStoreExtension() {
    }

    /**
     * @param application the test application
     * @return the application, with the external store present
     */
    public static QuarkusUnitTest addTo(QuarkusUnitTest application) {
        return addTo(application, ExternalLockStore.NAME, ExternalLockStoreProducer.class);
    }

    /**
     * @param application the test application
     * @param name the store's name
     * @param producer the bean class that produces the store's {@code LockStore}
     * @return the application, with that store present
     */
    public static QuarkusUnitTest addTo(QuarkusUnitTest application, String name, Class<?> producer) {
        return application.addBuildChainCustomizer(buildSteps(name, producer));
    }

    private static Consumer<BuildChainBuilder> buildSteps(String name, Class<?> producer) {
        return chain -> {
            chain.addBuildStep(context -> context.produce(new LockStoreImplementationBuildItem(name,
                    "quarkus-external-client", LockStoreImplementationBuildItem.DEDICATED_CLIENT)))
                    .produces(LockStoreImplementationBuildItem.class)
                    .build();
            chain.addBuildStep(context -> {
                if (context.consume(LockStoreBuildItem.class).is(name)) {
                    context.produce(AdditionalBeanBuildItem.unremovableOf(producer));
                }
            })
                    .consumes(LockStoreBuildItem.class)
                    .produces(AdditionalBeanBuildItem.class)
                    .build();
        };
    }
}
