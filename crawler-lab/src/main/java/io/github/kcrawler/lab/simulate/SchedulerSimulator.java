package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.lab.simulate.SchedulerExperiment.Options;
import io.github.kcrawler.scheduler.politeness.WheelOrder;
import io.github.kcrawler.lab.simulate.SchedulerExperiment.Score;
import io.github.kcrawler.ranker.pagerank.IncrementalPageRank;
import io.github.kcrawler.ranker.pagerank.IprParams;
import io.github.kcrawler.lab.ranker.simulate.LinkGraph;
import io.github.kcrawler.scheduler.wheel.PolitenessWheel;
import io.github.kcrawler.scheduler.politeness.PriorityFront;

import java.util.Arrays;
import java.util.Locale;

/**
 * The crawls of a {@link SchedulerExperiment} over one graph: the baselines (OPT, BFS, IRLbot) and the
 * {@link PolitenessWheel} in FIFO or priority mode, in steps, on primitive arrays. Its class comment states the
 * setting (paper 004 §4).
 */
final class SchedulerSimulator {
    private final int[] off;
    private final int[] tgt;
    private final long[] ip;
    private final double[] pr;
    private final int[] seeds;
    private final int n;
    private final int sampleEvery;

    SchedulerSimulator(LinkGraph g, long[] ip, double[] pr, int[] seeds, int curvePoints) {
        this.off = g.offsets();
        this.tgt = g.targets();
        this.ip = ip;
        this.pr = pr;
        this.seeds = seeds;
        this.n = g.numNodes();
        this.sampleEvery = Math.max(1, n / curvePoints);
    }

    /** Fetch bookkeeping shared by all crawls. */
    private void fetched(SchedulerRun run, int page, long stored) {
        run.pagesCrawled++;
        run.prSum += pr[page];
        if (run.pagesCrawled % sampleEvery == 0) {
            run.sample(stored);
        }
    }

