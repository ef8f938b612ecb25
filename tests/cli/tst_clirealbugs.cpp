// posenc check on the real-bug corpus (tests/data/realbugs, issue 56): each bug's fixed and buggy
// output as its manifest.json declares them. The rows are the bugs the check now holds for; the
// list grows as the work does (BASELINE.md is where the others stand).
#include "RealBugsRun.h"
#include "support/Sanitizer.h"
#include "support/TestMain.h"

namespace tst_clirealbugs {
using namespace RealBugsRun;

class TestCliRealBugs : public QObject
{
    Q_OBJECT

private slots:
    // Each row: the bug, whether its declared flags can state the fixed output's reference (the
    // manifest's flags_note says where they cannot yet), and whether the buggy output's mistake is
    // named as the manifest says.
    void verdicts_data()
    {
        QTest::addColumn<QString>("slug");
        QTest::addColumn<bool>("declarable");
        QTest::addColumn<bool>("named");
        // diffusers' get_timestep_embedding: --flip-sin-to-cos and --freq-shift declare it.
        QTest::newRow("diffusers-prx-freq-shift") << u"diffusers-prx-freq-shift"_s << true << true;
        QTest::newRow("flashinfer-wan-timestep-order") << u"flashinfer-wan-timestep-order"_s << true << true;
        QTest::newRow("tf-rtdetr-non-square") << u"tf-rtdetr-non-square"_s << true << true;
        // candle's pixtral cos of float32 angles, correct declared; the 64-wide grid's rows named.
        QTest::newRow("candle-pixtral-positions") << u"candle-pixtral-positions"_s << true << true;
        QTest::newRow("mlxlm-dsv32-indexer-layout") << u"mlxlm-dsv32-indexer-layout"_s << true << true;
        // Angles formed in bfloat16 (autocast; candle's bf16 t.matmul): the pipeline named declared.
        QTest::newRow("tf-llama-autocast-bf16") << u"tf-llama-autocast-bf16"_s << true << true;
        QTest::newRow("candle-qwen3-bf16-freqs") << u"candle-qwen3-bf16-freqs"_s << true << true;
        // GPT-NeoX's fixed table (HF's float32 inv_freq) deviates from the exact angles by 2.7e-7 in its
        // middle rows, its last rows within the exact angles' tolerance: no evidence against float32
        // angles (once "mistake", the last rows read as flat noise).
        QTest::newRow("tf-gptneox-left-padding") << u"tf-gptneox-left-padding"_s << true << true;
        QTest::newRow("mlxlm-suscaled-long-factors") << u"mlxlm-suscaled-long-factors"_s << true << true;
        // The shapes besides a table (issue 56 item 1): inv_freq vectors, ALiBi's [1, H, L, L] and
        // BLOOM's [H, 1, L].
        QTest::newRow("tf-llama31-inv-freq") << u"tf-llama31-inv-freq"_s << true << true;
        QTest::newRow("tf-dynamic-ntk-no-reset") << u"tf-dynamic-ntk-no-reset"_s << true << true;
        QTest::newRow("unsloth-longrope-boundary") << u"unsloth-longrope-boundary"_s << true << true;
        QTest::newRow("mlx-alibi-non-power-of-two") << u"mlx-alibi-non-power-of-two"_s << true << true;
        QTest::newRow("megatron-alibi-tensor-parallel") << u"megatron-alibi-tensor-parallel"_s << true << true;
        QTest::newRow("sglangjax-inv-freq-bf16") << u"sglangjax-inv-freq-bf16"_s << true << true;
        QTest::newRow("aprender-alibi-slope-offset") << u"aprender-alibi-slope-offset"_s << true << true;
        // A bfloat16 partial rotary at theta 1e7: its slowest pairs move no value beyond bfloat16's rounding
        // and are read with the frequencies, not as columns passed through (once: linear factor 50). The
        // buggy output turns proportional's pairs (i, i + 128) at theta^(-2i/256), rope_theta read from
        // bfloat16's rows as closely as they pin it: rotary-dim-exponent against rotary_dim 64.
        QTest::newRow("pie-partial-rotary-proportional") << u"pie-partial-rotary-proportional"_s << true << true;
        // The converse: Gemma 4's proportional RoPE turned as a contiguous partial rotary of 128 columns.
        // The rows the frequencies read place at no position beside rows each at its own are no order
        // of positions (once positions-out-of-order besides rotary-dim), and the reference's
        // rotary_dim is said as proportional's whole head, not int(head_dim * partial_rotary_factor).
        QTest::newRow("coreai-gemma4-proportional-contiguous")
            << u"coreai-gemma4-proportional-contiguous"_s << true << true;
        // vLLM's cos_sin_cache, cat(cos, sin) in one tensor: each half against the declared dynamic RoPE.
        // The buggy cache's constant base: rope_theta 3108.22 where dynamic's at 8192 positions is 7453.5.
        QTest::newRow("vllm-dynamic-ntk-constant-base") << u"vllm-dynamic-ntk-constant-base"_s << true << true;
        // T5 bucket maps without a part of _relative_position_bucket: the log branch (candle#727, every
        // distance its own bucket) or the clamp on the keys before the query (candle#1312, buckets 16-17
        // past max_distance), each named with its cells against the declared 32 buckets and 128.
        QTest::newRow("candle-t5-exact-buckets") << u"candle-t5-exact-buckets"_s << true << true;
        QTest::newRow("candle-t5-bucket-unclamped") << u"candle-t5-bucket-unclamped"_s << true << true;
        // HunyuanImage 3.0's interleaved 2-D RoPE, its image's ids from (28, 28), declared with
        // --rope-2d-style hunyuan --rope-2d-origin; vLLM's contiguous sections the pairs on other axes.
        QTest::newRow("vllmomni-hunyuanimage3-rope-sections")
            << u"vllmomni-hunyuanimage3-rope-sections"_s << true << true;
        // DeBERTa's signed buckets against a dump of the reference's (--expect-table): negated, the map
        // of the other difference, said of whole numbers.
        QTest::newRow("nntrainer-deberta-p2c-transpose") << u"nntrainer-deberta-p2c-transpose"_s << true << true;
        // Biases of a step with a cache, [1, H, q, k]: the queries the last q of the k keys (T5Attention.forward's
        // position_bias[:, :, -seq_length:, :]); at 0 .. q - 1 the cache's offset was forgotten: position-offset.
        QTest::newRow("candle-t5-kv-cache") << u"candle-t5-kv-cache"_s << true << true;
        QTest::newRow("xtransformers-t5-cache-offset") << u"xtransformers-t5-cache-offset"_s << true << true;
        QTest::newRow("xtransformers-alibi-cache-offset") << u"xtransformers-alibi-cache-offset"_s << true << true;
        // A causal decoder's buckets made bidirectional, against a dump of the decoder's map.
        QTest::newRow("xtransformers-causal-flag") << u"xtransformers-causal-flag"_s << true << true;
        // A learned weight's rows read from the wrong offset, against the weight (--position-table) from
        // the declared --position-offset: RoBERTa's padding_idx + 1, ViT's class token row.
        QTest::newRow("sentence-transformers-roberta-flattened")
            << u"sentence-transformers-roberta-flattened"_s << true << true;
        QTest::newRow("labml-vit-cls-position") << u"labml-vit-cls-position"_s << true << true;
        // A learned grid resized by Keys' bicubic (A = -0.5) where torch's takes A = -0.75, --resize-method bicubic.
        QTest::newRow("mlxvlm-moonvit-bicubic") << u"mlxvlm-moonvit-bicubic"_s << true << true;
        // Timesteps scaled by a constant against the declared embedding: times 1000 twice (Step1X-Edit,
        // sglang's FLUX guidance, DiffSynth's FLUX.2 feature path) or in [0, 1] where DiT's embedder takes
        // [0, 1000) (Just-a-DiT, REPA): positions-scaled, the factor read from the angles.
        QTest::newRow("step1x-timestep-double-scale") << u"step1x-timestep-double-scale"_s << true << true;
        QTest::newRow("sglang-flux-guidance-double-scale") << u"sglang-flux-guidance-double-scale"_s << true << true;
        QTest::newRow("diffsynth-flux2-feature-timestep") << u"diffsynth-flux2-feature-timestep"_s << true << true;
        QTest::newRow("justadit-unit-timesteps") << u"justadit-unit-timesteps"_s << true << true;
        // PixArt-XL-2-256x256's grid at interpolation_scale 1 where 0.5 is declared (diffusers#6783).
        QTest::newRow("diffusers-pixart256-interpolation-scale")
            << u"diffusers-pixart256-interpolation-scale"_s << true << true;
        // LoFTR's [C, H, W] map read as PositionEncodingSine's (no flag declares it): the fixed div_term
        // correct, the floored one (temp_bug_fix=False, LoFTR#41) div-term-floored.
        QTest::newRow("loftr-div-term") << u"loftr-div-term"_s << true << true;
    }
    // The fixed output never a mistake undeclared, and the manifest's verdict against its declared
    // reference; the buggy one never correct against it, its mistake named where the row says.
    void verdicts()
    {
        QFETCH(QString, slug);
        QFETCH(bool, declarable);
        QFETCH(bool, named);
        // Under a sanitizer the angles formed in bfloat16 are read once, in transformers' autocast:
        // candle's, the same class, took 4.5 s of the release suite's 20 for this function.
        POSENC_UNDER_SANITIZER_ONLY_ROWS_WHERE(slug != u"candle-qwen3-bf16-freqs"_s);
        const QJsonObject bug = bugOf(slug);
        QVERIFY2(!bug.isEmpty(), qPrintable(slug));
        const QJsonObject buggy = verdictsHold(bug, declarable, named);
        if (QTest::currentTestFailed() || !declarable)
            return;
        if (slug == u"coreai-gemma4-proportional-contiguous"_s) {
            QCOMPARE(buggy[u"mistakes"_s].toArray(), QJsonArray {u"rotary-dim"_s});
            const QString diagnosis = buggy[u"diagnosis"_s].toString();
            QVERIFY2(diagnosis.contains(u"proportional RoPE turns every pair of the head, 192 of its 256 at frequency 0"_s)
                         && !diagnosis.contains(u"int(head_dim"_s),
                     qPrintable(diagnosis));
        }
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliRealBugs)
} // namespace tst_clirealbugs
#include "tst_clirealbugs.moc"
