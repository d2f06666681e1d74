package io.github.kcrawler.ranker.ranking;

import io.github.kcrawler.common.model.LinkList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.ArrayList;
import java.util.List;

/**
 * The foundation ranking: a page's score is the number of fetched pages seen linking to it (its in-degree in the
 * crawled graph), the classic cheap priority of early crawlers and the baseline the incremental PageRank of DESIGN
 * §4.3 is compared with.
 *
 * <p>Each (source, target) link counts once per fetch of the source: repeated links to one target within a page
 * are collapsed (by fingerprint, first occurrence kept) and a page's links to itself are ignored. What it does not
 * do: the fetcher delivers at least once and pages are revisited, so a source page fetched twice contributes twice.
 * For a priority signal that bias is acceptable — it favours targets of frequently fetched pages, which are
 * themselves important — and exact counts would need the ranker to keep each source's previous outlink list,
 * which the PageRank strategy does anyway. Scores only grow; there is no decay.
 */
public final class BacklinkCounter implements RankingStrategy {
    /** What one link from one fetched page adds to its target's score. */
    public static final double LINK_WEIGHT = 1.0;

    @Override
    public List<Contribution> contributions(long sourceFingerprint, List<LinkList.Link> outlinks) {
        List<Contribution> out = new ArrayList<>(outlinks.size());
        LongOpenHashSet targets = new LongOpenHashSet(outlinks.size());
        for (LinkList.Link link : outlinks) {
            if (link.fingerprint() != sourceFingerprint && targets.add(link.fingerprint())) {
                out.add(new Contribution(link.url(), link.fingerprint(), link.ip(), LINK_WEIGHT));
            }
        }
        return out;
    }

    @Override
    public double accumulate(double currentScore, double amount) {
        return currentScore + amount;
    }
}
