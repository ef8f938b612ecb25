// posenc check on the held-out round of the real-bug corpus (tests/data/realbugs,
// realbug_meta_heldout.py; issue 56's acceptance): bugs posenc was measured on before it was changed
// for them (BASELINE.md's summary says what that round found). Each row as tst_clirealbugs' are.
#include "RealBugsRun.h"
#include "support/TestMain.h"

namespace tst_cliheldoutbugs {
using namespace RealBugsRun;

class TestCliHeldOutBugs : public QObject
{
    Q_OBJECT

private slots:
    // Each row: the bug and whether the buggy output's mistake is named as the manifest says.
    void verdicts_data()
    {
        QTest::addColumn<QString>("slug");
        QTest::addColumn<bool>("named");
        QTest::newRow("kohya-sdxl-timestep-shift") << u"kohya-sdxl-timestep-shift"_s << true;
        // ALiBi's bias m (i - j): the offset taken as query - key, every slope's sign flipped.
        QTest::newRow("attentiongym-alibi-sign") << u"attentiongym-alibi-sign"_s << true;
        QTest::newRow("candle-yi-rope-theta") << u"candle-yi-rope-theta"_s << true;
        // The factor inside the power and yarn's ramp lost: every pair at (32 theta)^(-2i/64).
        QTest::newRow("tvm-yarn-factor-in-power") << u"tvm-yarn-factor-in-power"_s << true;
        QTest::newRow("vllm-bailing-mla-partial-rotary") << u"vllm-bailing-mla-partial-rotary"_s << true;
        // A Qwen2.5-VL video's t ids at the grid index: second_per_grid_ts never used.
        QTest::newRow("sglang-qwen25vl-video-seconds") << u"sglang-qwen25vl-video-seconds"_s << true;
        QTest::newRow("megatronbridge-mla-default-yarn") << u"megatronbridge-mla-default-yarn"_s << true;
        // sin and cos applied over rows, cos of the sines on the odd rows from the end: the even
        // rows sines of the position at a frequency per column, sinusoid-rows.
        QTest::newRow("brianpulfer-ddpm-sinusoidal") << u"brianpulfer-ddpm-sinusoidal"_s << true;
        QTest::newRow("airllm-mlx-rope-theta") << u"airllm-mlx-rope-theta"_s << true;
        QTest::newRow("sglang-ministral3-yarn-mscale") << u"sglang-ministral3-yarn-mscale"_s << true;
        // The second held-out round (realbug_meta_heldout2.py, manifest round "held-out-2").
        // keras-hub's linear factor in the exponent: every pair at 10^(-2i/128).
        QTest::newRow("keras-hub-rope-scaling-exponent") << u"keras-hub-rope-scaling-exponent"_s << true;
        // Decode steps 48..63 each turned at position 0.
        QTest::newRow("keras-hub-llama-start-index") << u"keras-hub-llama-start-index"_s << true;
        QTest::newRow("keras-hub-yarn-truncate") << u"keras-hub-yarn-truncate"_s << true;
        QTest::newRow("keras-hub-falcon-alibi-decode") << u"keras-hub-falcon-alibi-decode"_s << true;
        QTest::newRow("trtmc-falcon-rw-alibi-scale") << u"trtmc-falcon-rw-alibi-scale"_s << true;
        QTest::newRow("imp-deepseek-v2-lite-yarn-mscale") << u"imp-deepseek-v2-lite-yarn-mscale"_s << true;
        QTest::newRow("mlxcel-llama3-scaling-ignored") << u"mlxcel-llama3-scaling-ignored"_s << true;
        QTest::newRow("tinyvllm-llama32-scaling") << u"tinyvllm-llama32-scaling"_s << true;
        QTest::newRow("maxtext-qwen35-mrope-partial-rotary") << u"maxtext-qwen35-mrope-partial-rotary"_s << true;
        // MPT's bias m (j - 2047) over 64 keys: each head's row is ALiBi's plus a constant of its
        // own, the keys counted as if the query stood at 2047: position-offset.
        QTest::newRow("mosaicml-mpt-alibi-slice") << u"mosaicml-mpt-alibi-slice"_s << true;
        QTest::newRow("aneforge-llama31-rope-scaling") << u"aneforge-llama31-rope-scaling"_s << true;
        QTest::newRow("vllm-ministral3-yarn-mscale") << u"vllm-ministral3-yarn-mscale"_s << true;
    }
    void verdicts()
    {
        QFETCH(QString, slug);
        QFETCH(bool, named);
        const QJsonObject bug = bugOf(slug);
        QVERIFY2(!bug.isEmpty(), qPrintable(slug));
        const QJsonObject buggy = verdictsHold(bug, true, named);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(buggy[u"verdict"_s].toString(), u"mistake"_s);
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliHeldOutBugs)
} // namespace tst_cliheldoutbugs
#include "tst_cliheldoutbugs.moc"
