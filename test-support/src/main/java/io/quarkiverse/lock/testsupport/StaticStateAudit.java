package io.quarkiverse.lock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

import org.objectweb.asm.ClassReader;

import io.quarkus.bootstrap.model.ApplicationModel;
import io.quarkus.builder.BuildChainBuilder;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.nativeimage.RuntimeInitializedClassBuildItem;
import io.quarkus.deployment.builditem.nativeimage.RuntimeInitializedPackageBuildItem;
import io.quarkus.deployment.pkg.builditem.CurateOutcomeBuildItem;
import io.quarkus.maven.dependency.ResolvedDependency;
import io.quarkus.paths.PathTree;

/**
 * Finds the classes of an extension's runtime artifact whose static state a native image must not take from the
 * build: randomness (a generator in the image heap would repeat its numbers in every process; GraalVM refuses it),
 * threads and executors, sockets and connections (none of them survives into an image), and readings of the build
 * machine's clock, processors or network. Quarkus initializes every class at build time unless a build step registers
 * it with {@link RuntimeInitializedClassBuildItem}, so each class found must be registered.
 * <p>
 * {@link #of(Class)} adds a build step to a {@code QuarkusUnitTest} that scans every class of the artifact holding the
 * given class, collects the registrations the build made, and publishes both for {@link #result(Class)} (as system
 * properties, which the build's and the test's class loaders share). A class is found when:
 * <ul>
 * <li>one of its static fields has a type of {@link #HAZARDS} (a subtype, or an array of one), or</li>
 * <li>its static initializer, or a static method of its own that the initializer calls, creates such an object,
 * calls a method that returns one, or calls one of {@link #READINGS}.</li>
 * </ul>
 * What a class obtains from elsewhere without any of these types in sight (an {@code Object} field filled by another
 * library) is not found: the audit is a net for the usual shapes, not a proof.
 */
public final class StaticStateAudit {

    /** The types that must not be in static state built into an image, with what they are. */
    static final Map<String, String> HAZARDS = Map.ofEntries(
            Map.entry("java.util.random.RandomGenerator", "randomness"),
            Map.entry("java.lang.Thread", "a thread"),
            Map.entry("java.util.concurrent.Executor", "an executor"),
            Map.entry("java.util.Timer", "a timer thread"),
            Map.entry("java.net.Socket", "a socket"),
            Map.entry("java.net.ServerSocket", "a socket"),
            Map.entry("java.net.DatagramSocket", "a socket"),
            Map.entry("java.nio.channels.Channel", "a channel"),
            Map.entry("java.nio.channels.Selector", "a selector"),
            Map.entry("java.net.http.HttpClient", "a connection"),
            Map.entry("java.sql.Connection", "a connection"),
            Map.entry("io.vertx.core.Vertx", "a Vert.x instance"),
            Map.entry("io.vertx.redis.client.Redis", "a connection"),
            Map.entry("io.vertx.redis.client.RedisConnection", "a connection"),
            Map.entry("io.vertx.redis.client.RedisAPI", "a connection"),
            Map.entry("io.quarkus.redis.datasource.ReactiveRedisDataSource", "a connection"),
            Map.entry("io.quarkus.redis.datasource.RedisDataSource", "a connection"),
            Map.entry("com.mongodb.reactivestreams.client.MongoClient", "a connection"),
            Map.entry("com.mongodb.client.MongoClient", "a connection"),
            Map.entry("io.quarkus.mongodb.reactive.ReactiveMongoClient", "a connection"));

    /**
     * Calls that read the clock, randomness, the processors or the network, besides every {@code now()} of
     * {@code java.time}: their result would be the build's.
     */
    static final Map<String, String> READINGS = Map.ofEntries(
            Map.entry("java/lang/System.nanoTime", "a clock reading"),
            Map.entry("java/lang/System.currentTimeMillis", "a clock reading"),
            Map.entry("java/time/Clock.instant", "a clock reading"),
            Map.entry("java/time/Clock.millis", "a clock reading"),
            Map.entry("java/util/Date.<init>()V", "a clock reading"),
            Map.entry("java/util/UUID.randomUUID", "randomness"),
            Map.entry("java/lang/Math.random", "randomness"),
            Map.entry("java/lang/StrictMath.random", "randomness"),
            Map.entry("java/lang/Runtime.availableProcessors", "the build machine's processors"),
            Map.entry("java/net/InetAddress.getLocalHost", "a network lookup"),
            Map.entry("java/net/InetAddress.getByName", "a network lookup"),
            Map.entry("java/net/InetAddress.getAllByName", "a network lookup"));

    private StaticStateAudit() {
    }