    SchedulerRun opt() {
        SchedulerRun run = new SchedulerRun("OPT", n);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(pr[b], pr[a]));
        for (int p : order) {
            fetched(run, p, 0);
        }
        run.sample(0);
        run.finish();
        return run;
    }

    SchedulerRun bfs() {
        SchedulerRun run = new SchedulerRun("BFS", n);
        int[] queue = new int[n];
        boolean[] seen = new boolean[n];
        int head = 0;
        int tail = 0;
        for (int s : seeds) {
            if (!seen[s]) {
                seen[s] = true;
                queue[tail++] = s;
            }
        }
        while (head < tail) {
            run.peakStored = Math.max(run.peakStored, tail - head);
            int p = queue[head++];
            fetched(run, p, tail - head);
            for (int k = off[p]; k < off[p + 1]; k++) {
                int v = tgt[k];
                if (!seen[v]) {
                    seen[v] = true;
                    queue[tail++] = v;
                }
            }
            run.steps++;
        }
        run.sample(0);
        run.finish();
        return run;
    }

    /** IRLbot/BEAST-style: per-IP FIFOs, one URL per IP with pending URLs per step, nothing dropped. */
    SchedulerRun irlbot() {
        SchedulerRun run = new SchedulerRun("IRLbot", n);
        // dense IP ids
        java.util.HashMap<Long, Integer> ids = new java.util.HashMap<>();
        int[] ipId = new int[n];
        for (int p = 0; p < n; p++) {
            ipId[p] = ids.computeIfAbsent(ip[p], k -> ids.size());
        }
        int ips = ids.size();
        int[] headOf = new int[ips];
        int[] tailOf = new int[ips];
        Arrays.fill(headOf, -1);
        int[] nextInQueue = new int[n];
        int[] active = new int[ips];
        int activeCount = 0;
        int[] nextActive = new int[ips];
        boolean[] seen = new boolean[n];
        long stored = 0;
        for (int s : seeds) {
            if (!seen[s]) {
                seen[s] = true;
                int q = ipId[s];
                if (headOf[q] < 0) {
                    active[activeCount++] = q;
                }
                stored += push(headOf, tailOf, nextInQueue, q, s);
            }
        }
        int[] batch = new int[ips];
        while (activeCount > 0) {
            run.peakStored = Math.max(run.peakStored, stored);
            run.steps++;
            int c = 0;
            for (int i = 0; i < activeCount; i++) {
                int q = active[i];
                int p = headOf[q];
                headOf[q] = nextInQueue[p];
                batch[c++] = p;
            }
            stored -= c;
            int nextCount = 0;
            for (int i = 0; i < activeCount; i++) {
                if (headOf[active[i]] >= 0) {
                    nextActive[nextCount++] = active[i];
                }
            }
            for (int i = 0; i < c; i++) {
                int p = batch[i];
                fetched(run, p, stored);
                for (int k = off[p]; k < off[p + 1]; k++) {
                    int v = tgt[k];
                    if (!seen[v]) {
                        seen[v] = true;
                        int q = ipId[v];
                        if (headOf[q] < 0) {
                            nextActive[nextCount++] = q;
                        }
                        stored += push(headOf, tailOf, nextInQueue, q, v);
                    }
                }
            }
            System.arraycopy(nextActive, 0, active, 0, nextCount);
            activeCount = nextCount;
        }
        run.sample(0);
        run.finish();
        return run;
    }

    private static int push(int[] headOf, int[] tailOf, int[] nextInQueue, int q, int page) {
        nextInQueue[page] = -1;
        if (headOf[q] < 0) {
            headOf[q] = page;
        } else {
            nextInQueue[tailOf[q]] = page;
        }
        tailOf[q] = page;
        return 1;
    }

    /** Paper 004's crawl (Algorithm 1) with the wheel, fifo or through the priority front. */
    SchedulerRun wheel(int b, int h, WheelOrder order, Options options) {
        String name = (order == WheelOrder.FIFO ? "fifo" : "priority-" + options.score().name().toLowerCase(Locale.ROOT))
                + " B=" + b + " H=" + h;
        SchedulerRun run = new SchedulerRun(name, n);
        PolitenessWheel wheel = new PolitenessWheel(b, h);
        run.capacity = wheel.capacity();
        long[] out = new long[wheel.maxBatch()];
        boolean[] seen = new boolean[n];
        boolean[] done = new boolean[n];
        PriorityFront pool = null;
        IncrementalPageRank ipr = null;
        int[] backlinks = null;
        long[] waiting = null;
        double[] waitingScore = null;
        if (order == WheelOrder.PRIORITY) {
            long cap = Math.max(1, Math.min(PriorityFront.MAX_CAPACITY,
                    (long) Math.ceil(options.poolFraction() * wheel.capacity())));
            pool = new PriorityFront((int) cap);
            waiting = new long[h];
            waitingScore = new double[h];
            if (options.score() == Score.IPR) {
                ipr = new IncrementalPageRank(IprParams.defaults(IprParams.CutOff.DL1), n);
            } else {
                backlinks = new int[n];
            }
        }
        final PriorityFront fpool = pool;
        IncrementalPageRank.ScoreListener rescore = fpool == null ? IncrementalPageRank.ScoreListener.NONE
                : (node, score) -> fpool.rescore(node, score);
        for (int s : seeds) {
            if (!seen[s]) {
                seen[s] = true;
                admit(run, wheel, pool, s, 1.0, seen);
            }
        }
        while (wheel.size() > 0 || (pool != null && !pool.isEmpty())) {
            if (pool != null) {
                int accepted = 0;
                int polls = 0;
                int parked = 0;
                while (accepted < h / 2 && polls < h && !pool.isEmpty()) {
                    double score = pool.scoreOf(pool.peekBest());
                    long page = pool.pollBest();
                    polls++;
                    if (wheel.enqueue(ip[(int) page], page)) {
                        accepted++;
                    } else {
                        waiting[parked] = page; // residue full: back into the pool after the feed
                        waitingScore[parked] = score;
                        parked++;
                    }
                }
                for (int i = 0; i < parked; i++) {
                    long evicted = pool.offer(waiting[i], waitingScore[i]);
                    if (evicted != PriorityFront.NONE) {
                        seen[(int) evicted] = false;
                        run.dropped++;
                    }
                }
            }
            long stored = wheel.size() + (pool == null ? 0 : pool.size());
            run.peakStored = Math.max(run.peakStored, stored);
            int c = wheel.next(out);
            run.steps++;
            for (int i = 0; i < c; i++) {
                int p = (int) out[i];
                done[p] = true;
                fetched(run, p, stored - i - 1);
                if (ipr != null) {
                    ipr.fetch(p, tgt, off[p], off[p + 1], rescore);
                }
                for (int k = off[p]; k < off[p + 1]; k++) {
                    int v = tgt[k];
                    if (backlinks != null && !done[v]) {
                        backlinks[v]++;
                        pool.rescore(v, backlinks[v]);
                    }
                    if (!seen[v]) {
                        seen[v] = true;
                        double score = ipr != null ? ipr.score(v) : backlinks != null ? backlinks[v] : 0;
                        admit(run, wheel, pool, v, score, seen);
                    }
                }
            }
            if (run.steps > 4L * n + 4L * b + 16) {
                throw new IllegalStateException("crawl did not terminate: " + run.name);
            }
        }
        run.dropped += wheel.dropped();
        run.sample(0);
        run.finish();
        return run;
    }

    private void admit(SchedulerRun run, PolitenessWheel wheel, PriorityFront pool, int page, double score,
            boolean[] seen) {
        if (pool == null) {
            if (!wheel.enqueue(ip[page], page)) {
                seen[page] = false; // forget: a later link admits it again (wheel.dropped() counts it)
            }
            return;
        }
        long evicted = pool.offer(page, score);
        if (evicted != PriorityFront.NONE) {
            seen[(int) evicted] = false;
            run.dropped++;
        }
    }
}
