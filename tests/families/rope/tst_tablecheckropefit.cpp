// The cost of RoPE's search (RopeSearch) on tables it does not explain, counted in the sample's
// cells it compares (SampleScore's cellsScored: the same on any machine, where a time is not), and
// that the verdicts stay what they were. The tables are written here from float64 formulas: the
// sinusoid of janvainer/speedyspeech code/functional.py, positional_encoding, with its precedence
// bug (10.0**4 ** (cols / channels), 10^(4^(2i/d)) where (10^4)^(2i/d) was meant; issue #23, fixed by
// pull request #25), and HF's RoPE cos table (transformers modeling_rope_utils.py,
// _compute_default_rope_parameters; LlamaRotaryEmbedding.forward, cat((freqs, freqs)).cos()).
#include "core/CheckTables.h"
#include "support/TestMain.h"

#include "check/SampleScore.h"
#include "check/TableMatch.h"

#include <QtTest>

#include <bit>
#include <cmath>
#include <cstdint>

namespace tst_tablecheckropefit {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

// speedyspeech's positional_encoding: sin in column 2i, cos in 2i + 1, of p / 10^(4^(2i/d)) (the
// bug) or p / (10^4)^(2i/d) (the fix).
RowMatrixXf speedyspeech(std::int64_t rows, std::int64_t d, bool bug)
{
    return table(rows, d, [&](std::int64_t p, std::int64_t j) {
        const double exponent = double(2 * (j / 2)) / double(d);
        const double denominator = bug ? std::pow(10.0, std::pow(4.0, exponent)) : std::pow(1e4, exponent);
        const double a = double(p) / denominator;
        return j % 2 == 0 ? std::sin(a) : std::cos(a);
    });
}

// HF's cos table: column c holds cos(p theta^(-2 (c mod d/2) / d)).
RowMatrixXf ropeCos(std::int64_t rows, std::int64_t d, double theta)
{
    return table(rows, d, [&](std::int64_t p, std::int64_t c) {
        return std::cos(double(p) * std::pow(theta, -2.0 * double(c % (d / 2)) / double(d)));
    });
}

// The cos half of diffusers' timestep embedding (embeddings.py, get_timestep_embedding: exponent
// -ln(max_period) i / (half - downscale_freq_shift), flip_sin_to_cos) at shift 1, written twice as a
// RoPE cos table's halves are: a default table of theta 10^(4 half / (half - 1)), which no round
// theta gives.
RowMatrixXf shiftedCos(std::int64_t rows, std::int64_t d)
{
    const std::int64_t half = d / 2;
    return table(rows, d, [&](std::int64_t p, std::int64_t c) {
        return std::cos(double(p) * std::exp(-std::log(1e4) * double(c % half) / double(half - 1)));
    });
}

// float32 rounded to bfloat16, to nearest even (torch's .to(torch.bfloat16)).
float bfloat16(float x)
{
    std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return std::bit_cast<float>(bits & 0xffff0000u);
}

// HF's cos table in bfloat16 with inv_freq rounded to bfloat16 before the angles were formed
// (sglang-jax's bug in tests/data/realbugs, sglangjax-inv-freq-bf16): inv_freq = 1 / theta^(2i/d) in
// float32 (modeling_rope_utils.py, _compute_default_rope_parameters), cast to bfloat16; the angles
// float(p) * inv_freq in float32, their cos rounded to bfloat16 (LlamaRotaryEmbedding.forward).
RowMatrixXf bfloat16InvFreqCos(std::int64_t rows, std::int64_t d, double theta)
{
    return table(rows, d, [&](std::int64_t p, std::int64_t c) {
        const auto exponent = float(2 * (c % (d / 2))) / float(d);
        const float inv = bfloat16(1.0f / std::pow(float(theta), exponent));
        return double(bfloat16(std::cos(float(p) * inv)));
    });
}

} // namespace

class TestTableCheckRopeFit : public QObject
{
    Q_OBJECT

private slots:
    // The ladder bug's table (400 x 128) took 40 to 70 s: RoPE's search read one copy of its pairs
    // as a sin table and scored every llama3 and yarn hypothesis at every base over most of the
    // sample (hopeless ones ran on to the best's count of cells beyond the tolerance, counted from
    // the first rows, which every hypothesis explains). Its verdict is what it was: unknown, most
    // of it RoPE's sin table of LongRoPE's free factors; the fix a correct sinusoid.
    void ladderBugIsCheap()
    {
        const std::int64_t before = cellsScored();
        const Checked bug = check(speedyspeech(400, 128, true));
        const std::int64_t cells = cellsScored() - before;
        QCOMPARE(bug.match.verdict, CheckVerdict::Unknown);
        QVERIFY2(bug.match.diagnosis.contains(u"most of the table equals rope-sin"_s), qPrintable(bug.match.diagnosis));
        QVERIFY2(cells < kLadderCells, qPrintable(u"%1 cells scored"_s.arg(cells)));
        const Checked fix = check(speedyspeech(400, 128, false));
        QCOMPARE(fix.match.verdict, CheckVerdict::Correct);
    }

