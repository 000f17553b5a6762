package io.quarkiverse.lock.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStore;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStore;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;

/**
 * What the guide says a user will see, against what the code names: the {@code store} tag values the metrics section
 * lists are the names of every store there is, the Dev UI card the guide names is the extension's name (which Dev UI
 * titles the card with, and which the browser tests read on the card), and the default {@code @Locked} key the
 * example states is the one the rule in the {@code @Locked} table gives for the example's own class.
 */
class GuideClaimsTest {

    private static final Path ROOT = Path.of(System.getProperty("lock.project.root")).normalize();
    private static final Path PAGES = ROOT.resolve("docs/modules/ROOT/pages");
    private static final Pattern STORE_TAG = Pattern.compile("tagged `store` \\(the store's name: ([^)]*)\\)");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern CARD = Pattern.compile("one card, \"([^\"]+)\"");
    private static final Pattern EXTENSION_NAME = Pattern.compile("(?m)^name:\\s*\"([^\"]+)\"\\s*$");
    private static final Pattern KEY_COMMENT = Pattern.compile("// key: (\\S+)\\s*\\n\\s*@Locked\\([^)]*\\)\\s*\\n"
            + "\\s*public \\S+ (\\w+)\\(([^)]*)\\)");
    private static final Pattern LOCK_KEY_PARAMETER = Pattern.compile("@LockKey \\S+ (\\w+)");

    @Test
    void theMetricsSectionListsTheNameOfEveryStoreAsAStoreTag() throws IOException {
        Matcher sentence = STORE_TAG.matcher(Files.readString(PAGES.resolve("observability.adoc")));
        assertThat(sentence.find()).as("the sentence listing the store tag values in observability.adoc").isTrue();
        Set<String> listed = new TreeSet<>();
        Matcher value = CODE.matcher(sentence.group(1));
        while (value.find()) {
            listed.add(value.group(1));
        }
        assertThat(listed).containsExactlyInAnyOrder(InMemoryLockStore.NAME, RedisLockStore.NAME, MongoLockStore.NAME,
                PostgresLockStore.NAME, JdbcLockStore.NAME);
    }

    @Test
    void theDevUiCardTheGuideNamesIsTheExtensionsName() throws IOException {
        Matcher card = CARD.matcher(Files.readString(PAGES.resolve("observability.adoc")));
        assertThat(card.find()).as("the Dev UI card named in observability.adoc").isTrue();
        Matcher name = EXTENSION_NAME.matcher(
                Files.readString(ROOT.resolve("runtime/src/main/resources/META-INF/quarkus-extension.yaml")));
        assertThat(name.find()).as("the name in the core's quarkus-extension.yaml").isTrue();
        assertThat(card.group(1)).isEqualTo(name.group(1));
    }

    @Test
    void theDefaultKeyTheExampleStatesFollowsTheRuleForItsOwnClass() throws IOException {
        Path example = ROOT.resolve("docs/modules/ROOT/examples/io/quarkiverse/lock/docs/Payments.java");
        Matcher stated = KEY_COMMENT.matcher(Files.readString(example));
        assertThat(stated.find()).as("a '// key:' comment on a @Locked method without key in %s", example).isTrue();
        StringBuilder rule = new StringBuilder(Payments.class.getName()).append('.').append(stated.group(2));
        Matcher parameter = LOCK_KEY_PARAMETER.matcher(stated.group(3));
        while (parameter.find()) {
            rule.append(":<").append(parameter.group(1)).append('>');
        }
        assertThat(stated.group(1)).isEqualTo(rule.toString());
        assertThat(Files.readString(PAGES.resolve("locked.adoc")))
                .as("the rule in the @Locked table: the class's fully qualified name, a dot and the method name")
                .contains("the class's fully qualified name, a dot and the method name, followed by the `@LockKey` "
                        + "parameters, each after a `:`");
    }
}
