// RoPE cos tables against a declared reference whose rows are not positions 0..L-1 of it, each
// written here in float64 from HF's formulas and rounded to float32:
// - a later chunk of a sequence (a cached decoding step, a chunked prefill: position_ids F..F+L-1,
//   LlamaRotaryEmbedding.forward's cos for them): position-offset with the rows' positions where
//   no first position is declared; correct where it is (--position-ids F..: Declared::firstPosition).
//   LongRoPE takes its list by max(position_ids) + 1 = F + L (modeling_rope_utils.py,
//   longrope_frequency_update), not by the chunk's L: long_factor past the original length is
//   right; short_factor there is longrope-factor-set (mistral.rs#251).
// - positions multiplied by s (mlx-lm#1545, InternLM3's position scale 2): positions-scaled, not
//   positions-out-of-order; rows truly moved stay positions-out-of-order.
// - DeepSeek-V3 (rope_interleave true): DeepseekV3RotaryEmbedding.forward returns cat(freqs, freqs),
//   the half layout, whatever rope_interleave says (modeling_deepseek_v3.py: apply_rotary_pos_emb_
//   interleave permutes q and k, not the table); DeepSeek's own inference/model.py turns consecutive
//   pairs (precompute_freqs_cis, apply_rotary_emb), repeat_interleave in real numbers. Both are
//   correct against it; a model declared interleaved whose code does not de-interleave (Command R)
//   holds a half table a mistake.
#include "core/CheckTables.h"
#include "support/TestMain.h"

#include "check/DeclaredReading.h"
#include "check/TableCheck.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <vector>

namespace tst_tablecheckropechunk {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

Params defaultRope(std::int64_t headDim, double theta, RopeLayout layout = RopeLayout::Half)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.maxLen = 4096;
    p.rope.headDim = headDim;
    p.rope.theta = theta;
    p.rope.layout = layout;
    return p;
}

// HF's cos at position(r) for row r: column c turns with inv[pair(c)], times `amplitude`.
RowMatrixXf cosTable(std::int64_t rows, const std::vector<double> &inv, bool half, double amplitude,
                     const std::function<double(std::int64_t)> &position)
{
    const auto pairs = std::int64_t(inv.size());
    return table(rows, 2 * pairs, [&](std::int64_t r, std::int64_t c) {
        const std::int64_t i = half ? c % pairs : c / 2;
        return amplitude * std::cos(position(r) * inv[std::size_t(i)]);
    });
}

// _compute_default_rope_parameters: inv_i = theta^(-2i/d).
std::vector<double> defaultInv(std::int64_t d, double theta)
{
    std::vector<double> inv;
    for (std::int64_t i = 0; i < d / 2; ++i)
        inv.push_back(std::pow(theta, -2.0 * double(i) / double(d)));
    return inv;
}

// The LongRoPE of tst_tablechecklongrope: original 256, max_position_embeddings 4096.
constexpr std::int64_t kOriginal = 256;
constexpr double kLongFactor = 16.0;
std::vector<double> factors(double step)
{
    std::vector<double> f;
    for (std::int64_t i = 0; i < 16; ++i)
        f.push_back(1.0 + step * double(i));
    return f;
}
Params longRope()
{
    Params p = defaultRope(32, 10000.0);
    p.rope.type = RopeType::LongRope;
    p.rope.factor = kLongFactor;
    p.rope.originalMaxLen = kOriginal;
    p.rope.shortFactor = factors(0.05);
    p.rope.longFactor = factors(1.5);
    return p;
}
// _compute_longrope_parameters: inv_i = 1 / (ext_i theta^(2i/d)), attention sqrt(1 + ln(16) / ln(256)).
std::vector<double> longRopeInv(bool longList)
{
    const std::vector<double> ext = factors(longList ? 1.5 : 0.05);
    std::vector<double> inv;
    for (std::int64_t i = 0; i < 16; ++i)
        inv.push_back(1.0 / (ext[std::size_t(i)] * std::pow(10000.0, 2.0 * double(i) / 32.0)));
    return inv;
}
double longRopeAttention()
{
    return std::sqrt(1.0 + std::log(kLongFactor) / std::log(double(kOriginal)));
}

// DeepSeek-V3's YaRN (config: qk_rope_head_dim 64, rope_theta 10000, factor 40, original 4096,
// beta_fast 32, beta_slow 1, mscale = mscale_all_dim = 1): _compute_yarn_parameters in float64.
Params deepseekV3(RopeLayout layout)
{
    Params p = defaultRope(64, 10000.0, layout);
    p.rope.type = RopeType::Yarn;
    p.rope.factor = 40.0;
    p.rope.originalMaxLen = 4096;
    p.rope.mscale = 1.0;
    p.rope.mscaleAllDim = 1.0;
    return p;
}
std::vector<double> deepseekInv()
{
    const double d = 64.0, base = 10000.0, factor = 40.0, original = 4096.0;
    const auto correction = [&](double rotations) {
        return d * std::log(original / (rotations * 2.0 * std::numbers::pi)) / (2.0 * std::log(base));
    };
    const double low = std::max(0.0, std::floor(correction(32.0)));
    const double high = std::min(d - 1.0, std::ceil(correction(1.0)));
    std::vector<double> inv;
    for (std::int64_t i = 0; i < 32; ++i) {
        const double extrapolated = std::pow(base, -2.0 * double(i) / d);
        const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
        inv.push_back(extrapolated / factor * ramp + extrapolated * (1.0 - ramp));
    }
    return inv; // attention factor get_mscale(40, 1) / get_mscale(40, 1) = 1
}

