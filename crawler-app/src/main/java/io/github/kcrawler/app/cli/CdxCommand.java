package io.github.kcrawler.app.cli;

import io.github.kcrawler.fetcher.warc.CdxIndexer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code crawler cdx FILE...}: (re)builds the sorted pywb CDXJ index beside WARC files ({@link CdxIndexer}). The
 * fetcher writes {@code NAME.cdxj} itself whenever it finishes a WARC file; this is for the file that was open when
 * a fetcher died ({@code NAME.warc.gz.open}: its complete records are indexed) or an index that was lost.
 */
@Command(name = "cdx", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Write the sorted CDXJ index (pywb's format) of WARC files beside them: NAME.warc.gz (or "
                + "NAME.warc.gz.open, left by a fetcher that died) -> NAME.cdxj. Only complete records are indexed."},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler cdx data/warc/kcrawler-20261127150000000-00001.warc.gz",
                "  crawler cdx data/warc/*.open                 index the files fetchers left open",
                "", "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE})
public final class CdxCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "FILE", description = "WARC files (.warc.gz, .warc.gz.open)")
    List<Path> files;

    @Override
    public Integer call() throws Exception {
        int code = ExitCodes.OK;
        for (Path f : files) {
            if (!Files.isRegularFile(f)) {
                System.err.println("crawler cdx: no such file: " + f);
                code = ExitCodes.FAILED;
                continue;
            }
            CdxIndexer.Result r = CdxIndexer.index(f);
            System.out.printf("%s: %d lines (%d records) -> %s%s%n", f, r.lines(), r.records(), r.index(),
                    r.truncated() ? String.format(" (the file ends inside a record: its last %d bytes are not indexed)",
                            r.fileBytes() - r.completeBytes()) : "");
        }
        return code;
    }
}
