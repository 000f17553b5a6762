package io.quarkiverse.lock.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The dependency snippets the README and the guide print build an application: each appears, line for line and
 * comments aside, in the pom of {@code integration-tests/installation}, a user's application that the build packages;
 * the version the guide prints, the {@code project-version} attribute of {@code antora.yml}, is the project's; and
 * that application, on the project's Quarkus, packages the Redis store's extension at that version, brought by the
 * core without a BOM.
 */
class InstallationSnippetTest {

    private static final Path ROOT = Path.of(System.getProperty("lock.project.root")).normalize();
    private static final Path INSTALLATION = ROOT.resolve("integration-tests/installation");
    private static final Pattern README_XML = Pattern.compile("```xml\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern GUIDE_XML = Pattern.compile("\\[source,xml[^\\]]*\\]\\n----\\n(.*?)----\\n",
            Pattern.DOTALL);
    /** XML comments, and the guide's callouts written as such: what Maven reads is the rest. */
    private static final Pattern COMMENT = Pattern.compile("<!--.*?-->", Pattern.DOTALL);
    private static final Pattern VERSION_ATTRIBUTE = Pattern.compile("(?m)^\\s+project-version:\\s*(\\S+)\\s*$");

    @Test
    void theGuidesVersionAttributeIsTheProjectVersion() throws IOException {
        assertThat(versionAttribute()).isEqualTo(System.getProperty("lock.project.version"));
    }

    @Test
    void everyDependencySnippetAppearsInTheInstallationApplicationsPom() throws IOException {
        List<String> pom = declarations(Files.readString(INSTALLATION.resolve("pom.xml")));
        List<String> readme = dependencySnippets(README_XML, ROOT.resolve("README.md"));
        List<String> guide = new ArrayList<>();
        try (Stream<Path> pages = Files.list(ROOT.resolve("docs/modules/ROOT/pages"))) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".adoc")).sorted().toList()) {
                guide.addAll(dependencySnippets(GUIDE_XML, page));
            }
        }
        assertThat(readme).as("dependency snippets in README.md").isNotEmpty();
        assertThat(guide).as("dependency snippets in the guide").isNotEmpty();
        String version = versionAttribute();
        for (String snippet : concat(readme, guide)) {
            List<String> lines = declarations(snippet.replace("{project-version}", version));
            assertThat(Collections.indexOfSubList(pom, lines))
                    .as("this snippet, line for line, in %s:%n%s", INSTALLATION.resolve("pom.xml"), snippet)
                    .isNotNegative();
        }
    }

    @Test
    void theInstallationApplicationIsOnTheProjectsQuarkus() throws IOException {
        assertThat(Files.readString(INSTALLATION.resolve("pom.xml")))
                .contains("<quarkus.platform.version>" + System.getProperty("lock.quarkus.version")
                        + "</quarkus.platform.version>");
    }

    @Test
    void theInstallationApplicationCarriesTheRedisStoreAtTheCoresVersion() throws IOException {
        Path store = INSTALLATION.resolve("target/quarkus-app/lib/main/io.quarkiverse.lock.quarkus-lock-redis-"
                + versionAttribute() + ".jar");
        assertThat(store).as("the Redis store's extension the core brings with the Redis client").isRegularFile();
    }

    private static String versionAttribute() throws IOException {
        Matcher attribute = VERSION_ATTRIBUTE.matcher(Files.readString(ROOT.resolve("docs/antora.yml")));
        assertThat(attribute.find()).as("asciidoc.attributes.project-version in docs/antora.yml").isTrue();
        return attribute.group(1);
    }

    private static List<String> dependencySnippets(Pattern block, Path file) throws IOException {
        List<String> snippets = new ArrayList<>();
        Matcher matcher = block.matcher(Files.readString(file));
        while (matcher.find()) {
            if (matcher.group(1).contains("<dependency>")) {
                snippets.add(matcher.group(1));
            }
        }
        return snippets;
    }

    private static List<String> declarations(String xml) {
        return COMMENT.matcher(xml).replaceAll("").lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }
}