TableMatch expected(const RowMatrixXf &t, const Params &p, std::int64_t firstPosition = 0)
{
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(t), StoredType::Float32, u"test"_s);
    TableCheck::Declared declared;
    declared.firstPosition = firstPosition;
    return concluded(rows, TableCheck::expect(rows, Encoding::Rope, p, u"rope-cos"_s, nullptr, declared)).match;
}

// As `posenc check --expect rope` checks a table: both of the declaration's tables (rope-cos and
// rope-sin) streamed, the better kept (streamDeclared). The table's undeclared reading, which the
// command line adds, is left out: it reads a first position up to 64 only, and the choice of the
// table must not rest on it (past 64 it reads nothing, and each search takes seconds).
TableMatch declaredEitherTable(const RowMatrixXf &t, const Params &p)
{
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(t), StoredType::Float32, u"test"_s);
    TableCheck::DeclaredRows declared;
    for (const QString &word : {u"rope-cos"_s, u"rope-sin"_s}) {
        auto m = TableCheck::expect(rows, Encoding::Rope, p, word);
        if (auto *match = std::get_if<TableMatch>(&m))
            declared.candidates.push_back(std::move(*match));
    }
    declared.family = Encoding::Rope;
    declared.params = p;
    declared.referenceGiven = true;
    auto done = TableCheck::streamDeclared(std::move(declared), rows, {});
    return std::holds_alternative<TableCheck::Streamed>(done) ? std::get<TableCheck::Streamed>(std::move(done)).match
                                                              : TableMatch();
}

} // namespace

class TestTableCheckRopeChunk : public QObject
{
    Q_OBJECT

private slots:
    void laterChunkIsPositionOffsetOrCorrectWithItsFirstPosition()
    {
        const Params p = defaultRope(64, 500000.0);
        const std::vector<double> inv = defaultInv(64, 500000.0);
        for (const std::int64_t first : {1000, 5000}) {
            const RowMatrixXf chunk = cosTable(256, inv, true, 1.0, [&](std::int64_t r) { return double(first + r); });
            const TableMatch undeclared = expected(chunk, p);
            QCOMPARE(undeclared.verdict, CheckVerdict::Mistake);
            QCOMPARE(undeclared.mistakes, QStringList {u"position-offset"_s});
            QCOMPARE(undeclared.positionOffset.value_or(0), first);
            QVERIFY2(undeclared.diagnosis.contains(u"rows 0..255 hold positions %1..%2"_s.arg(first).arg(first + 255)),
                     qPrintable(undeclared.diagnosis));
            QCOMPARE(expected(chunk, p, first).verdict, CheckVerdict::Correct);
            // Another theta at those positions, and the rows from 0, are no chunk of this reference.
            const RowMatrixXf other
                = cosTable(256, defaultInv(64, 10000.0), true, 1.0, [&](std::int64_t r) { return double(first + r); });
            QCOMPARE(expected(other, p, first).verdict, CheckVerdict::Mistake);
            const RowMatrixXf fromZero = cosTable(256, inv, true, 1.0, [](std::int64_t r) { return double(r); });
            QCOMPARE(expected(fromZero, p).verdict, CheckVerdict::Correct);
            QCOMPARE(expected(fromZero, p, first).verdict, CheckVerdict::Mistake);
        }
    }