    /**
     * @param anchor a class of the runtime artifact to audit
     * @return a build chain customizer for {@code QuarkusUnitTest#addBuildChainCustomizer} that audits that artifact
     */
    public static Consumer<BuildChainBuilder> of(Class<?> anchor) {
        String key = anchor.getName();
        return chain -> chain.addBuildStep(context -> {
            Set<String> classes = classesOfArtifactWith(key,
                    context.consume(CurateOutcomeBuildItem.class).getApplicationModel());
            Set<String> registered = new HashSet<>();
            for (RuntimeInitializedClassBuildItem item : context.consumeMulti(RuntimeInitializedClassBuildItem.class)) {
                registered.add(item.getClassName());
            }
            List<String> packages = new ArrayList<>();
            for (RuntimeInitializedPackageBuildItem item : context
                    .consumeMulti(RuntimeInitializedPackageBuildItem.class)) {
                packages.add(item.getPackageName());
            }
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            Map<String, Set<String>> found = new TreeMap<>();
            Set<String> auditedPackages = new HashSet<>();
            for (String name : classes) {
                auditedPackages.add(packageOf(name));
                Set<String> reasons = scan(name, loader);
                if (!reasons.isEmpty()) {
                    found.put(name, reasons);
                }
            }
            Map<String, Set<String>> atBuildTime = new TreeMap<>();
            found.forEach((name, reasons) -> {
                if (!registered.contains(name) && packages.stream().noneMatch(p -> name.startsWith(p + "."))) {
                    atBuildTime.put(name, reasons);
                }
            });
            Set<String> stale = new TreeSet<>();
            for (String name : registered) {
                if (!classes.contains(name) && auditedPackages.contains(packageOf(name))) {
                    stale.add(name);
                }
            }
            System.setProperty(key + ".static-state", format(found));
            System.setProperty(key + ".static-state-at-build-time", format(atBuildTime));
            System.setProperty(key + ".runtime-init-unknown", String.join("\n", stale));
            context.produce(new FeatureBuildItem("static-state-audit"));
        }).consumes(CurateOutcomeBuildItem.class)
                .consumes(RuntimeInitializedClassBuildItem.class)
                .consumes(RuntimeInitializedPackageBuildItem.class)
                .produces(FeatureBuildItem.class)
                .build();
    }

    /**
     * @param anchor the class given to {@link #of(Class)}
     * @return what the audit of that class's artifact found, once the application was built
     * @throws IllegalStateException if no audit of it ran
     */
    public static Result result(Class<?> anchor) {
        String key = anchor.getName();
        String found = System.getProperty(key + ".static-state");
        if (found == null) {
            throw new IllegalStateException("no audit ran for " + key + ": add StaticStateAudit.of(" + key
                    + ".class) to the QuarkusUnitTest");
        }
        String unknown = System.getProperty(key + ".runtime-init-unknown");
        return new Result(parse(found), parse(System.getProperty(key + ".static-state-at-build-time")),
                unknown.isEmpty() ? Set.of() : Set.of(unknown.split("\n")));
    }

    /**
     * Asserts that the audit of {@code anchor}'s artifact found no class that a native image would initialize at build
     * time with such static state, and no run-time initialization registered for a class the artifact does not have.
     *
     * @param anchor the class given to {@link #of(Class)}
     * @throws AssertionError naming the classes and what their static state holds, if any was found
     * @throws IllegalStateException if no audit of it ran
     */
    public static void assertInitializedAtRunTime(Class<?> anchor) {
        Result audit = result(anchor);
        assertThat(audit.initializedAtBuildTime())
                .as("classes a native image would initialize at build time, with what their static state holds")
                .isEmpty();
        assertThat(audit.unknownRegistrations()).as("run-time initialization of classes that do not exist")
                .isEmpty();
    }

    /**
     * What an audit found.
     *
     * @param found every class with such static state, with what it holds or reads
     * @param initializedAtBuildTime those of them the build did not register for run-time initialization
     * @param unknownRegistrations classes registered for run-time initialization, in a package of the audited
     *        artifact, that it does not have (a registration left behind by a rename)
     */
    public record Result(Map<String, Set<String>> found, Map<String, Set<String>> initializedAtBuildTime,
            Set<String> unknownRegistrations) {
    }

    /**
     * @param className a class
     * @param loader where to read it and the types it names
     * @return what its static state holds or reads of {@link #HAZARDS} and {@link #READINGS}; empty if nothing
     */
    static Set<String> scan(String className, ClassLoader loader) {
        String resource = className.replace('.', '/') + ".class";
        byte[] bytes;
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the class path");
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + resource, e);
        }
        StaticStateSummary summary = new StaticStateSummary(new HazardTypes(loader));
        new ClassReader(bytes).accept(summary, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return summary.reasons();
    }

    /**
     * @param anchor a class name
     * @param model the application's dependencies
     * @return the names of the classes of the dependency that holds that class
     */
    private static Set<String> classesOfArtifactWith(String anchor, ApplicationModel model) {
        String anchorPath = anchor.replace('.', '/') + ".class";
        for (ResolvedDependency dependency : model.getDependencies()) {
            PathTree content = dependency.getContentTree();
            if (content.contains(anchorPath)) {
                Set<String> classes = new TreeSet<>();
                content.walk(visit -> {
                    String path = visit.getRelativePath("/");
                    if (path.endsWith(".class") && !path.startsWith("META-INF/") && !path.endsWith("module-info.class")
                            && !path.endsWith("package-info.class")) {
                        classes.add(path.substring(0, path.length() - ".class".length()).replace('/', '.'));
                    }
                });
                return classes;
            }
        }
        throw new IllegalStateException(anchor + " is in no dependency of the application");
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }

    private static String format(Map<String, Set<String>> found) {
        StringBuilder text = new StringBuilder();
        found.forEach((name, reasons) -> text.append(name).append('=').append(String.join(";", reasons))
                .append('\n'));
        return text.toString();
    }

    private static Map<String, Set<String>> parse(String text) {
        Map<String, Set<String>> found = new TreeMap<>();
        for (String line : text.split("\n")) {
            if (!line.isEmpty()) {
                int equals = line.indexOf('=');
                found.put(line.substring(0, equals), new LinkedHashSet<>(List.of(line.substring(equals + 1)
                        .split(";"))));
            }
        }
        return found;
    }
}