    // A correct table costs little as it did: the published form matches first.
    void correctRopeIsCheap()
    {
        const std::int64_t before = cellsScored();
        const Checked c = check(ropeCos(4096, 128, 10000.0));
        const std::int64_t cells = cellsScored() - before;
        QCOMPARE(c.match.verdict, CheckVerdict::Correct);
        QVERIFY2(cells < kCorrectCells, qPrintable(u"%1 cells scored"_s.arg(cells)));
    }

    // A sinusoid or a learned table after a padding row of zeros is no RoPE cache of half the rotary
    // width (RopeHalfCache::mayHold): not searched as one, which cost a hundred times its check.
    void paddedTablesAreNotHalfCaches()
    {
        const std::int64_t before = cellsScored();
        const Checked sinusoid
            = check(table(400, 128, [](std::int64_t p, std::int64_t j) { return fairseq(p, j, 128, 1e4, 0); }));
        RowMatrixXf learned = random(400, 128, 7);
        learned.row(0).setZero();
        const Checked other = check(learned);
        const std::int64_t cells = cellsScored() - before;
        QCOMPARE(sinusoid.match.verdict, CheckVerdict::Correct);
        QVERIFY(other.match.verdict != CheckVerdict::Correct);
        QVERIFY2(cells < kCorrectCells, qPrintable(u"%1 cells scored"_s.arg(cells)));
    }

    // A theta between round ones (the cos half of a timestep embedding of downscale_freq_shift 1):
    // the round thetas tried first leave nearly every cell beyond the tolerance, and every llama3
    // and yarn hypothesis at them was counted over nearly the whole sample against that best. The
    // default at the fitted theta's nearest rounding bounds them from the start (RopeSearch::boundBy).
    void thetaBetweenRoundOnesIsCheap()
    {
        const std::int64_t before = cellsScored();
        const Checked c = check(shiftedCos(1000, 320));
        const std::int64_t cells = cellsScored() - before;
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        // Its verdict is what it was: a RoPE cos table or a sinusoid, which the check cannot tell apart.
        QCOMPARE(c.match.verdict, CheckVerdict::Unknown);
        QVERIFY2(c.match.diagnosis.contains(u"a rope-cos table or a sinusoidal table"_s),
                 qPrintable(c.match.diagnosis));
        QVERIFY2(cells < kShiftedCells, qPrintable(u"%1 cells scored"_s.arg(cells)));
    }

    // A bfloat16 table no rope_theta explains (its frequencies rounded to bfloat16): every llama3 and
    // yarn hypothesis at each of the fitted theta's dozen roundings was counted over most of the
    // sample, each best only a few cells better than the default at that theta. A hypothesis that
    // keeps the default's fast pairs leaves their cells as the default does, which bounds its count
    // from below before it is scored (RopeFit::ScoreBound): it is dropped where that passes the best's.
    void bfloat16FrequenciesAreCheap()
    {
        const std::int64_t before = cellsScored();
        const Checked c = check(bfloat16InvFreqCos(2048, 64, 1e4));
        const std::int64_t cells = cellsScored() - before;
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        // Its verdict is what it was: the half-precision frequencies named.
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QVERIFY2(c.match.mistakes.contains(u"half-precision-angles"_s), qPrintable(c.match.mistakes.join(u", "_s)));
        QVERIFY2(cells < kBfloat16Cells, qPrintable(u"%1 cells scored"_s.arg(cells)));
    }

private:
    // Before: some 860 million cells (43,900 hypotheses, each counted over nearly all 19,968 sampled
    // cells); after: some 80 million.
    static constexpr std::int64_t kLadderCells = 200000000;
    // 160,000 cells: the published form first, then the rows read back.
    static constexpr std::int64_t kCorrectCells = 1000000;
    // Before: some 151 million cells; after: some 24 million.
    static constexpr std::int64_t kShiftedCells = 60000000;
    // Before: some 276 million cells; after: some 91 million.
    static constexpr std::int64_t kBfloat16Cells = 150000000;
};

POSENC_TEST_GUILESS_MAIN(TestTableCheckRopeFit)
} // namespace tst_tablecheckropefit
#include "tst_tablecheckropefit.moc"