    // A cos table from any first position, declared `rope` (a cos and a sin table both declared):
    // read as the cos table it is, position-offset with its offset, never the sin table that names
    // nothing (its rows read at no position of the sin reference). And a sin table as sin.
    void cosTableAtAnyOffsetIsReadAsCos()
    {
        for (const std::int64_t d : {32, 64, 128}) {
            const Params p = defaultRope(d, 10000.0);
            const std::vector<double> inv = defaultInv(d, 10000.0);
            // Positions from 0..200: the edges of what the fit reads (64) and a spread past them.
            std::vector<std::int64_t> firsts {0, 1, 2, 63, 64, 65, 66, 100, 150, 199, 200};
            for (std::int64_t first = 3 + d % 31; first < 200; first += 31)
                firsts.push_back(first);
            for (const std::int64_t first : firsts) {
                const auto at = [&](std::int64_t r) { return double(first + r); };
                const TableMatch m = declaredEitherTable(cosTable(64, inv, true, 1.0, at), p);
                const QString said = u"head_dim %1, positions from %2: %3 %4 (%5)"_s.arg(d).arg(first).arg(
                    m.table, m.mistakes.join(u", "_s), m.diagnosis);
                QVERIFY2(m.table == u"rope-cos"_s, qPrintable(said));
                if (first == 0) {
                    QVERIFY2(m.verdict == CheckVerdict::Correct, qPrintable(said));
                    continue;
                }
                QVERIFY2(m.mistakes == QStringList {u"position-offset"_s}, qPrintable(said));
                QVERIFY2(m.positionOffset.value_or(-1) == first, qPrintable(said));
            }
        }
        const std::vector<double> inv = defaultInv(64, 10000.0);
        for (const std::int64_t first : {0, 7, 100, 150, 200}) {
            const RowMatrixXf sin = table(64, 64, [&](std::int64_t r, std::int64_t c) {
                return std::sin(double(first + r) * inv[std::size_t(c % 32)]);
            });
            QCOMPARE(declaredEitherTable(sin, defaultRope(64, 10000.0)).table, u"rope-sin"_s);
        }
    }

    void longRopeChunkTakesTheListOfItsLastPosition()
    {
        const Params p = longRope();
        const std::int64_t first = kOriginal, rows = 128; // positions 256..383: 384 > 256, long_factor
        const auto at = [&](std::int64_t r) { return double(first + r); };
        const RowMatrixXf right = cosTable(rows, longRopeInv(true), true, longRopeAttention(), at);
        const RowMatrixXf wrong = cosTable(rows, longRopeInv(false), true, longRopeAttention(), at);
        QCOMPARE(expected(right, p, first).verdict, CheckVerdict::Correct);
        const TableMatch rightUndeclared = expected(right, p);
        QCOMPARE(rightUndeclared.mistakes, QStringList {u"position-offset"_s});
        QVERIFY2(!rightUndeclared.diagnosis.contains(u"positions 0.."_s), qPrintable(rightUndeclared.diagnosis));
        const TableMatch wrongDeclared = expected(wrong, p, first);
        QCOMPARE(wrongDeclared.verdict, CheckVerdict::Mistake);
        QVERIFY2(wrongDeclared.mistakes == QStringList {u"longrope-factor-set"_s},
                 qPrintable(wrongDeclared.mistakes.join(u", "_s) + u": "_s + wrongDeclared.diagnosis));
        const TableMatch wrongUndeclared = expected(wrong, p);
        QCOMPARE(wrongUndeclared.mistakes, (QStringList {u"position-offset"_s, u"longrope-factor-set"_s}));
        QVERIFY2(wrongUndeclared.diagnosis.contains(u"short_factor where transformers takes long_factor"_s),
                 qPrintable(wrongUndeclared.diagnosis));
    }

    void scaledPositionsAreNamedSo()
    {
        const Params p = defaultRope(128, 50000000.0);
        const std::vector<double> inv = defaultInv(128, 50000000.0);
        for (const std::int64_t s : {2, 3}) {
            const RowMatrixXf scaled = cosTable(512, inv, true, 1.0, [&](std::int64_t r) { return double(s * r); });
            const TableMatch m = expected(scaled, p);
            QCOMPARE(m.verdict, CheckVerdict::Mistake);
            QCOMPARE(m.mistakes, QStringList {u"positions-scaled"_s});
            QVERIFY2(m.diagnosis.contains(u"row r holds position %1 r"_s.arg(s)), qPrintable(m.diagnosis));
        }
        // Rows moved, not scaled: the second half holds positions 0..255 again.
        const RowMatrixXf moved = cosTable(512, inv, true, 1.0, [](std::int64_t r) { return double(r % 256); });
        QVERIFY(expected(moved, p).mistakes.contains(u"positions-out-of-order"_s));
        QVERIFY(!expected(moved, p).mistakes.contains(u"positions-scaled"_s));
    }

    void deepseekTableInEitherLayoutIsCorrect()
    {
        const std::vector<double> inv = deepseekInv();
        const auto at = [](std::int64_t r) { return double(r); };
        for (const bool half : {true, false}) {
            const RowMatrixXf t = cosTable(512, inv, half, 1.0, at);
            const TableMatch m = expected(t, deepseekV3(RopeLayout::Interleaved));
            QCOMPARE(m.verdict, CheckVerdict::Correct);
            QCOMPARE(m.mistakes, QStringList {});
        }
        // Another model declared interleaved (Command R's rotate_every_two and its interleaved table,
        // CohereRotaryEmbedding: repeat_interleave): a half table is its rope-layout mistake.
        const Params cohere = defaultRope(128, 50000.0, RopeLayout::Interleaved);
        const RowMatrixXf half = cosTable(512, defaultInv(128, 50000.0), true, 1.0, at);
        QCOMPARE(expected(half, cohere).verdict, CheckVerdict::Mistake);
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableCheckRopeChunk)
} // namespace tst_tablecheckropechunk
#include "tst_tablecheckropechunk.moc"
