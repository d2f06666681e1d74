package io.github.kcrawler.app.cli;

import io.github.kcrawler.common.config.CommonSettings;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.scope.AddressPolicy;
import io.github.kcrawler.common.scope.CrawlScope;
import io.github.kcrawler.fetcher.FetcherConfig;

import java.util.ListResourceBundle;

/**
 * The descriptions of the {@code crawl} and {@code seed} flags that set a service setting, taken from that setting's
 * declaration (picocli reads them as a resource bundle, by each option's {@code descriptionKey}, the setting's key),
 * so {@code crawler crawl --help} and the services' {@code --help} say the same. The flags' default values are the
 * declarations' defaults too ({@code ${DEFAULT-VALUE}}).
 */
public final class SettingFlagsHelp extends ListResourceBundle {
    /** The settings that {@code crawl} or {@code seed} take as flags of their own. */
    static final SettingSet FLAGS = SettingSet.of(CommonSettings.POLITENESS_MS, KafkaSettings.PARTITIONS,
            KafkaSettings.TOPIC_PREFIX, CrawlScope.MAX_DEPTH, FetcherConfig.Limits.MAX_PAGES,
            FetcherConfig.Dns.HOSTS_FILE, AddressPolicy.ALLOW_ADDRESSES);

    @Override
    protected Object[][] getContents() {
        Object[][] contents = new Object[FLAGS.keys().size()][];
        int i = 0;
        for (Setting<?> s : FLAGS) {
            String text = s.description();
            contents[i++] = new Object[] {s.key(), Character.toUpperCase(text.charAt(0)) + text.substring(1)
                    + (s.defaultText().isEmpty() ? "." : " (default ${DEFAULT-VALUE}).")};
        }
        return contents;
    }
}
